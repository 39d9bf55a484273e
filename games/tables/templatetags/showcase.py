"""Template helpers of the pages that present the games (landing, first steps)."""

from functools import lru_cache

from django import template
from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.utils.translation import get_language

from games.tables.plugins import listed_games as _listed_games

register = template.Library()


@register.simple_tag
def listed_games():
    """The games offered, by name."""
    return _listed_games()


def picture_path(slug: str, language: str) -> str:
    """A game's picture drawn in `language`, under static/ (scripts/game_pictures.py writes
    them): `img/games/<slug>.png` in the site's default language, `<slug>.<language>.png`
    in the others."""
    if language == settings.LANGUAGE_CODE:
        return f"img/games/{slug}.png"
    return f"img/games/{slug}.{language}.png"


@lru_cache(maxsize=64)
def _picture(slug: str, language: str) -> str:
    """The picture in `language`, else the default language's, else ""."""
    for path in (picture_path(slug, language), picture_path(slug, settings.LANGUAGE_CODE)):
        if finders.find(path):
            return static(path)
    return ""


@register.simple_tag
def game_picture(slug: str) -> str:
    """The URL of a game's picture in the page's language (scripts/game_pictures.py draws
    them: the board's words are in that language), or "" if it has none."""
    return _picture(slug, get_language() or settings.LANGUAGE_CODE)
