"""The "expert" Flaming Pyramids bot: determinized Monte Carlo search (games.engine.search).

Each iteration deals the unseen tiles (other hands' secret part, the dealt part of
every pile, its own pile included) afresh consistently with the view
(`sim.determinize`, the same deal as `bot.determinize`), tries one of the best
candidate moves (UCB1 over the fast level's top CANDIDATES) on the simulator
(`sim.SIMULATOR`, never the checked rules) and plays the game on for
ROLLOUT_DECISIONS decisions with a cheap version of the fast policy for every seat:
a quiet placement (one that sets nothing off) shedding the hardest tile to place
when there is one, else the fast level's cascade search (`bot.resolve`) on the
candidates; a fall where the tile is sound. The end is scored 1 for a win, 0 for a
loss, else by the tiles left against the best opponent, squashed into 0..1.

Deterministic: the budget is ITERATIONS playouts (scaled by BOT_EXPERT_BUDGET
through the `iterations` argument), and all randomness comes from the given Rng.

Calibration of ITERATIONS: `bench/bench_flaming_pyramids.py times --budget 400
--decisions 4` prints the CPU time (`time.process_time`) per iteration over the
expert's decisions in 2-player games against fast bots; on this shared machine
(load average about 50 on 2 cores) it printed 1,180 us per iteration, so one second
is about 850 iterations, rounded down to 800. CPU time under such load reads high
(caches shared with many processes), so on a quiet core the default takes less.

Calibration of WORK_PER_ITERATION: iterations alone did not bound the time. On a quiet
machine (2026-12-02) `bench/bench_bots.py --game flaming-pyramids --levels expert
--decisions 100 --no-strength --no-playout` printed a CPU mean of 1,692.5 ms and a p99
of 5,447.1 ms at the default budget: late in a game, when no placement is quiet, the
rollouts' cascade searches scan the board for events tens of times per decision
(bot.resolve). Counted in those scans (rollout_move_costed), the cap was tried at
several values on those decisions and set at 150 per iteration, where the same bench
command printed the figures quoted in docs/games/flaming_pyramids.md (p99 under the
2 s goal); the costliest decisions then play fewer iterations than the budget.
"""

from __future__ import annotations

from games.engine import Rng
from games.engine import search

from . import bot, sim
from .rules import pyramid as P

ITERATIONS = 800        # per decision; about 1 s of CPU on one core (see the docstring)
ROLLOUT_DECISIONS = 12
# A decision stops early once its rollouts have done this much work per iteration of its
# budget (rollout_move_costed's units: a rollout decision, plus each event scan of its
# cascade search). Calibrated in the docstring.
WORK_PER_ITERATION = 150
CANDIDATES = 6
EVAL_SCALE = 4.0

S = sim.SIMULATOR
_DIFF = bot.DIFFICULTY
_quiet = sim._quiet


def _tiles(state, seat):
    return len(state.hands[seat]) + len(state.piles[seat])


def _zero(_board):
    return 0.0


def rollout_move(state, seat, legal, rng):
    """The rollout policy on a SimState (see the module docstring)."""
    return rollout_move_costed(state, seat, legal, rng)[0]


def rollout_move_costed(state, seat, legal, rng):
    """rollout_move and its work: 1, plus, when no placement was quiet, the board's event
    scans in the cascade search (bot.resolve's `work`): that search is what makes some
    decisions cost many times the median (WORK_PER_ITERATION)."""
    board = state.board
    if legal[0]["type"] == "fall":
        r, x = state.pending[0], state.pending[1]
        return (legal[0] if bot._greedy_direction(board, (r, x)) == P.LEFT else legal[1]), 1
    curse, die = state.curse, state.die
    best, best_v = None, -1.0
    for move in legal:
        cell = (move["r"], move["x"])
        tile = move["tile"]
        board[cell] = tile
        quiet = _quiet(board, cell, tile, curse, die)
        del board[cell]
        if quiet:
            v = _DIFF[tile]
            if v > best_v:
                best, best_v = move, v
    if best is not None:
        return best, 1
    # Nothing quiet: the fast level's cascade search, falls decided by their owners.
    ctx = bot._Ctx(state.active, state.players, curse, die)
    memo = {}
    work = [0]
    best, best_v = legal[0], None
    for move in legal:
        b = dict(board)
        b[(move["r"], move["x"])] = move["tile"]
        placed = [move["r"], move["x"], move["tile"]] if die else None
        value, _s, _f = bot.resolve(b, ctx, seat, _zero, memo, False, placed, None, work)
        value += bot._shed_bonus(move)
        if best_v is None or value > best_v + 1e-9:
            best, best_v = move, value
    return best, 1 + work[0]


class _Adapter:
    rules = S                     # to_move, legal_moves and outcome of the simulator
    rollout_decisions = ROLLOUT_DECISIONS
    work_per_iteration = WORK_PER_ITERATION

    def determinize(self, view, rng):
        return sim.determinize(view, rng)

    def rollout_move(self, state, seat, legal, rng):
        return rollout_move(state, seat, legal, rng)

    def rollout_move_costed(self, state, seat, legal, rng):
        return rollout_move_costed(state, seat, legal, rng)

    def step(self, state, seat, move):
        S.play(state, seat, move)
        return state

    def evaluate(self, state, me):
        mine = _tiles(state, me)
        best_other = min(_tiles(state, p) for p in range(state.players)
                         if p != me and p not in state.gone)
        return search.squash(best_other - mine, EVAL_SCALE)

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
