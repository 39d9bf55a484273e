"""No endless Flaming Pyramids games between bots: the random level tires, the others
grow restless.

The real figures (2,000 games per pairing) come from bench/bench_bot_lengths.py. CYCLED
are the 2-player random-vs-random games (of seeds 100,000-101,999) that ran to the
1,500-decision bound before the random level tired into the fast bot's moves; 101,629 then
still did, the two tired bots repeating one cycle of fast moves, and so did fast vs fast
from seed 100,037, until every level but random played a random move now and then late in
a game.
"""

from __future__ import annotations

import pytest

from games.engine import Rng, get_rules
from games.engine.botplay import DECISION_BOUNDS, play
from games.flaming_pyramids import bot

BOUND = DECISION_BOUNDS["flaming-pyramids"]
CYCLED = [100028, 100078, 100113, 100199, 100321, 100550, 100666, 100720, 100733, 101156,
          101203, 101555, 101770, 101774, 101807, 101921]


@pytest.mark.parametrize("seed, levels", [(seed, ["random", "random"]) for seed in CYCLED]
                         + [(101_629, ["random", "random"]), (100_037, ["fast", "fast"])])
def test_games_that_ran_to_the_bound_now_end(seed, levels):
    game = play("flaming-pyramids", levels, seed, bound=BOUND)
    # they end soon after the bots start to tire, well inside the bound
    assert game.finished and game.decisions < BOUND * 2 // 3, \
        f"seed {seed} {levels}: {game.decisions} decisions, finished {game.finished}"


def test_the_random_bot_tires_only_in_a_long_game():
    rules = get_rules("flaming-pyramids")
    state = rules.new_game(players=2, seed=5)
    seat = min(rules.to_move(state))
    view, legal = rules.view(state, seat), rules.legal_moves(state, seat)
    assert len(legal) > 4
    fast = bot.choose(view, legal, level="fast", rng=Rng.from_seed(0))
    # early in a game it is uniformly random: the same draws as a plain random choice
    for i in range(30):
        expected = legal[Rng.from_seed(i).randbelow(len(legal))]
        assert bot.choose(view, legal, level="random", rng=Rng.from_seed(i)) == expected
    # halfway up the ramp about half its moves are the fast bot's plus random ones
    half = dict(view, turn=bot.RANDOM_PATIENCE_TURNS + bot.RANDOM_TIRE_RAMP_TURNS // 2)
    tired = sum(not bot._random_tires(dict(view, turn=bot.RANDOM_PATIENCE_TURNS), Rng.from_seed(i))
                and bot._random_tires(half, Rng.from_seed(i)) for i in range(400))
    assert 0.4 * 400 < tired < 0.6 * 400
    # past the ramp it plays the fast bot's move, except when it is restless (below)
    late = dict(view, turn=bot.RANDOM_PATIENCE_TURNS + bot.RANDOM_TIRE_RAMP_TURNS + 1)
    moves = [bot.choose(late, legal, level="random", rng=Rng.from_seed(i)) for i in range(300)]
    share = sum(m == fast for m in moves) / len(moves)
    assert all(m in legal for m in moves)
    expected = 1 - bot.RESTLESS_MAX + bot.RESTLESS_MAX / len(legal)
    assert expected - 0.06 < share < expected + 0.06


@pytest.mark.parametrize("level", ["fast", "strong"])
def test_other_levels_grow_restless_only_in_a_long_game(level):
    rules = get_rules("flaming-pyramids")
    state = rules.new_game(players=2, seed=5)
    seat = min(rules.to_move(state))
    view, legal = rules.view(state, seat), rules.legal_moves(state, seat)
    calm = dict(view, turn=bot.RESTLESS_TURNS)
    usual = bot.choose(calm, legal, level=level, rng=Rng.from_seed(1))
    assert all(bot.choose(calm, legal, level=level, rng=Rng.from_seed(1)) == usual for _ in range(3))
    assert not any(bot._restless(calm, Rng.from_seed(i)) for i in range(200))
    restless = dict(view, turn=bot.RESTLESS_TURNS + bot.RESTLESS_RAMP_TURNS + 1)
    share = sum(bot._restless(restless, Rng.from_seed(i)) for i in range(400)) / 400
    assert bot.RESTLESS_MAX - 0.05 < share < bot.RESTLESS_MAX + 0.05


def test_a_restless_fast_bot_now_and_then_plays_another_move():
    rules = get_rules("flaming-pyramids")
    state = rules.new_game(players=2, seed=5)
    seat = min(rules.to_move(state))
    view, legal = rules.view(state, seat), rules.legal_moves(state, seat)
    own = bot.choose(view, legal, level="fast", rng=Rng.from_seed(0))  # fast is deterministic
    restless = dict(view, turn=bot.RESTLESS_TURNS + bot.RESTLESS_RAMP_TURNS + 1)
    moves = [bot.choose(restless, legal, level="fast", rng=Rng.from_seed(i)) for i in range(400)]
    others = sum(m != own for m in moves) / len(moves)
    expected = bot.RESTLESS_MAX * (1 - 1 / len(legal))
    assert all(m in legal for m in moves)
    assert expected - 0.05 < others < expected + 0.05
