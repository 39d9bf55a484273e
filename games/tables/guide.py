"""Rules pages (/games/<slug>/rules/): each game's rules in the reader's language.

A game ships its rules as whole templates per language, `<app label>/rules_<lang>.html`
(English is the fallback): long prose reads better translated as a text than as
hundreds of message ids. Boards show a short `<app label>/_howto.html`.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.template.loader import select_template
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from .plugins import game_config, listed_games


def rules_template(config) -> str:
    """The rules template of a game in the current language (English if there is none)."""
    lang = (get_language() or "en").split("-")[0]
    return select_template([f"{config.label}/rules_{lang}.html", f"{config.label}/rules_en.html",
                            "tables/_no_rules.html"]).template.name


def rules_page(request, slug: str):
    try:
        config = game_config(slug)
    except KeyError:
        raise Http404(_("There is no such game.")) from None
    if not config.listed:
        raise Http404(_("There is no such game."))
    return render(request, "tables/rules.html", {
        "game": config, "game_name": config.rules.name, "rules_template": rules_template(config),
        "others": [g for g in listed_games() if g.game_slug != slug]})
