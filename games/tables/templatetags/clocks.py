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
    if table.status != "running":
        return False
    known = getattr(table, "has_paused_seat", None)  # set by games.history.people.annotate
    if known is not None:
        return known
    return table.seats.filter(paused_at__isnull=False).exists()
