"""The "expert" Gizmos bot: determinized Monte Carlo search (games.engine.search) on the
fast simulator (games.gizmos.sim; its rollouts' variant, `ROLLOUT_SIMULATOR`, whose build
moves pay with as few spheres as possible without the rules' search for the cheapest
payment, which late in a game cost seconds a decision).

Each iteration deals what the seat cannot see afresh, consistently with its view
(`bot.determinize`: the decks' order, the removed Level III cards, another seat's
research draws; the energy dispenser's draws come from a sampled generator), tries
one of the best candidate moves by UCB and plays on with the fast policy for every
seat, each deciding from its own part of the sampled state (`rollout_move` reads
only what that seat's view shows). A rollout that has not reached the end after
ROLLOUT_DECISIONS decisions is scored by the strong level's evaluation.

Deterministic: the budget is ITERATIONS per decision (BOT_EXPERT_BUDGET scales it)
and the only randomness is the generator passed in.
"""

from __future__ import annotations

from functools import lru_cache

from games.engine import Rng
from games.engine import search

from . import bot
from .rules import CARDS
from .sim import ROLLOUT_SIMULATOR as SIMULATOR
from .sim import _seat_facts

# Meant to take well under the bot's 2 s of one core's CPU per decision: `bench/bench_bots.py
# --game gizmos --levels expert --decisions 300` printed a CPU mean of 305 ms and a p99 of
# 1,405 ms at this budget (2026-12-06, docs/games/gizmos.md).
ITERATIONS = 240
ROLLOUT_DECISIONS = 24
CANDIDATES = 8          # at most; fewer when the budget cannot tell that many apart
PER_CANDIDATE = 8       # iterations a candidate needs at least to be told apart
SEARCHED_PHASES = ("main", "research", "free_build", "file")


@lru_cache(maxsize=16_384)
def _engine(gizmos: tuple) -> dict:
    """What the fast policy reads of a seat's gizmos (shared between views: read only)."""
    lim = _seat_facts(gizmos)[0]
    return {
        "energy_limit": lim["energy_limit"], "file_limit": lim["file_limit"],
        "gizmos": {"pick": tuple(g for g in gizmos if CARDS[g]["type"] == "pick"),
                   "file": tuple(g for g in gizmos if CARDS[g]["type"] == "file")},
        "gizmo_count": len(gizmos),
        "level3_count": sum(1 for g in gizmos if CARDS[g]["level"] == 3),
    }


def _seat_view(s: dict, seat: int) -> dict:
    """The parts of `seat`'s view the fast policy reads, built straight from a state.

    Only what that seat's view shows: display, storages, archives, gizmos, tokens,
    limits, the phase and the payment's target."""
    seats = []
    for p in s["seats"]:
        e = p["energy"]
        seats.append({
            **_engine(tuple(p["gizmos"])), "energy": e,
            "stored": e["red"] + e["yellow"] + e["blue"] + e["black"],
            "archive": p["archive"], "tokens": p["tokens"],
        })
    turn = {"phase": s["phase"]}
    if s["phase"] == "pay":
        turn["payment"] = {"target": s["pending"]["target"]}
    view = {"you": seat, "seats": seats, "ending": s["ending"], "display": s["display"], "turn": turn}
    view["_progress"] = bot._progress(view)
    view["_demand"] = {}
    return view


class _Adapter:
    rules = SIMULATOR
    rollout_decisions = ROLLOUT_DECISIONS

    def determinize(self, view, rng):
        return SIMULATOR.from_rules(bot.determinize(view, rng))

    def rollout_move(self, state, seat, legal, rng):
        if state["phase"] == "pay":
            return bot._pay_quick(state, legal)
        return bot.fast_move(_seat_view(state, seat), legal)

    def step(self, state, seat, move):
        return SIMULATOR.play(state, seat, move)    # moves come from legal_moves

    def evaluate(self, state, me):
        return search.squash(bot.evaluate(state, me), 6.0)

    def __init__(self, width: int = CANDIDATES):
        self.width = width

    def candidates(self, view, legal):
        """The fast policy's best moves, best first (ties in the search go to the earlier)."""
        seat = view["you"]
        ranked = sorted(bot._one_click(legal), key=lambda m: -bot._move_value(view, seat, m))
        return ranked[:self.width]


ADAPTER = _Adapter()


def choose(view: dict, legal: list[dict], rng: Rng, iterations: int | None = None) -> dict:
    if view["turn"]["phase"] not in SEARCHED_PHASES:
        return bot.fast_move(view, legal)     # paying and small steps: the fast policy
    iterations = iterations or ITERATIONS
    width = max(2, min(CANDIDATES, iterations // PER_CANDIDATE))
    adapter = ADAPTER if width == CANDIDATES else _Adapter(width)
    return search.choose(adapter, view, legal, view["you"], rng, iterations)
