"""A game that says its board draws every legal move (`board_controls`) keeps its word:
at many positions of seeded games, every legal move of the seat to move is a form on the
board itself, so hiding the generic list under it loses nothing."""

from __future__ import annotations

import html as htmllib
import json
import re

import pytest

from games.engine import get_rules
from games.tables.plugins import game_config
from tests.boards.positions import bot_choice, playout, render_board

MOVE_INPUT = re.compile(r'<input type="hidden" name="move" value="([^"]*)">')
STEPS = tuple(range(0, 300, 23))


def moves_on_board(html: str) -> set[str]:
    return {json.dumps(json.loads(htmllib.unescape(v)), sort_keys=True)
            for v in MOVE_INPUT.findall(html)}


def positions(game: str):
    rules = get_rules(game)
    for players in sorted({rules.min_players, rules.max_players}):
        for seed in (1,):
            yield from playout(game, players=players, seed=seed, steps=STEPS,
                               max_decisions=STEPS[-1])
        yield from playout(game, players=players, seed=4, steps=STEPS, max_decisions=STEPS[-1],
                           choose=bot_choice(game, "random" if game == "flaming-pyramids" else None))


@pytest.mark.parametrize("game", ["powerhouse", "gizmos", "flaming-pyramids"])
def test_every_legal_move_is_a_control_on_the_board(game):
    assert game_config(game).board_controls, "the game says its board draws every move"
    rules = get_rules(game)
    checked = 0
    for label, state in positions(game):
        for seat in sorted(rules.to_move(state)):
            legal = {json.dumps(m, sort_keys=True) for m in rules.legal_moves(state, seat)}
            missing = legal - moves_on_board(render_board(game, state, seat))
            assert not missing, (label, seat, sorted(missing)[:5])
            checked += len(legal)
    assert checked > 100, checked
