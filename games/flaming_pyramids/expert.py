"""The "expert" Flaming Pyramids bot: determinized Monte Carlo search (games.engine.search).

Each iteration deals the unseen tiles (other hands' secret part, the dealt part
of every pile) afresh consistently with the view (`bot.determinize`), tries one
of the best candidate placements and plays on with the fast policy for every seat.
"""

from __future__ import annotations

from games.engine import Rng
from games.engine import search

from . import bot
from .rules import RULES

ITERATIONS = 200        # per decision; about 1 s on one core (bench/bench_bots.py)
ROLLOUT_DECISIONS = 4
CANDIDATES = 6


def _tiles(state, seat):
    return len(state["hands"][seat]) + len(state["piles"][seat])


class _Adapter:
    rules = RULES
    rollout_decisions = ROLLOUT_DECISIONS

    def determinize(self, view, rng):
        return bot.determinize(view, rng)

    def rollout_move(self, state, seat, legal, rng):
        return bot._choose_fast(RULES.view(state, seat), legal)

    def step(self, state, seat, move):
        return RULES.apply(state, seat, move)

    def evaluate(self, state, me):
        mine = _tiles(state, me)
        best_other = min(_tiles(state, p) for p in range(state["players"]) if p != me)
        return search.squash(best_other - mine, 4.0)

    def candidates(self, view, legal):
        if len(legal) <= CANDIDATES:
            return legal
        ev = bot._Eval(view)
        memo = {}
        scored = []
        for k, (move, board, curse_mode, placed) in enumerate(ev.candidates(legal)):
            value, _s, _f = bot.resolve(board, ev.ctx, ev.me, ev.fast_term, memo, curse_mode, placed)
            scored.append((-(value + bot._shed_bonus(move)), k, move))
        scored.sort(key=lambda x: (x[0], x[1]))
        return [m for _v, _k, m in scored[:CANDIDATES]]


ADAPTER = _Adapter()


def choose(view: dict, legal: list[dict], rng: Rng, iterations: int | None = None) -> dict:
    return search.choose(ADAPTER, view, legal, view["seat"], rng, iterations or ITERATIONS)
