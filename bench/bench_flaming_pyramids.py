"""Flaming Pyramids timings: random-playout speed and bot decision times. Not a test.

    .venv/bin/python bench/bench_flaming_pyramids.py
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import Rng  # noqa: E402
from games.flaming_pyramids import bot  # noqa: E402
from games.flaming_pyramids.rules import RULES  # noqa: E402


def playout_speed(games=100):
    """Decisions applied per second in random playouts (legal-move generation included)."""
    for options in ({}, {"curse": True, "fire_die": True}):
        decisions, start = 0, time.perf_counter()
        for g in range(games):
            players = 2 + g % 5
            rng = Rng.from_seed(g)
            state = RULES.new_game(players=players, seed=g, options=options)
            while RULES.outcome(state) is None:
                seat = min(RULES.to_move(state))
                state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))
                decisions += 1
        elapsed = time.perf_counter() - start
        print(f"random playouts {options or 'base'}: {games} games, {decisions} decisions, "
              f"{decisions / elapsed:,.0f} decisions/s")


def bot_times(games=4):
    """Mean and max decision time per level, in 2-player games against the fast bot."""
    for level in bot.LEVELS:
        times = []
        for g in range(games):
            rng = Rng.from_seed(100 + g)
            state = RULES.new_game(players=2, seed=500 + g)
            levels = (level, "fast") if g % 2 == 0 else ("fast", level)
            while RULES.outcome(state) is None:
                seat = min(RULES.to_move(state))
                view, legal = RULES.view(state, seat), RULES.legal_moves(state, seat)
                start = time.perf_counter()
                move = bot.choose(view, legal, level=levels[seat], rng=rng)
                if levels[seat] == level:
                    times.append(time.perf_counter() - start)
                state = RULES.apply(state, seat, move)
        print(f"bot {level:>6}: {len(times)} decisions, mean {1000 * sum(times) / len(times):.1f} ms, "
              f"max {1000 * max(times):.1f} ms")


if __name__ == "__main__":
    playout_speed()
    bot_times()
