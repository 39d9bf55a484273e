"""Template helpers for clocks in days."""

from django import template

from games.tables import clocks

register = template.Library()


@register.filter
def time_control_text(table) -> str:
    """A table's time control in words."""
    return clocks.describe(table.time_control or {})
