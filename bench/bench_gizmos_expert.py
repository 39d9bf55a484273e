"""Gizmos: simulator speed, the expert's time per decision, its strength and game lengths. Not a test.

    .venv/bin/python bench/bench_gizmos_expert.py speed [--decisions N] [--runs N] [--which sim|checked|old]
    .venv/bin/python bench/bench_gizmos_expert.py times [--budget N] [--decisions N]
    .venv/bin/python bench/bench_gizmos_expert.py match --budget N --games N --against LEVEL
                     [--players N] [--seed0 N] [--against-budget N]
    .venv/bin/python bench/bench_gizmos_expert.py lengths --budget N --games N
                     (--against LEVEL | --pair LEVEL,LEVEL) [--seed0 N]

- speed: random playouts through `games.gizmos.sim.SIMULATOR` and through the checked
  `RULES.legal_moves` + `RULES.apply`, best of --runs runs (the memo caches warmed by a
  first run that is not counted, at least 20,000 decisions for the simulator), as CPU seconds of this process (`time.process_time`,
  what one core gives it even when other processes share the machine) and wall seconds.
- times: CPU and wall seconds per searched expert decision (mean, p99, max) in 2-player
  games against the fast bot at --budget iterations.
- match: the expert at --budget iterations per decision against LEVEL; 2 players with
  alternating starts, or --players N with LEVEL in every other seat and the expert's
  seat rotating; the expert's wins with a 95 % Wilson interval (and its fair share at
  more than 2 players). --against expert with --against-budget plays the expert against
  an expert with another budget (the ceiling).
- lengths: decisions per game (median, p99, max) against games.engine.botplay's bound, for
  the expert against LEVEL or for any two levels (--pair, e.g. random,random), seats
  alternating; running totals every 10 games.

Every game comes from games.engine.botplay.play (seeded "<seed>:<seq>:<seat>" as a
table's bot turns are), so every figure repeats exactly (times aside). `uptime` is
printed first: on a loaded machine the wall times read high.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import Rng  # noqa: E402
from games.engine.botplay import DECISION_BOUNDS, play  # noqa: E402
from games.gizmos import bot  # noqa: E402
from games.engine import check_legal, require_move_dict  # noqa: E402
from games.gizmos.rules import RULES, copy_state  # noqa: E402
from games.gizmos.rules.game import MOVE_TYPES  # noqa: E402
from games.gizmos.sim import SIMULATOR  # noqa: E402

from bench.bench_bots import decision_times, wilson  # noqa: E402

GAME = "gizmos"


def _random_run(decisions: int, simulated) -> tuple[float, float]:
    done, seed = 0, 1
    state = RULES.new_game(players=2, seed=seed)
    if simulated is True:
        state = SIMULATOR.from_rules(state)
    chooser = Rng.from_seed(seed)
    c0, w0 = time.process_time(), time.perf_counter()
    while done < decisions:
        if state["over"]:
            seed += 1
            state = RULES.new_game(players=2, seed=seed)
            if simulated is True:
                state = SIMULATOR.from_rules(state)
            continue
        seat = state["current"]
        if simulated == "old":  # the checked apply before issue 15: the move among all legal moves
            move = chooser.choice(RULES.legal_moves(state, seat))
            RULES.require_seat(state, seat, state["players"])
            require_move_dict(move, MOVE_TYPES)
            move = check_legal(RULES.legal_moves(state, seat), move)
            state = copy_state(state)
            RULES.apply_unchecked(state, seat, move)
        elif simulated:
            SIMULATOR.play(state, seat, chooser.choice(SIMULATOR.legal_moves(state, seat)))
        else:
            state = RULES.apply(state, seat, chooser.choice(RULES.legal_moves(state, seat)))
        done += 1
    return decisions / (time.process_time() - c0), decisions / (time.perf_counter() - w0)


def speed(decisions: int, runs: int, which: str) -> None:
    paths = (("simulator", True, "sim"), ("checked legal_moves + apply", False, "checked"),
             ("checked legal_moves + apply as before issue 15 (all legal moves compared)", "old", "old"))
    for name, simulated, key in paths:
        if which != key and not (which == "both" and key != "old"):
            continue
        _random_run(max(decisions, 20_000) if simulated is True else decisions, simulated)  # warm-up
        results = [_random_run(decisions, simulated) for _ in range(runs)]
        cpu = max(r[0] for r in results)
        wall = max(r[1] for r in results)
        print(f"  random playouts, {name}: {decisions:,} decisions a run, best of {runs}: "
              f"{cpu:,.0f} decisions per CPU second, {wall:,.0f} per wall second", flush=True)


def times(budget, decisions):
    """The expert's seconds per decision (wall and CPU) at `budget` iterations, against fast."""
    decision_times(GAME, "expert", decisions, budget,
                   timed=lambda view: view["turn"]["phase"] in _searched())


