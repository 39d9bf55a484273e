"""No endless Powerhouse games between bots: seeded games all end within the bound.

The real figures (2,000 games per pairing) come from bench/bench_bot_lengths.py.
Seeds 5085 and 5274 are games that cycled past 6,000 decisions before the bots
learned to vary their draws in long games.
"""

from __future__ import annotations

import pytest

from games.engine.botplay import DECISION_BOUNDS, play

BOUND = DECISION_BOUNDS["powerhouse"]
PAIRINGS = [("fast", "fast"), ("fast", "strong"), ("strong", "strong"), ("random", "fast")]


@pytest.mark.parametrize("pairing", PAIRINGS, ids="-".join)
def test_bot_games_end_within_the_bound(pairing):
    for g in range(30):
        levels = list(pairing) if g % 2 == 0 else list(pairing[::-1])
        seed = 61_000 + g
        game = play("powerhouse", levels, seed, bound=BOUND)
        assert game.finished, f"seed {seed} {levels}: unfinished after {game.decisions} decisions"


@pytest.mark.parametrize("seed, levels", [(5085, ["fast", "strong"]), (5274, ["strong", "fast"])])
def test_games_that_used_to_cycle_now_end(seed, levels):
    game = play("powerhouse", levels, seed, bound=BOUND)
    assert game.finished, f"seed {seed} {levels}: unfinished after {game.decisions} decisions"


def test_a_bot_tires_into_ending_draws_only_in_a_long_game():
    from games.engine import Rng, get_rules
    from games.powerhouse import bot

    rules = get_rules("powerhouse")
    state = rules.new_game(players=2, seed=3)
    seat = min(rules.to_move(state))
    view, legal = rules.view(state, seat), rules.legal_moves(state, seat)
    assert view["phase"] == "draw" and len(legal) == 4
    early = {bot._restless_draw(view, legal, Rng.from_seed(i)) is None for i in range(50)}
    assert early == {True}
    # halfway up the ramp about half the draws are tired ones: its own size (3 pieces held)
    view = dict(view, turn=bot.PATIENCE_TURNS + bot.RESTLESS_RAMP_TURNS // 2)
    late = [bot._restless_draw(view, legal, Rng.from_seed(i)) for i in range(200)]
    tired = [m for m in late if m is not None]
    own = {"type": "draw", "kind": "SML"[seat % 3]}
    assert 0.35 * 200 < len(tired) < 0.65 * 200 and all(m == own for m in tired)
    # past the ramp every draw is tired; a network bigger than one powerhouse draws the die
    big = rules.new_game(players=2, seed=3)
    big["networks"][seat][:5] = [1, 1, 1, 1, 2]
    view = dict(rules.view(big, seat), turn=bot.PATIENCE_TURNS + bot.RESTLESS_RAMP_TURNS)
    die = {"type": "draw", "kind": "die"}
    assert {str(bot._restless_draw(view, legal, Rng.from_seed(i))) for i in range(20)} == {str(die)}


# Seeds whose five-bot games ran to the bound before the bots tired in turns towards an
# end (strong: 4 of the 40 seeds from 100,000; random: 3 of 20), and a few more.
FIVE_SEATS = {"strong": [100_006, 100_014, 100_023, 100_030, 100_000, 100_001],
              "random": [100_008, 100_016, 100_019, 100_000, 100_001],
              "fast": list(range(100_000, 100_008))}


@pytest.mark.parametrize("level", sorted(FIVE_SEATS))
def test_five_bots_of_a_level_end_within_the_bound(level):
    for seed in FIVE_SEATS[level]:
        game = play("powerhouse", [level] * 5, seed, bound=BOUND)
        assert game.finished, f"seed {seed} 5 x {level}: unfinished after {game.decisions}"
