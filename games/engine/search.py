"""Determinized Monte Carlo search for the "expert" bots (pure, no Django).

The bot sees one seat's view. Each iteration deals the unseen parts afresh
(`adapter.determinize(view, rng)`: bag, other hands and piles, deck order,
consistent with the view), picks a root move by UCB1 over the moves' results
so far, plays it and then rolls the game forward with the fast level's policy
for every seat (each deciding from its own view of the sampled state), and
scores the end (a win 1, a loss 0, unfinished: `adapter.evaluate`, in 0..1).
The most-tried root move is chosen.

A game may give its adapter a simulator (`adapter.sim`, the game's
`games.<pkg>.sim.SIMULATOR`: clone, to_move, legal_moves, play in place without
checks, outcome) and a sampler (`adapter.sampler(view)`: a function from a
generator to a fresh determinized simulator state, so the view is read once per
decision rather than once per iteration). Rollouts then run on the simulator;
without them the adapter's rules and `step` are used as before.

The budget is in iterations, never in seconds, and the only randomness is the
generator passed in (seeded from the table, the decision's seq and the seat),
so a replayed turn chooses the same move on any machine and any load. Where a
rollout's cost varies a lot from position to position, the adapter may count
it: `rollout_move_costed(state, seat, legal, rng)` returns the move and the work
it took (in the adapter's own units, deterministic), and `work_per_iteration`
caps a decision at that many units per iteration of its budget: once every
candidate was tried and the cap is spent, the search stops early. The cap is
counted, not timed, so it stops at the same iteration on every machine.

An adapter with `prior_margin` lists its own policy's move first among the
candidates, and the search keeps that move unless another's mean result beats it by
more than the margin over the square root of the visits (see `_with_prior`); without
it the most-tried move is chosen, as before.
"""

from __future__ import annotations

import math
from typing import Any, Protocol

from .errors import IllegalMove
from .rng import Rng


class Adapter(Protocol):
    rules: Any
    rollout_decisions: int

    def determinize(self, view: dict, rng: Rng) -> Any: ...
    def rollout_move(self, state: Any, seat: int, legal: list[dict], rng: Rng) -> dict: ...
    def step(self, state: Any, seat: int, move: dict) -> Any: ...
    def evaluate(self, state: Any, me: int) -> float: ...
    def candidates(self, view: dict, legal: list[dict]) -> list[dict]: ...


UCB_C = 0.7


def choose(adapter: Adapter, view: dict, legal: list[dict], me: int, rng: Rng,
           iterations: int) -> dict:
    """The expert's move: `iterations` determinized playouts spread over the candidates."""
    cands = adapter.candidates(view, legal)
    if len(cands) == 1:
        return cands[0]
    sim = getattr(adapter, "sim", None)
    if sim is not None:
        return _choose_simulated(adapter, sim, view, cands, me, rng, iterations)
    rules = adapter.rules
    n = len(cands)
    visits = [0] * n
    totals = [0.0] * n
    limit, spent = _work_limit(adapter, iterations, n), [0]
    for it in range(max(iterations, n)):
        if it < n:
            i = it
        else:
            log_t = math.log(it)
            i = max(range(n), key=lambda k: totals[k] / visits[k]
                    + UCB_C * math.sqrt(log_t / visits[k]) if visits[k] else math.inf)
        state = adapter.determinize(view, rng)
        try:
            state = adapter.step(state, me, cands[i])
        except IllegalMove:  # not legal in this sample (cannot happen with a sound view)
            visits[i] += 1
            continue
        value = _rollout(adapter, rules, state, me, rng, spent)
        visits[i] += 1
        totals[i] += value
        if limit is not None and it + 1 >= n and spent[0] >= limit:
            break  # a decision whose rollouts cost far more than usual stops early
    best = max(range(n), key=lambda k: (visits[k], totals[k] / max(visits[k], 1), -k))
    return cands[best]


def _work_limit(adapter, iterations: int, n: int) -> int | None:
    """The most rollout work a decision may spend (None: the adapter does not count it)."""
    per_iteration = getattr(adapter, "work_per_iteration", None)
    return per_iteration * max(iterations, n) if per_iteration else None


