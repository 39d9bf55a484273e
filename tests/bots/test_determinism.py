"""Every bot level of every game: the same (table seed, decision seq, view) gives the same move.

`games.tables.tasks.play_bot_turn` seeds the bot's generator with
"<table>:<seq>:<seat>"; a replayed turn must choose the same move whatever the
machine's load (no wall-clock cut-offs in any search).
"""

from __future__ import annotations

import copy
import importlib

import pytest

from games.engine import Rng, get_rules

GAMES = ("powerhouse", "gizmos", "flaming-pyramids")
# Decisions of a seeded random playout at which every level is asked twice.
CHECK_AT = (0, 3, 11, 25, 40)


def _bot(game):
    return importlib.import_module(f"games.{game.replace('-', '_')}.bot")


def _positions(game, seed):
    """(seq, seat, view, legal) at a few points of a seeded random playout."""
    rules = get_rules(game)
    state = rules.new_game(players=2, seed=seed)
    rng = Rng.from_seed(seed)
    out = []
    for seq in range(max(CHECK_AT) + 1):
        if rules.outcome(state) is not None:
            break
        seat = min(rules.to_move(state))
        legal = rules.legal_moves(state, seat)
        if seq in CHECK_AT:
            out.append((seq, seat, rules.view(state, seat), legal))
        state = rules.apply(state, seat, rng.choice(legal))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_seq_and_view_give_the_same_move_at_every_level(game):
    bot = _bot(game)
    positions = _positions(game, seed=4242011)
    assert len(positions) >= 3
    for level in bot.LEVELS:
        for seq, seat, view, legal in positions:
            seed = f"77:{seq}:{seat}"
            first = bot.choose(copy.deepcopy(view), copy.deepcopy(legal), level=level,
                               rng=Rng.from_seed(seed))
            again = bot.choose(copy.deepcopy(view), copy.deepcopy(legal), level=level,
                               rng=Rng.from_seed(seed))
            assert first in legal, (game, level, seq)
            assert first == again, f"{game} {level} at seq {seq}: {first} then {again}"
