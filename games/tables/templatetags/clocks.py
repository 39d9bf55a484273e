"""Template helpers for clocks in days."""

from django import template

from games.tables import clocks

register = template.Library()


@register.filter
def time_control_text(table) -> str:
    """A table's time control in words."""
    return clocks.describe(table.time_control or {})


@register.filter
def is_paused(table) -> bool:
    """Whether a running table waits for a player whose clock ran out (no bot plays)."""
    return table.status == "running" and table.seats.filter(paused_at__isnull=False).exists()