def _next_move(adapter, costed, state, seat: int, legal: list[dict], rng: Rng,
               spent: list[int] | None) -> dict:
    """The rollout policy's move, its work added to `spent` when the adapter counts it."""
    if len(legal) == 1:
        return legal[0]
    if costed is None:
        return adapter.rollout_move(state, seat, legal, rng)
    move, work = costed(state, seat, legal, rng)
    if spent is not None:
        spent[0] += work
    return move


def _ucb_pick(it: int, visits: list[int], totals: list[float]) -> int:
    n = len(visits)
    if it < n:
        return it
    c_log = UCB_C * UCB_C * math.log(it)
    best, best_value = 0, -1.0
    for k in range(n):
        v = visits[k]
        value = totals[k] / v + math.sqrt(c_log / v)
        if value > best_value:
            best, best_value = k, value
    return best


def _choose_simulated(adapter, sim, view: dict, cands: list[dict], me: int, rng: Rng,
                      iterations: int) -> dict:
    """`choose` with the rollouts on the game's simulator."""
    sampler = adapter.sampler(view) if hasattr(adapter, "sampler") else (
        lambda r: adapter.determinize(view, r))
    n = len(cands)
    visits = [0] * n
    totals = [0.0] * n
    limit, spent = _work_limit(adapter, iterations, n), [0]
    for it in range(max(iterations, n)):
        i = _ucb_pick(it, visits, totals)
        state = sampler(rng)
        sim.play(state, me, cands[i])
        totals[i] += _sim_rollout(adapter, sim, state, me, rng, spent)
        visits[i] += 1
        if limit is not None and it + 1 >= n and spent[0] >= limit:
            break  # a decision whose rollouts cost far more than usual stops early
    margin = getattr(adapter, "prior_margin", None)
    if margin is None:
        best = max(range(n), key=lambda k: (visits[k], totals[k] / max(visits[k], 1), -k))
        return cands[best]
    return cands[_with_prior(visits, totals, margin)]


def _with_prior(visits: list[int], totals: list[float], margin: float) -> int:
    """The best mean, but the first candidate (the adapter's own policy's move) keeps the
    decision unless another beats it by more than `margin` / sqrt(fewer visits): with few
    iterations the search cannot tell noise from a better move, and then the policy's
    judgement is the better bet; with many, the search decides."""
    means = [totals[k] / visits[k] if visits[k] else 0.0 for k in range(len(visits))]
    best = max(range(len(visits)), key=lambda k: (means[k], visits[k], -k))
    if best == 0 or not visits[0]:
        return best
    need = margin / math.sqrt(min(visits[0], visits[best]))
    return best if means[best] - means[0] > need else 0


def _sim_rollout(adapter, sim, state, me: int, rng: Rng, spent: list[int] | None = None) -> float:
    costed = getattr(adapter, "rollout_move_costed", None)
    for _ in range(adapter.rollout_decisions):
        owing = sim.to_move(state)
        if not owing:
            break
        seat = min(owing)
        legal = sim.legal_moves(state, seat)
        if not legal:
            break
        sim.play(state, seat, _next_move(adapter, costed, state, seat, legal, rng, spent))
    outcome = sim.outcome(state)
    return _won(outcome, me) if outcome is not None else adapter.evaluate(state, me)


def _rollout(adapter, rules, state, me: int, rng: Rng, spent: list[int] | None = None) -> float:
    costed = getattr(adapter, "rollout_move_costed", None)
    for _ in range(adapter.rollout_decisions):
        outcome = rules.outcome(state)
        if outcome is not None:
            return _won(outcome, me)
        owing = rules.to_move(state)
        if not owing:
            break
        seat = min(owing)
        legal = rules.legal_moves(state, seat)
        if not legal:
            break
        move = _next_move(adapter, costed, state, seat, legal, rng, spent)
        state = adapter.step(state, seat, move)
    outcome = rules.outcome(state)
    return _won(outcome, me) if outcome is not None else adapter.evaluate(state, me)


def _won(outcome: dict, me: int) -> float:
    """A finished playout's value for `me`: 1 for a win, 1/k for a k-way shared win, else 0."""
    winners = outcome.get("winners", [])
    return (1.0 / len(winners)) if me in winners else 0.0


def squash(x: float, scale: float) -> float:
    """A heuristic score mapped into 0..1 (0.5 at x = 0)."""
    return 0.5 + 0.5 * math.tanh(x / scale)
