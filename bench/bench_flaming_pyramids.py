"""Flaming Pyramids bench: playout speed (checked rules and simulator), bot times, strength. Not a test.

    .venv/bin/python bench/bench_flaming_pyramids.py                      # speed + bot times
    .venv/bin/python bench/bench_flaming_pyramids.py speed [--runs N] [--decisions N]
    .venv/bin/python bench/bench_flaming_pyramids.py times [--budget N] [--decisions N]
    .venv/bin/python bench/bench_flaming_pyramids.py match A B [--budget N] [--games N] [--first N]
    .venv/bin/python bench/bench_flaming_pyramids.py multi LEVEL [--players N] [--budget N] [--games N]
    .venv/bin/python bench/bench_flaming_pyramids.py lengths A B [--budget N] [--games N]
    .venv/bin/python bench/bench_flaming_pyramids.py oracle [--games N] [--first N]
    .venv/bin/python bench/bench_flaming_pyramids.py starts LEVEL [--budget N] [--games N] [--first N]

- speed: random playouts at 2 players (uniform random legal moves), decisions per
  second through the checked rules (`legal_moves` + `apply`) and through the
  simulator (`sim.SIMULATOR`), best of --runs runs, by the wall clock and per CPU
  second of this process (`time.process_time`), with `uptime`: on a shared machine
  the wall-clock figures read low under load, the CPU-second ones much less so.
- times: the expert's seconds per decision (mean, p99, max; wall clock and CPU time) and per iteration in
  2-player games against fast bots, at --budget iterations (default expert.ITERATIONS).
- match: A against B at 2 players over --games seeded games, starts alternating,
  the row's share of wins with a 95 % Wilson interval; the expert plays at --budget.
- multi: LEVEL against fast bots only at --players, the seat rotating, wins against
  the fair share.
- lengths: decisions per game against games.engine.botplay.DECISION_BOUNDS.
- oracle: what seeing the hidden tiles is worth. The strong level's search given the real
  state as its only sample (other hands, every pile's order; no bot may do this) against
  the strong level, 2 players, starts alternating, seeds from 500,000. Near 50 %, hidden
  information is not what separates a better player from strong at this game.
- starts: LEVEL against itself at 2 players, how often the player who starts (drawn by the
  rules from the seed) wins: the part of a result that the turn order decides.
Games come from games.engine.botplay.play (decisions seeded "<seed>:<seq>:<seat>"
as at a real table), so every figure repeats exactly for the same arguments.
"""

from __future__ import annotations

import argparse
import copy
import functools
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.bench_bots import decision_times, wilson  # noqa: E402
from games.engine import Rng  # noqa: E402
from games.engine.botplay import DECISION_BOUNDS, play  # noqa: E402
from games.flaming_pyramids import bot, expert, sim  # noqa: E402
from games.flaming_pyramids.rules import RULES  # noqa: E402

GAME = "flaming-pyramids"


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def _checked(decisions):
    done, seed = 0, 1
    state = RULES.new_game(players=2, seed=seed)
    chooser = Rng.from_seed(seed)
    start, cpu = time.perf_counter(), time.process_time()
    while done < decisions:
        if RULES.outcome(state) is not None:
            seed += 1
            state = RULES.new_game(players=2, seed=seed)
            continue
        seat = min(RULES.to_move(state))
        state = RULES.apply(state, seat, chooser.choice(RULES.legal_moves(state, seat)))
        done += 1
    return done / (time.perf_counter() - start), done / (time.process_time() - cpu)


def _simulated(decisions):
    S = sim.SIMULATOR
    done, seed = 0, 1
    state = sim.from_rules(RULES.new_game(players=2, seed=seed))
    chooser = Rng.from_seed(seed)
    start, cpu = time.perf_counter(), time.process_time()
    while done < decisions:
        if S.outcome(state) is not None:
            seed += 1
            state = sim.from_rules(RULES.new_game(players=2, seed=seed))
            continue
        seat = min(S.to_move(state))
        S.play(state, seat, chooser.choice(S.legal_moves(state, seat)))
        done += 1
    return done / (time.perf_counter() - start), done / (time.process_time() - cpu)


def speed(runs, decisions):
    print(f"random playouts, 2 players, best of {runs} runs of {decisions:,} decisions; {uptime()}")
    checked = [_checked(decisions) for _ in range(runs)]
    simulated = [_simulated(decisions) for _ in range(runs)]
    for name, rates in (("checked rules (legal_moves + apply)", checked),
                        ("simulator (sim.SIMULATOR)          ", simulated)):
        wall, cpu = max(r[0] for r in rates), max(r[1] for r in rates)
        print(f"  {name}: {wall:,.0f} decisions/s wall clock, {cpu:,.0f} per CPU second")
    print(f"  simulator / checked: {max(r[1] for r in simulated) / max(r[1] for r in checked):.1f}x "
          f"per CPU second")
    print(f"  {uptime()}", flush=True)


def times(budget, decisions):
    """The expert's seconds per decision (wall and CPU) at `budget` iterations, against fast."""
    decision_times(GAME, "expert", decisions, budget)


def _choose(budget):
    return functools.partial(bot.choose, iterations=budget)


def _tally(what, wins, games, first, seeds, start):
    """The final line of a 2-player match: the row's wins with a 95 % Wilson interval."""
    lo, hi = wilson(wins, games)
    print(f"{what}, games {first}..{first + games - 1} (seeds from {seeds}), starts alternating: "
          f"{wins:g}/{games} = {wins / games:.0%} [95 % Wilson {lo:.0%}, {hi:.0%}] "
          f"({time.perf_counter() - start:.0f} s; {uptime()})", flush=True)


