"""Whole games between bots, for the bench and the smoke tests (pure, no Django).

Each seat's generator is seeded as `games.tables.tasks.play_bot_turn` seeds a
real bot turn ("<game seed>:<decision seq>:<seat>"), so a game here is the game a
table with the same seed would see.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from .registry import get_rules
from .rng import Rng

# No game between bots may last longer than this many decisions (issue 15).
DECISION_BOUNDS = {"powerhouse": 3_000, "gizmos": 1_500, "flaming-pyramids": 1_500}


def bot_module(game: str):
    return importlib.import_module(f"games.{game.replace('-', '_')}.bot")


@dataclass
class Game:
    winners: list[int]
    decisions: int
    finished: bool


def play(game: str, levels: list[str], seed: int, *, bound: int | None = None,
         choose=None, options: dict | None = None) -> Game:
    """Play `levels` (one per seat) from `seed` until the end or `bound` decisions."""
    rules = get_rules(game)
    bot = bot_module(game)
    choose = choose or bot.choose
    bound = bound or DECISION_BOUNDS[game]
    state = rules.new_game(players=len(levels), seed=seed, options=options)
    n = 0
    while n < bound:
        if rules.outcome(state) is not None:
            break
        seat = min(rules.to_move(state))
        legal = rules.legal_moves(state, seat)
        move = choose(rules.view(state, seat), legal, level=levels[seat],
                      rng=Rng.from_seed(f"{seed}:{n}:{seat}"))
        state = rules.apply(state, seat, move)
        n += 1
    outcome = rules.outcome(state)
    if outcome is None:
        return Game([], n, False)
    return Game(list(outcome.get("winners", [])), n, True)
