"""Template helpers of the table pages."""

from django import template
from django.utils.translation import gettext as _

from games.engine import get_rules

register = template.Library()


@register.simple_tag
def submission_key() -> str:
    """A fresh key for one drawn move form: a retry of that form re-sends the same key."""
    import secrets

    return secrets.token_urlsafe(16)


@register.filter
def game_name(slug: str) -> str:
    """A game's translated name from its slug."""
    try:
        return _(get_rules(slug).name)
    except KeyError:
        return slug


@register.simple_tag
def outcome_text(tv) -> str:
    """The result in words, from the table's stored outcome."""
    outcome = tv.outcome or {}
    names = {row["position"]: row["name"] for row in tv.seats}
    winners = [names.get(w, "?") for w in outcome.get("winners", [])]
    if outcome.get("reason") == "resign" and not winners:
        return _("The game ended when a player resigned.")
    if outcome.get("reason") == "abandoned":
        return _("The game was abandoned.")
    if not winners:
        return _("The game is over: nobody won.")
    if len(winners) == 1:
        return _("%(name)s won!") % {"name": winners[0]}
    return _("Shared win: %(names)s") % {"names": ", ".join(winners)}


@register.filter
def get_item(mapping, key):
    """mapping[key] in a template (also with int/str keys mixed)."""
    if mapping is None:
        return None
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        try:
            return mapping[str(key)]
        except (KeyError, IndexError, TypeError):
            return None
