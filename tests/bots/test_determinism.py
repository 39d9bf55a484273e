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


# -- in another process ------------------------------------------------------------------
# A bot turn that is tried again may run in another worker process, where Python hashes
# strings differently (PYTHONHASHSEED): anything a bot orders by a set or dict of tile or
# card ids without a tie-break would choose another move there. The Flaming Pyramids strong
# bot did (its placements of equally hard tiles came in set order) until 2026-12-07.

def _moves_here(game: str, players: int, games: int, decisions: int = 60) -> list:
    """Every level's move (the expert at a small budget) at every decision of `games`
    seeded games between fast bots, `players` seats, every variant of the game."""
    rules = get_rules(game)
    bot = _bot(game)
    variants = [{}] + [{o.key: True} for o in rules.options if o.default is False]
    out = []
    for seed in range(games):
        for options in variants:
            state = rules.new_game(players=players, seed=seed, options=options or None)
            for seq in range(decisions):
                if rules.outcome(state) is not None:
                    break
                seat = min(rules.to_move(state))
                legal = rules.legal_moves(state, seat)
                view = rules.view(state, seat)
                for level in bot.LEVELS:
                    budget = {"iterations": 1} if level == "expert" else {}
                    out.append(bot.choose(view, legal, level=level,
                                          rng=Rng.from_seed(f"9:{seq}:{seat}"), **budget))
                state = rules.apply(state, seat, bot.choose(view, legal, level="fast",
                                                            rng=Rng.from_seed(seq)))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("game,players", [("flaming-pyramids", 2), ("powerhouse", 2), ("gizmos", 3)])
def test_another_process_with_other_string_hashes_chooses_the_same_moves(game, players):
    import json
    import os
    import subprocess
    import sys

    code = ("import django, json; django.setup(); "
            "from tests.bots.test_determinism import _moves_here; "
            f"print(hash('tile')); print(json.dumps(_moves_here({game!r}, {players}, 2)))")
    env = {**os.environ}
    env.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    # another hash seed than this process's (it draws its own unless PYTHONHASHSEED is set)
    env["PYTHONHASHSEED"] = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    child = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        here = json.loads(json.dumps(_moves_here(game, players, 2)))   # meanwhile, here
        out, err = child.communicate(timeout=240)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 0, err[-3000:]
    lines = out.splitlines()
    assert int(lines[-2]) != hash("tile"), "the other process hashes strings like this one"
    there = json.loads(lines[-1])
    assert len(here) > 100 and len(there) == len(here)
    differ = [i for i, (a, b) in enumerate(zip(here, there)) if a != b]
    assert not differ, (f"{len(differ)} of {len(here)} moves differ in a process that hashes "
                        f"strings otherwise, the first: {here[differ[0]]} / {there[differ[0]]}")
