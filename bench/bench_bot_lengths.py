"""How long bot-vs-bot games run, against each game's decision bound. Not a test.

    .venv/bin/python bench/bench_bot_lengths.py [--games N] [--game SLUG]

Plays N seeded 2-player games per pairing of bot levels (default 2,000 for
Powerhouse, 200 for the slower games), seats alternating, and prints per pairing
the median, p99 and max decisions and how many games hit the bound
(games.engine.botplay.DECISION_BOUNDS). Uniformly random Powerhouse players
rarely build a clean powerhouse, so random-vs-random is not a bot pairing here.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from itertools import combinations_with_replacement

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine.botplay import DECISION_BOUNDS, bot_module, play  # noqa: E402

DEFAULT_GAMES = {"powerhouse": 2000, "gizmos": 200, "flaming-pyramids": 200}


def pairings(game: str) -> list[tuple[str, str]]:
    levels = [lv for lv in bot_module(game).LEVELS if lv != "expert"]
    return [p for p in combinations_with_replacement(levels, 2) if p != ("random", "random")]


def lengths(game: str, pairing: tuple[str, str], games: int) -> None:
    bound = DECISION_BOUNDS[game]
    start = time.perf_counter()
    n, hit = [], 0
    for g in range(games):
        levels = list(pairing) if g % 2 == 0 else list(pairing[::-1])
        result = play(game, levels, 100_000 + g, bound=bound)
        n.append(result.decisions)
        hit += not result.finished
    n.sort()
    p99 = n[min(len(n) - 1, int(len(n) * 0.99))]
    print(f"{game:17} {pairing[0]:>6} vs {pairing[1]:<6} {games:5} games: decisions median "
          f"{statistics.median(n):,.0f} p99 {p99:,} max {max(n):,}; bound {bound:,}, "
          f"unfinished {hit} ({time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int)
    parser.add_argument("--game", choices=sorted(DECISION_BOUNDS))
    args = parser.parse_args()
    for game in ([args.game] if args.game else sorted(DECISION_BOUNDS)):
        for pairing in pairings(game):
            lengths(game, pairing, args.games or DEFAULT_GAMES[game])
