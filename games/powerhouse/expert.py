"""The "expert" Powerhouse bot: determinized search on the simulator, paired deals.

Only the bag's order is hidden at a Powerhouse table (its contents by type are in the
view), so a determinization is the state rebuilt from the view once per decision
(`state_from_view`) with a fresh generator state standing in for the bag's order.

The candidates are the strong bot's move, then the fast bot's, then the other legal
moves (at most CANDIDATES). The budget (ITERATIONS rollouts) is spent by successive
halving: in each round every candidate still in is played on the same deals (the same
bag generator and the same rollout generator: common random numbers, so the luck of the
draw, which dominates this game, cancels out of the comparison), and the better half by
total result goes on to the next round. A rollout plays the candidate and then the fast
policy for every seat until the first draw ROLLOUT_TURNS turns later (at two players our
own second draw from now: two turns each; at most ROLLOUT_LIMIT decisions) and scores it:
a win 1, a loss 0, unfinished the strong bot's threat-aware score squashed into 0..1.
Stopping at a draw rather than after a fixed number of decisions scores whole turns, never
a reaction half done.

The strong bot's move keeps the decision unless the winner beats it on their shared
deals (at least MIN_SHARED of them) by more than Z_SWITCH standard errors of the paired
differences. Past bot.PATIENCE_TURNS the expert tires like every level
(bot._restless_draw), in its rollouts too.

Everything is seeded from the decision's Rng and the budget is in rollouts, so a
replayed turn chooses the same move on any machine. ITERATIONS is calibrated so a
decision takes well under a second on one core (`bench/bench_bots.py --game powerhouse
--levels expert --no-strength --no-playout` prints the mean, p99 and max).
"""

from __future__ import annotations

import math

from games.engine import Rng
from games.engine import search

from . import bot
from .rules import RULES
from .rules.view import state_from_view
from .sim import SIMULATOR

ITERATIONS = 500        # rollouts per decision at BOT_EXPERT_BUDGET = 1 (see the docstring)
ROLLOUT_TURNS = 4       # a rollout stops at the first draw this many turns on
ROLLOUT_LIMIT = 80      # ... or after this many decisions (a long reaction or meltdown)
ROLLOUT_DECISIONS = ROLLOUT_LIMIT   # games.engine.search's name for the bound (the adapter)
CANDIDATES = 10
Z_SWITCH = 2.0          # how many standard errors another move must beat the strong bot's by
MIN_SHARED = 4          # ... on at least this many shared deals


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
    return _paired_search(view, legal, rng, iterations or ITERATIONS)


def _paired_search(view: dict, legal: list[dict], rng: Rng, budget: int) -> dict:
    """Successive halving over the candidates, every candidate of a round played on the
    same deals (common random numbers): see the module's docstring."""
    cands = ADAPTER.candidates(view, legal)
    n = len(cands)
    if n == 1:
        return cands[0]
    me = view["you"]["seat"]
    base = SIMULATOR.clone(state_from_view(view, 0))
    clone, play = SIMULATOR.clone, SIMULATOR.play
    values: list[list[float]] = [[] for _ in range(n)]
    live = list(range(n))
    rounds = max(1, (n - 1).bit_length())   # halvings until one candidate is left
    per_round = max(budget // rounds, 1)
    for _ in range(rounds):
        deals = max(1, per_round // len(live))
        for _ in range(deals):
            deal, roll = rng.next64(), rng.next64()
            for i in live:
                state = clone(base)
                state["rng"] = deal
                play(state, me, cands[i])
                values[i].append(_rollout(state, me, Rng(roll)))
        # every live candidate has been played on the same deals: compare their sums
        live.sort(key=lambda i: (-sum(values[i]), i))
        live = live[:(len(live) + 1) // 2]
        if len(live) == 1:
            break
    best = live[0]
    if best == 0:
        return cands[0]
    # the strong bot's move keeps the decision unless clearly beaten on their shared deals
    k = len(values[0])
    diffs = [values[best][d] - values[0][d] for d in range(k)]
    mean = sum(diffs) / k
    if k < MIN_SHARED:
        return cands[0]
    var = sum((x - mean) ** 2 for x in diffs) / (k - 1)
    return cands[best] if mean > Z_SWITCH * math.sqrt(var / k) else cands[0]


def _rollout(state: dict, me: int, rng: Rng) -> float:
    """The fast policy for every seat up to the draw ROLLOUT_TURNS turns on, then the score."""
    sim = SIMULATOR
    policy = ADAPTER.rollout_move
    until = state["turn"] + ROLLOUT_TURNS
    for _ in range(ROLLOUT_LIMIT):
        if state["phase"] == "draw" and state["turn"] >= until:
            break
        owing = sim.to_move(state)
        if not owing:
            break
        seat = min(owing)
        legal = sim.legal_moves(state, seat)
        sim.play(state, seat, legal[0] if len(legal) == 1 else policy(state, seat, legal, rng))
    winner = state["winner"]
    if winner is not None:
        return 1.0 if winner == me else 0.0
    return ADAPTER.evaluate(state, me)
