"""The "expert" Flaming Pyramids bot: determinized alpha-beta search.

Two players (the game's usual table): each of ITERATIONS samples deals the unseen tiles
(the other hand's secret part, the dealt part of every pile, its own pile's order
included) consistently with the view (`sim.determinize`), and on that deal every legal
move is searched by minimax with alpha-beta pruning on the simulator (`sim.SIMULATOR`):
our placement, the other player's reply, our next placement (DEPTH placements, every fall
of a cascade in between decided by its owner), then the position is scored. The move
with the best sum over the samples is played; every move is judged on the same deals, so
a lucky deal lifts all of them alike.

The score of a position: the other player's tiles minus ours (hand and pile), less
HAND_WEIGHT times the difficulty of the tiles still in our hand (`bot.DIFFICULTY`, the
share of supporter pairs a tile is unsound on) and plus the same for the other hand; a
win or a loss found by the search is worth ±WIN (sooner ranks higher). Two shortcuts keep
it fast. At the last placement a quiet move (one that sets nothing off) shedding the
hardest tile is the mover's best, since in the base game only the active player can take
tiles back and the score then differs only in the shed tile; this changes nothing the
score can see (tests/flaming_pyramids/test_expert.py compares it with the full search;
with the Curse on every move is searched). And in a cascade only the first FALL_BRANCH
falls of a turn are searched both ways; later ones go where the tile would stand
(`bot._greedy_direction`), an approximation like the fast level's.

Why this and not more of the strong level's search (this module until 2026-12-03): the
strong level looks one reply deep and scores its own next turn with a greedy placement;
ten times its samples, or even the real hidden tiles, won about half the games against it
(docs/games/flaming_pyramids.md). Our reading of what it missed: the minimax itself; with
the other player's best answer to each of our next placements searched, the plans that
leave them only unsound spots are found. This search beat strong in 313 of 400 bench games.

Three to six players: minimax does not fit, so the expert stays the strong level's search
with MULTI_SAMPLES_PER_ITERATION times ITERATIONS samples (240 at the default budget).

Deterministic: the budget is a number of samples and of search nodes (NODE_BUDGET per
sample; the search stops sampling once the total is spent, never mid-sample), scaled by
BOT_EXPERT_BUDGET through the `iterations` argument, never a clock; all randomness comes
from the given Rng (seeded from the table, the decision's seq and the seat), so a replayed
turn chooses the same move on any machine and any load. It reads the view only.
"""

from __future__ import annotations

from games.engine import Rng

from . import bot, sim
from .bot import DIFFICULTY

ITERATIONS = 8        # determinizations per decision at BOT_EXPERT_BUDGET = 1
DEPTH = 3             # placements searched: ours, the other player's, ours again
NODE_BUDGET = 6_000   # search nodes per sample on average: sampling stops past the total
FALL_BRANCH = 1       # falls per turn searched both ways; later ones go greedy
HAND_WEIGHT = 0.3     # value of a hard tile out of the hand (difficulty 0..1)
WIN = 1000.0
MULTI_SAMPLES_PER_ITERATION = 30   # 3+ players: strong's search at 30 × ITERATIONS samples

_S = sim.SIMULATOR
_clone, _play, _legal = _S.clone, _S.play, _S.legal_moves
_quiet = sim._quiet
_GREEDY = {d: {"type": "fall", "direction": d} for d in ("left", "right")}


def choose(view: dict, legal: list[dict], rng: Rng, iterations: int | None = None) -> dict:
    """The expert's move; `iterations` samples (default ITERATIONS)."""
    samples = max(1, iterations or ITERATIONS)
    if len(legal) == 1:
        return legal[0]
    if view["players"] != 2 or view.get("gone"):
        many = samples * MULTI_SAMPLES_PER_ITERATION
        return bot._choose_strong(view, legal, rng, many,
                                  many * bot.STRONG_NODE_BUDGET // bot.STRONG_SAMPLES)
    return _search(view, legal, rng, samples)


def _search(view, legal, rng, samples):
    me = view["seat"]
    count = [0]
    budget = samples * NODE_BUDGET
    totals: dict[tuple, float] = {}
    for n in range(samples):
        if n and count[0] >= budget:
            break
        state = sim.determinize(view, rng)
        seat = state.pending[2] if state.pending is not None else state.active
        for move in _legal(state, seat):
            child = _clone(state)
            _play(child, seat, move)
            place = move["type"] == "place"
            value = _value(child, DEPTH - place, -2 * WIN, 2 * WIN, me,
                           FALL_BRANCH if place else FALL_BRANCH - 1, count)
            key = _key(move)
            totals[key] = totals.get(key, 0.0) + value
    best = None
    for move in legal:   # the rules' order breaks ties
        value = totals.get(_key(move))
        if value is not None and (best is None or value > best[0]):
            best = (value, move)
    return best[1]


def _key(move):
    if move["type"] == "place":
        return ("place", move["tile"], move["r"], move["x"])
    return ("fall", move["direction"])


def _score(s, me):
    other = 1 - me
    value = float(len(s.hands[other]) + len(s.piles[other]) - len(s.hands[me]) - len(s.piles[me]))
    value -= HAND_WEIGHT * sum(DIFFICULTY[t] for t in s.hands[me])
    value += HAND_WEIGHT * sum(DIFFICULTY[t] for t in s.hands[other])
    return value


def _ordered(s, moves):
    """Quiet placements first, the hardest tile first; then the rest."""
    if not moves or moves[0]["type"] != "place":
        return moves
    quiet, loud = [], []
    board = s.board
    for m in moves:
        cell = (m["r"], m["x"])
        board[cell] = m["tile"]
        (quiet if _quiet(board, cell, m["tile"], s.curse, s.die) else loud).append(m)
        del board[cell]
    quiet.sort(key=lambda m: -DIFFICULTY[m["tile"]])
    return quiet + loud


def _value(s, depth, alpha, beta, me, falls, count):
    """Minimax value for `me` of `s` with `depth` placements to go (alpha-beta)."""
    count[0] += 1
    if s.winner is not None:
        return (WIN + depth) if s.winner == me else -(WIN + depth)
    if depth <= 0 and s.pending is None:
        return _score(s, me)
    if s.pending is not None:
        if falls <= 0:
            child = _clone(s)
            while child.pending is not None and child.winner is None:
                cell = (child.pending[0], child.pending[1])
                _play(child, child.pending[2], _GREEDY[bot._greedy_direction(child.board, cell)])
            return _value(child, depth, alpha, beta, me, FALL_BRANCH, count)
        falls -= 1
        seat = s.pending[2]
    else:
        seat = s.active
    moves = _ordered(s, _legal(s, seat))
    if depth == 1 and s.pending is None and not s.curse:
        first = moves[0]
        cell = (first["r"], first["x"])
        s.board[cell] = first["tile"]
        quiet = _quiet(s.board, cell, first["tile"], s.curse, s.die)
        del s.board[cell]
        if quiet:
            child = _clone(s)
            _play(child, seat, first)
            return _value(child, 0, alpha, beta, me, FALL_BRANCH, count)
    maxing = seat == me
    best = -4 * WIN if maxing else 4 * WIN
    for move in moves:
        child = _clone(s)
        _play(child, seat, move)
        place = move["type"] == "place"
        value = _value(child, depth - place, alpha, beta, me, FALL_BRANCH if place else falls, count)
        if maxing:
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
        elif value < best:
            best = value
            if value < beta:
                beta = value
        if alpha >= beta:
            break
    return best
