"""Gizmos rules engine (RULES.md): pure Python, imports only the stdlib and games.engine."""

from games.engine import _

from .cards import CARDS, COLORS, DESIGNS
from .game import GizmosRules, copy_state, score, stored
from .view import build_view


class _Gizmos(GizmosRules):
    """Gizmos with its view."""

    def view(self, state, seat):
        if seat is not None and (type(seat) is not int or not 0 <= seat < state["players"]):
            seat = None
        return build_view(self, state, seat)


RULES = _Gizmos(slug="gizmos", name=_("Gizmos"), min_players=2, max_players=4)

__all__ = ["RULES", "CARDS", "COLORS", "DESIGNS", "copy_state", "score", "stored"]
