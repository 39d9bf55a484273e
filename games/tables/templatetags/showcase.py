"""Template helpers of the pages that present the games (landing, first steps)."""

from functools import lru_cache

from django import template
from django.contrib.staticfiles import finders
from django.templatetags.static import static

from games.tables.plugins import listed_games as _listed_games

register = template.Library()


@register.simple_tag
def listed_games():
    """The games offered, by name."""
    return _listed_games()


@lru_cache(maxsize=64)
def _picture(slug: str) -> str:
    path = f"img/games/{slug}.png"
    return static(path) if finders.find(path) else ""


@register.simple_tag
def game_picture(slug: str) -> str:
    """The URL of a game's picture (scripts/game_pictures.py draws them), or "" if it has none."""
    return _picture(slug)