def match(a, b, budget, games, first, progress=False):
    wins = 0.0
    start = time.perf_counter()
    for g in range(games):
        levels = [a, b] if g % 2 == 0 else [b, a]
        me = levels.index(a)
        result = play(GAME, levels, 200_000 + first + g, choose=_choose(budget))
        if result.winners:
            wins += (me in result.winners) / len(result.winners)
        if progress:
            print(f"  after {g + 1} games: {wins:g}", flush=True)
    _tally(f"{a} vs {b}, 2 players, expert budget {budget} iterations", wins, games, first,
           "200,000", start)


def multi(level, players, budget, games, first, progress=False):
    wins = 0.0
    for g in range(first, first + games):
        levels = ["fast"] * players
        me = g % players
        levels[me] = level
        result = play(GAME, levels, 300_000 + g, choose=_choose(budget))
        if result.winners:
            wins += (me in result.winners) / len(result.winners)
        if progress:
            print(f"  after game {g}: {wins:g}", flush=True)
    lo, hi = wilson(wins, games)
    print(f"{level} against {players - 1} fast bots, expert budget {budget}, games {first}..{first + games - 1}, "
          f"seat rotating: {wins:g}/{games} = {wins / games:.0%} [95 % Wilson {lo:.0%}, {hi:.0%}]; "
          f"fair share {1 / players:.0%}, ratio {wins / games * players:.2f}", flush=True)


def lengths(a, b, budget, games, first, progress=False):
    bound = DECISION_BOUNDS[GAME]
    n, hit = [], 0
    for g in range(first, first + games):
        levels = [a, b] if g % 2 == 0 else [b, a]
        result = play(GAME, levels, 100_000 + g, bound=bound, choose=_choose(budget))
        n.append(result.decisions)
        hit += not result.finished
        if progress:
            print(f"  game {g}: {result.decisions} decisions, finished {result.finished}", flush=True)
    n.sort()
    p99 = n[min(len(n) - 1, int(len(n) * 0.99))]
    print(f"{a} vs {b}, expert budget {budget}, games {first}..{first + games - 1}: decisions median "
          f"{statistics.median(n):,.0f} p99 {p99:,} max {max(n):,}; bound {bound:,}, unfinished {hit}",
          flush=True)


def _oracle_game(seed, levels):
    state = RULES.new_game(players=2, seed=seed)
    n = 0
    while n < DECISION_BOUNDS[GAME] and RULES.outcome(state) is None:
        seat = min(RULES.to_move(state))
        legal = RULES.legal_moves(state, seat)
        view, rng = RULES.view(state, seat), Rng.from_seed(f"{seed}:{n}:{seat}")
        if levels[seat] == "oracle" and len(legal) > 1:
            real = state
            move = bot._choose_strong(view, legal, rng, 1,
                                      deal=lambda _view, _rng: copy.deepcopy(real))
        else:
            move = bot.choose(view, legal, level="strong", rng=rng)
        state = RULES.apply(state, seat, move)
        n += 1
    outcome = RULES.outcome(state)
    return (outcome or {}).get("winners", [])


def oracle(games, first, progress=False):
    wins = 0.0
    start = time.perf_counter()
    for g in range(first, first + games):
        levels = ["oracle", "strong"] if g % 2 == 0 else ["strong", "oracle"]
        winners = _oracle_game(500_000 + g, levels)
        if winners:
            wins += (levels.index("oracle") in winners) / len(winners)
        if progress:
            print(f"  after game {g}: {wins:g}", flush=True)
    _tally("strong seeing the hidden tiles vs strong, 2 players", wins, games, first, "500,000",
           start)


def starts(level, budget, games, first, progress=False):
    won = 0
    start = time.perf_counter()
    for g in range(first, first + games):
        seed = 600_000 + g
        opener = RULES.new_game(players=2, seed=seed)["active"]
        result = play(GAME, [level, level], seed, choose=_choose(budget))
        won += result.winners == [opener]
        if progress:
            print(f"  after game {g}: {won}", flush=True)
    lo, hi = wilson(won, games)
    print(f"{level} vs {level}, 2 players, expert budget {budget}, games {first}..{first + games - 1} "
          f"(seeds from 600,000): the starting player won {won}/{games} = {won / games:.0%} "
          f"[95 % Wilson {lo:.0%}, {hi:.0%}] ({time.perf_counter() - start:.0f} s; {uptime()})",
          flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("what", nargs="?", default="all",
                        choices=["all", "speed", "times", "match", "multi", "lengths", "oracle", "starts"])
    parser.add_argument("levels", nargs="*")
    parser.add_argument("--budget", type=int, default=expert.ITERATIONS,
                        help="expert iterations per decision")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first", type=int, default=0, help="first game index (to split a run)")
    parser.add_argument("--players", type=int, default=RULES.max_players)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=30_000)
    parser.add_argument("--progress", action="store_true", help="a line after every game")
    args = parser.parse_args()
    if args.what in ("all", "speed"):
        speed(args.runs, args.decisions)
    if args.what in ("all", "times"):
        times(args.budget, 30 if args.what == "all" else args.decisions)
    if args.what == "match":
        match(*args.levels, args.budget, args.games, args.first, args.progress)
    if args.what == "multi":
        multi(args.levels[0], args.players, args.budget, args.games, args.first, args.progress)
    if args.what == "lengths":
        lengths(*args.levels, args.budget, args.games, args.first, args.progress)
    if args.what == "oracle":
        oracle(args.games, args.first, args.progress)
    if args.what == "starts":
        starts(args.levels[0], args.budget, args.games, args.first, args.progress)
