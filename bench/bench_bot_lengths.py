"""How long bot-vs-bot games run, against each game's decision bound. Not a test.

    .venv/bin/python bench/bench_bot_lengths.py [--games N] [--game SLUG]
        [--expert] [--only a:b,c:d] [--budget ITERATIONS] [--players N] [--first N]
        [--progress N]

Plays N seeded 2-player games per pairing of bot levels (default 2,000 for
Powerhouse, 200 for the slower games), seats alternating, and prints per pairing
the median, p99 and max decisions and how many games hit the bound
(games.engine.botplay.DECISION_BOUNDS). Random-vs-random is a pairing too: a random
Powerhouse bot tires into the fast bot's moves in a very long game (games/powerhouse/bot.py).
The expert is in the pairings with --expert (or named in --only); it is dear, so
its games are usually played at a reduced --budget (iterations per decision),
printed with the line. --players N plays N-seat games instead: a pairing's two levels
alternate round the table (a, b, a, b, a at five), rotating one seat a game.
--progress N prints a running line every N games (games so far, longest, unfinished), so
a long run stopped early still says what it played.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import functools
import importlib
from itertools import combinations_with_replacement

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine.botplay import DECISION_BOUNDS, bot_module, play  # noqa: E402

FIRST = 0   # --first N: games N.. (split a run over processes)
PLAYERS = 2  # --players N
PROGRESS = 0  # --progress N
DEFAULT_GAMES = {"powerhouse": 2000, "gizmos": 200, "flaming-pyramids": 200}


def pairings(game: str, expert: bool = False) -> list[tuple[str, str]]:
    levels = [lv for lv in bot_module(game).LEVELS if expert or lv != "expert"]
    return list(combinations_with_replacement(levels, 2))


def lengths(game: str, pairing: tuple[str, str], games: int, budget: int | None = None) -> None:
    bound = DECISION_BOUNDS[game]
    choose = None
    note = ""
    if "expert" in pairing:
        default = importlib.import_module(f"games.{game.replace('-', '_')}.expert").ITERATIONS
        note = f"; expert budget {budget or default} iterations/decision"
        if budget:
            choose = functools.partial(bot_module(game).choose, iterations=budget)
    start = time.perf_counter()
    n, hit = [], 0
    for g in range(FIRST, FIRST + games):
        levels = [pairing[(i + g) % 2] for i in range(PLAYERS)]
        result = play(game, levels, 100_000 + g, bound=bound, choose=choose)
        n.append(result.decisions)
        hit += not result.finished
        if PROGRESS and len(n) % PROGRESS == 0 and len(n) < games:
            print(f"  ... {pairing[0]} vs {pairing[1]}: games {FIRST}-{g}, longest {max(n):,} "
                  f"decisions, unfinished {hit} ({time.perf_counter() - start:.0f} s)", flush=True)
    n.sort()
    p99 = n[min(len(n) - 1, int(len(n) * 0.99))]
    part = f" (games {FIRST}-{FIRST + games - 1})" if FIRST else ""
    table = f", {PLAYERS} players" if PLAYERS != 2 else ""
    print(f"{game:17} {pairing[0]:>6} vs {pairing[1]:<6} {games:5} games{part}{table}: "
          f"decisions median {statistics.median(n):,.0f} p99 {p99:,} max {max(n):,}; bound {bound:,}, "
          f"unfinished {hit} ({time.perf_counter() - start:.0f} s{note})", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int)
    parser.add_argument("--game", choices=sorted(DECISION_BOUNDS))
    parser.add_argument("--expert", action="store_true", help="pairings with the expert too")
    parser.add_argument("--only", help="only these pairings, a:b,c:d")
    parser.add_argument("--budget", type=int, help="the expert's iterations per decision")
    parser.add_argument("--first", type=int, default=0, help="start at this game")
    parser.add_argument("--players", type=int, default=2, help="seats per game")
    parser.add_argument("--progress", type=int, default=0,
                        help="print a running line every N games")
    args = parser.parse_args()
    FIRST = args.first
    PLAYERS = args.players
    PROGRESS = args.progress
    only = {tuple(p.split(":")) for p in args.only.split(",")} if args.only else None
    for game in ([args.game] if args.game else sorted(DECISION_BOUNDS)):
        chosen = pairings(game, expert=True) if only else pairings(game, args.expert)
        for pairing in chosen:
            if only is not None and pairing not in only and pairing[::-1] not in only:
                continue
            lengths(game, pairing, args.games or DEFAULT_GAMES[game], args.budget)
