"""The "expert" Powerhouse bot: determinized Monte Carlo search on the simulator.

Only the bag's order is hidden at a Powerhouse table (its contents by type are in the
view), so a determinization is the state rebuilt from the view once per decision
(`state_from_view`) with a fresh generator standing in for the bag's order: each
iteration clones that state (games/powerhouse/sim.py) with a new generator state
drawn from the decision's Rng. games.engine.search picks a root move by UCB1, plays
it and then ROLLOUT_DECISIONS more decisions with the fast policy for every seat on
the simulator, and scores the end (a win 1, a loss 0, unfinished: the strong bot's
threat-aware score, squashed). The strong bot's move is the first candidate and is
kept unless another beats its mean result by PRIOR_MARGIN / sqrt(visits): few
iterations cannot tell a better move from noise.

ITERATIONS is calibrated so a decision takes about a second on one quiet core of
these machines: `bench/bench_bots.py --game powerhouse --levels expert` prints the
mean, p99 and max time per decision at the default budget (docs/games/powerhouse.md).
"""

from __future__ import annotations

from games.engine import Rng
from games.engine import search

from . import bot
from .rules import RULES
from .rules.view import state_from_view
from .sim import SIMULATOR

ITERATIONS = 500        # per decision at BOT_EXPERT_BUDGET = 1 (see the docstring)
ROLLOUT_DECISIONS = 12
CANDIDATES = 10
PRIOR_MARGIN = 0.25     # how clearly a move must beat the strong bot's (games.engine.search)


class _Adapter:
    rules = RULES
    sim = SIMULATOR
    rollout_decisions = ROLLOUT_DECISIONS

    def determinize(self, view, rng):
        return self.sampler(view)(rng)

    def sampler(self, view):
        base = SIMULATOR.clone(state_from_view(view, 0))
        clone = SIMULATOR.clone

        def sample(rng):
            state = clone(base)
            state["rng"] = rng.next64()
            return state
        return sample

    def rollout_move(self, state, seat, legal, rng):
        return bot._restless_draw(state, legal, rng) or bot._choose_fast(state, seat, legal)

    def step(self, state, seat, move):
        SIMULATOR.play(state, seat, move)
        return state

    def evaluate(self, state, me):
        return search.squash(bot.evaluate(state, me, threats=True), 4.0)

    prior_margin = PRIOR_MARGIN

    def candidates(self, view, legal):
        """The strong bot's move first (the search keeps it unless clearly beaten), then
        the fast bot's, then the rest in the rules' order."""
        state = state_from_view(view, 0)
        seat = view["you"]["seat"]
        first = bot._choose_strong(state, seat, legal, bot.MAX_LEAVES)
        fast = bot._choose_fast(state, seat, legal)
        ordered = [first] + ([fast] if fast != first else [])
        return (ordered + [m for m in legal if m not in ordered])[:CANDIDATES]


ADAPTER = _Adapter()


def choose(view: dict, legal: list[dict], rng: Rng, iterations: int | None = None) -> dict:
    restless = bot._restless_draw(view, legal, rng)
    if restless is not None:
        return restless
    return search.choose(ADAPTER, view, legal, view["you"]["seat"], rng, iterations or ITERATIONS)
