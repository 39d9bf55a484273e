"""Gizmos benchmark: random-playout speed and bot decision times. Not a test.

    .venv/bin/python bench/bench_gizmos.py
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import Rng  # noqa: E402
from games.gizmos import bot  # noqa: E402
from games.gizmos.rules import RULES  # noqa: E402


def playout_speed(games: int = 30) -> None:
    """Decisions per second over random games, legal-move generation included."""
    decisions = 0
    start = time.perf_counter()
    for g in range(games):
        players = 2 + g % 3
        s = RULES.new_game(players=players, seed=g)
        chooser = Rng.from_seed(g)
        while not s["over"]:
            seat = s["current"]
            move = chooser.choice(RULES.legal_moves(s, seat))
            s = RULES.apply(s, seat, move)
            decisions += 1
    took = time.perf_counter() - start
    print(f"random playouts (checked apply): {games} games, {decisions} decisions, "
          f"{decisions / took:,.0f} decisions/s, {took / games * 1000:.0f} ms/game")
    decisions = 0
    start = time.perf_counter()
    for g in range(games):
        s = RULES.new_game(players=2 + g % 3, seed=g)
        chooser = Rng.from_seed(g)
        while not s["over"]:
            seat = s["current"]
            RULES.apply_unchecked(s, seat, chooser.choice(RULES.legal_moves(s, seat)))
            decisions += 1
    took = time.perf_counter() - start
    print(f"random playouts (in place, as bots simulate): {decisions / took:,.0f} decisions/s")


def bot_times(games: int = 3) -> None:
    """Mean and max decision time per level, in 2-player games against the fast bot."""
    for level in bot.LEVELS:
        times = []
        for g in range(games):
            s = RULES.new_game(players=2, seed=100 + g)
            rngs = [Rng.from_seed(g), Rng.from_seed(g + 1)]
            while not s["over"]:
                seat = s["current"]
                legal = RULES.legal_moves(s, seat)
                view = RULES.view(s, seat)
                lv = level if seat == 0 else "fast"
                start = time.perf_counter()
                move = bot.choose(view, legal, level=lv, rng=rngs[seat])
                if seat == 0:
                    times.append(time.perf_counter() - start)
                RULES.apply_unchecked(s, seat, move)
        print(f"bot {level:6s}: {len(times)} decisions, mean {sum(times) / len(times) * 1000:.1f} ms, "
              f"max {max(times) * 1000:.0f} ms")


if __name__ == "__main__":
    playout_speed()
    bot_times()
