"""Template helpers of the history app."""

from django import template
from django.utils.translation import gettext as _

from games.tables.plugins import listed_games

register = template.Library()


@register.inclusion_tag("history/_leaderboard_links.html")
def leaderboard_links():
    """Links to every listed game's leaderboard."""
    return {"boards": [(c.game_slug, _(c.rules.name)) for c in listed_games()]}
