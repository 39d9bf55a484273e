"""The "expert" Powerhouse bot: determinized Monte Carlo search (games.engine.search).

Only the bag's order is hidden at a Powerhouse table; each iteration rebuilds the
state from the view with a fresh generator for the bag (`state_from_view`), tries
a root move and plays on with the fast policy for every seat.
"""

from __future__ import annotations

from games.engine import Rng
from games.engine import search

from . import bot
from .rules import RULES, game
from .rules.view import state_from_view

ITERATIONS = 150        # per decision; about 1 s on one core (bench/bench_bots.py)
ROLLOUT_DECISIONS = 30
CANDIDATES = 10


class _Adapter:
    rules = RULES
    rollout_decisions = ROLLOUT_DECISIONS

    def determinize(self, view, rng):
        return state_from_view(view, rng.next64())

    def rollout_move(self, state, seat, legal, rng):
        brief = {"turn": state["turn"], "players": state["players"], "phase": state["phase"]}
        return bot._restless_draw(brief, legal, rng) or bot._choose_fast(state, seat, legal)

    def step(self, state, seat, move):
        game.play(state, seat, move)   # the sampled state is ours: play in place
        return state

    def evaluate(self, state, me):
        return search.squash(bot.evaluate(state, me, threats=False), 4.0)

    def candidates(self, view, legal):
        if len(legal) <= CANDIDATES:
            return legal
        state = state_from_view(view, 0)
        first = bot._choose_fast(state, view["you"]["seat"], legal)
        return [first] + [m for m in legal if m != first][:CANDIDATES - 1]


ADAPTER = _Adapter()


def choose(view: dict, legal: list[dict], rng: Rng, iterations: int | None = None) -> dict:
    return search.choose(ADAPTER, view, legal, view["you"]["seat"], rng, iterations or ITERATIONS)
