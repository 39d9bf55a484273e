"""Per game: playout speed, each bot level's time per decision, and a strength matrix. Not a test.

    .venv/bin/python bench/bench_bots.py [--games N] [--decisions N] [--game SLUG] [--players N]

For each game it prints
- random playout speed with the checked `apply` (legal moves generated each step);
- for every level, seconds per decision (mean, p99, max) over 2-player games
  against the fast bot (only decisions with a choice are timed);
- a strength matrix at 2 players: row level's share of wins against column
  level over N seeded games with alternating starts, with a 95 % Wilson
  interval; and, with --players > 2, each level's wins against fast bots only
  compared with its fair share.
Games come from games.engine.botplay (each decision seeded "<seed>:<seq>:<seat>",
as a real table seeds its bot turns), so the figures repeat exactly.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import Rng, get_rules  # noqa: E402
from games.engine.botplay import DECISION_BOUNDS, bot_module, play  # noqa: E402

GAMES = ("powerhouse", "gizmos", "flaming-pyramids")


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def playout_speed(game: str, decisions: int) -> None:
    rules = get_rules(game)
    done, seed = 0, 1
    state = rules.new_game(players=2, seed=seed)
    chooser = Rng.from_seed(seed)
    start = time.perf_counter()
    while done < decisions:
        owing = sorted(rules.to_move(state))
        if not owing or rules.outcome(state) is not None:
            seed += 1
            state = rules.new_game(players=2, seed=seed)
            continue
        seat = owing[0]
        state = rules.apply(state, seat, chooser.choice(rules.legal_moves(state, seat)))
        done += 1
    took = time.perf_counter() - start
    print(f"  random playouts, checked apply: {done:,} decisions, {done / took:,.0f} decisions/s")


def decision_times(game: str, level: str, decisions: int) -> None:
    rules, bot = get_rules(game), bot_module(game)
    times: list[float] = []
    g = 0
    while len(times) < decisions:
        seed = 5_000 + g
        state = rules.new_game(players=2, seed=seed)
        me = g % 2
        for n in range(DECISION_BOUNDS[game]):
            if rules.outcome(state) is not None or len(times) >= decisions:
                break
            seat = min(rules.to_move(state))
            legal = rules.legal_moves(state, seat)
            view = rules.view(state, seat)
            lv = level if seat == me else "fast"
            t0 = time.perf_counter()
            move = bot.choose(view, legal, level=lv, rng=Rng.from_seed(f"{seed}:{n}:{seat}"))
            took = time.perf_counter() - t0
            if seat == me and len(legal) > 1:
                times.append(took)
            state = rules.apply(state, seat, move)
        g += 1
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"  {level:>6}: {len(times)} decisions, mean {statistics.mean(times) * 1000:,.1f} ms, "
          f"p99 {p99 * 1000:,.1f} ms, max {times[-1] * 1000:,.1f} ms")


def match(game: str, a: str, b: str, games: int, seed0: int) -> float:
    wins = 0.0
    for g in range(games):
        levels = [a, b] if g % 2 == 0 else [b, a]
        me = levels.index(a)
        result = play(game, levels, seed0 + g)
        if result.winners:
            wins += (me in result.winners) / len(result.winners)
    return wins


def strength(game: str, games: int) -> None:
    levels = bot_module(game).LEVELS
    print(f"  strength, 2 players, {games} games per pair, alternating starts "
          f"(row's wins against column, 95 % Wilson interval):")
    for i, a in enumerate(levels):
        for b in levels[:i]:
            if a == b:
                continue
            t0 = time.perf_counter()
            w = match(game, a, b, games, 200_000 + 1_000 * i)
            lo, hi = wilson(w, games)
            print(f"    {a:>6} vs {b:<6} {w:g}/{games} = {w / games:.0%} [{lo:.0%}, {hi:.0%}]"
                  f"  ({time.perf_counter() - t0:.0f} s)", flush=True)


def multi(game: str, players: int, games: int) -> None:
    rules = get_rules(game)
    players = min(players, rules.max_players)
    bot = bot_module(game)
    print(f"  at {players} players against fast bots only, {games} games, the level's seat rotating:")
    for level in bot.LEVELS:
        if level == "fast":
            continue
        wins = 0.0
        for g in range(games):
            levels = ["fast"] * players
            me = g % players
            levels[me] = level
            result = play(game, levels, 300_000 + g)
            if result.winners:
                wins += (me in result.winners) / len(result.winners)
        lo, hi = wilson(wins, games)
        print(f"    {level:>6}: {wins:g}/{games} = {wins / games:.0%} [{lo:.0%}, {hi:.0%}]; "
              f"fair share {1 / players:.0%}, ratio {wins / games * players:.2f}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40, help="games per pair of levels")
    parser.add_argument("--decisions", type=int, default=30, help="timed decisions per level")
    parser.add_argument("--playout", type=int, default=5_000, help="random playout decisions")
    parser.add_argument("--players", type=int, default=0, help="also a many-player table")
    parser.add_argument("--game", choices=GAMES)
    args = parser.parse_args()
    for game in [args.game] if args.game else GAMES:
        print(f"{game} (python {sys.version.split()[0]}, one process)")
        playout_speed(game, args.playout)
        for level in bot_module(game).LEVELS:
            decision_times(game, level, args.decisions)
        strength(game, args.games)
        if args.players:
            multi(game, args.players, args.games)
        sys.stdout.flush()
