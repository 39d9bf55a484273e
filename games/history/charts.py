"""A rating chart as an inline SVG drawn on the server (no chart library on the page)."""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

WIDTH, HEIGHT, PAD = 320, 120, 24


def _n(value: float) -> str:
    """A coordinate: never localised, one decimal."""
    return f"{value:.1f}"


def rating_chart(changes, *, title: str) -> str:
    """An SVG line of the displayed rating after each rated game (empty without games)."""
    if not changes:
        return ""
    values = [changes[0].display_before] + [c.display for c in changes]
    low, high = min(values), max(values)
    if high - low < 20:
        mid = (high + low) / 2
        low, high = mid - 10, mid + 10
    span_x = max(1, len(values) - 1)
    points = []
    for i, v in enumerate(values):
        x = PAD + (WIDTH - 2 * PAD) * i / span_x
        y = HEIGHT - PAD - (HEIGHT - 2 * PAD) * (v - low) / (high - low)
        points.append((x, y))
    line = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
    dots = "".join(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="2.5" class="rating-dot"/>'
                   for x, y in points[1:])
    label = _("From %(first)s to %(last)s over %(n)s rated games") % {
        "first": values[0], "last": values[-1], "n": len(changes)}
    svg = (
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(title)}: {escape(label)}" xmlns="http://www.w3.org/2000/svg">'
        f'<title>{escape(title)}</title><desc>{escape(label)}</desc>'
        f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" class="rating-axis"/>'
        f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{HEIGHT - PAD}" class="rating-axis"/>'
        f'<text x="2" y="{PAD + 4}" class="rating-label">{int(high)}</text>'
        f'<text x="2" y="{HEIGHT - PAD + 4}" class="rating-label">{int(low)}</text>'
        f'<polyline points="{line}" class="rating-line" fill="none"/>{dots}</svg>')
    return mark_safe(svg)