def _searched():
    from games.gizmos import expert
    return expert.SEARCHED_PHASES


def _chooser(budget: int, other_budget: int | None, expert_seat: int):
    def choose(view, legal, *, level, rng):
        if level == "expert":
            b = budget if view["you"] == expert_seat else (other_budget or budget)
            return bot.choose(view, legal, level=level, rng=rng, iterations=b)
        return bot.choose(view, legal, level=level, rng=rng)
    return choose


def match(budget: int, games: int, against: str, players: int, seed0: int,
          against_budget: int | None) -> None:
    wins, longest, unfinished = 0.0, 0, 0
    start = time.perf_counter()
    for g in range(games):
        me = g % players
        levels = [against] * players
        levels[me] = "expert"
        result = play(GAME, levels, seed0 + g, choose=_chooser(budget, against_budget, me))
        longest = max(longest, result.decisions)
        unfinished += not result.finished
        if result.winners:
            wins += (me in result.winners) / len(result.winners)
        if (g + 1) % 10 == 0 and g + 1 < games:
            print(f"    after {g + 1} games: {wins:g} won", flush=True)
    lo, hi = wilson(wins, games)
    vs = f"{against} at {against_budget} iterations" if against == "expert" else against
    line = (f"  expert at {budget} iterations vs {vs}, {players} players, {games} games "
            f"(seeds {seed0}..{seed0 + games - 1}, the expert's seat rotating): "
            f"{wins:g}/{games} = {wins / games:.1%} [{lo:.1%}, {hi:.1%}]")
    if players > 2:
        line += f"; fair share {1 / players:.0%}, ratio {wins / games * players:.2f}"
    print(line + f"; longest game {longest} decisions, unfinished {unfinished} "
          f"({time.perf_counter() - start:.0f} s)", flush=True)


def lengths(budget: int, games: int, pair: tuple[str, str], seed0: int) -> None:
    """Decisions per game for the levels `pair` (seats alternating), against the bound."""
    bound = DECISION_BOUNDS[GAME]
    n, hit = [], 0
    start = time.perf_counter()

    def report(done: int, final: bool) -> None:
        got = sorted(n)
        p99 = got[min(len(got) - 1, int(len(got) * 0.99))]
        name = [f"expert at {budget} iterations" if lv == "expert" else lv for lv in pair]
        print(f"  {'' if final else '(so far) '}{name[0]} vs {name[1]}: {done} games (seeds {seed0}.."
              f"{seed0 + done - 1}), decisions median {statistics.median(got):,.0f} p99 {p99:,} "
              f"max {max(got):,}; bound {bound:,}, unfinished {hit} "
              f"({time.perf_counter() - start:.0f} s)", flush=True)

    for g in range(games):
        levels = list(pair) if g % 2 == 0 else list(pair[::-1])
        result = play(GAME, levels, seed0 + g, bound=bound,
                      choose=_chooser(budget, None, levels.index("expert") if "expert" in levels else -1))
        n.append(result.decisions)
        hit += not result.finished
        if (g + 1) % 10 == 0 and g + 1 < games:
            report(g + 1, False)
    report(games, True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("speed", "times", "match", "lengths"))
    parser.add_argument("--budget", type=int, default=None, help="expert iterations per decision")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--decisions", type=int, default=30_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", default="fast", choices=bot.LEVELS)
    parser.add_argument("--against-budget", type=int, default=None)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--which", default="both", choices=("both", "sim", "checked", "old"),
                        help="speed: the simulator, the checked path or both")
    parser.add_argument("--pair", default=None, help="lengths: two levels, e.g. fast,strong")
    parser.add_argument("--seed0", type=int, default=400_000)
    args = parser.parse_args()
    from games.gizmos import expert

    budget = args.budget or expert.ITERATIONS
    print(f"gizmos (python {sys.version.split()[0]}, one process); "
          f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}", flush=True)
    if args.what == "speed":
        speed(args.decisions, args.runs, args.which)
    elif args.what == "times":
        times(budget, min(args.decisions, 1_000))
    elif args.what == "match":
        match(budget, args.games, args.against, args.players, args.seed0, args.against_budget)
    else:
        pair = tuple(args.pair.split(",")) if args.pair else ("expert", args.against)
        lengths(budget, args.games, pair, args.seed0)
