"""Powerhouse rules (RULES.md in shared/games/powerhouse). Pure Python: no Django.

Moves, one decision each (RULES.md section 13):

- ``{"type": "draw", "kind": "S" | "M" | "L" | "die"}``: the size to feel for, or a die;
  the seeded generator picks the colour.
- Reaction phase: ``{"type": "fire", "piece": "green-L"}`` (a reactor or stable reactor),
  ``{"type": "battery", "color": "yellow"}``, ``{"type": "dump", "piece": "red-M"}``
  (Major Dump, one piece at a time, then ``{"type": "stop"}``) and ``{"type": "end"}``.
- Inside a reaction: ``{"type": "discard", "piece": ...}`` (the battery's discard),
  ``{"type": "transform", "piece": ...}`` (the battery's piece to give),
  ``{"type": "give", "to": seat}``, then ``{"type": "take", "piece": ...}`` or
  ``{"type": "vapor"}``.
- Meltdown: every owing seat answers ``{"type": "discard", "piece": ...}`` one at a time.
"""

from __future__ import annotations

import copy

from games.engine import IllegalMove, Option, Rules, _, require_move_dict

from . import game
from .pieces import MAX_PLAYERS, MIN_PLAYERS
from .view import build_view, state_from_view

__all__ = ["RULES", "PowerhouseRules", "state_from_view"]


class PowerhouseRules(Rules):
    """The rules of Powerhouse for 2 to 5 players."""

    def new_game(self, *, players, seed, options=None):
        """A new game: the bag filled, three blind pieces each, a random first player."""
        self.check_players(players)
        options = self.clean_options(options)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise IllegalMove(_("The seed must be a whole number."), code="bad_seed")
        return game.new_state(players=players, seed=seed, options=options)

    def to_move(self, state):
        """The active seat, or every seat that still owes meltdown discards."""
        return game.to_move(state)

    def legal_moves(self, state, seat):
        """The atomic decisions `seat` may make now."""
        if type(seat) is not int or not 0 <= seat < state["players"]:
            return []
        return game.legal_moves(state, seat)

    def apply(self, state, seat, move):
        """The state after `seat` makes `move`; IllegalMove for anything not legal."""
        self.require_seat(state, seat, state["players"])
        require_move_dict(move, game.MOVE_TYPES)
        move = game.check_move(state, seat, move)   # the legal entry, found without listing all
        if move is None:
            raise IllegalMove(_("That move is not allowed now."), code="illegal")
        new = game.copy_state(state)
        game.play(new, seat, move)
        return new

    def view(self, state, seat):
        """Everything on the table; the bag only as contents by type."""
        if seat is not None and (type(seat) is not int or not 0 <= seat < state["players"]):
            raise IllegalMove(_("There is no such seat."), code="bad_seat")
        return build_view(state, seat)

    def outcome(self, state):
        """None while running; the one winner once a clean powerhouse appears, or the
        last player in. Whoever left scores below the rest, earlier leavers lower."""
        winner = state["winner"]
        if winner is None:
            return None
        gone = state.get("gone") or []
        scores = {str(p): int(p == winner) for p in range(state["players"])}
        for order, seat in enumerate(gone):
            scores[str(seat)] = -(len(gone) - order)
        result = {"winners": [winner], "scores": scores}
        if gone:
            result["left"] = list(gone)
        return result

    def resign(self, state, seat):
        """The others play on without `seat` (see game.resign); two players: the other wins."""
        if type(seat) is not int or not 0 <= seat < state["players"]:
            return game.copy_state(state)
        new = game.copy_state(state)
        game.resign(new, seat)
        return new

    def result(self, state):
        """The one winner first; the others share second place (the game has no points)."""
        winner = state["winner"]
        if winner is None:
            return None
        n = state["players"]
        return {"places": [1 if p == winner else 2 for p in range(n)], "scores": [None] * n,
                "winners": [winner]}

    def dump(self, state):
        """A JSON-able copy of the state."""
        return copy.deepcopy(state)

    def load(self, data):
        """The state `dump` produced."""
        return copy.deepcopy(data)


RULES = PowerhouseRules(
    slug="powerhouse",
    name=_("Powerhouse"),
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=(
        Option("meltdown_limit", _("Meltdown Limitation Rule"), False,
               help=_("Each player may choose to draw a die at most 3 times per game, "
                      "tracked with a trio of an unused colour.")),
    ),
)
