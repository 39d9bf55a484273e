"""The "expert" Gizmos bot: determinized Monte Carlo search (games.engine.search).

Each iteration deals the unseen cards (the decks' order, research draws) afresh
consistently with the view (`bot.determinize`), tries one of the best candidate
moves and plays on with the fast policy for every seat.
"""

from __future__ import annotations

from games.engine import Rng
from games.engine import search

from . import bot
from .rules import RULES

ITERATIONS = 60         # per decision; about 1 s on one core (bench/bench_bots.py)
ROLLOUT_DECISIONS = 40
CANDIDATES = 6
SEARCHED_PHASES = ("main", "research", "free_build", "file")


class _Adapter:
    rules = RULES
    rollout_decisions = ROLLOUT_DECISIONS

    def determinize(self, view, rng):
        return bot.determinize(view, rng)

    def rollout_move(self, state, seat, legal, rng):
        if state["phase"] == "pay":
            return bot._pay_quick(state, legal)
        return bot.fast_move(RULES.view(state, seat), legal)

    def step(self, state, seat, move):
        RULES.apply_unchecked(state, seat, move)   # moves come from legal_moves
        return state

    def evaluate(self, state, me):
        return search.squash(bot.evaluate(state, me), 6.0)

    def candidates(self, view, legal):
        seat = view["you"]
        return sorted(legal, key=lambda m: -bot._move_value(view, seat, m))[:CANDIDATES]


ADAPTER = _Adapter()


def choose(view: dict, legal: list[dict], rng: Rng, iterations: int | None = None) -> dict:
    if view["turn"]["phase"] not in SEARCHED_PHASES:
        return bot.fast_move(view, legal)     # paying and small steps: the fast policy
    return search.choose(ADAPTER, view, legal, view["you"], rng, iterations or ITERATIONS)
