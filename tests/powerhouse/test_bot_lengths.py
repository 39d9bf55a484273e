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


def test_a_bot_varies_its_draw_only_in_a_long_game():
    from games.engine import Rng, get_rules
    from games.powerhouse import bot

    rules = get_rules("powerhouse")
    state = rules.new_game(players=2, seed=3)
    seat = min(rules.to_move(state))
    view, legal = rules.view(state, seat), rules.legal_moves(state, seat)
    assert view["phase"] == "draw"
    early = {bot._restless_draw(view, legal, Rng.from_seed(i)) is None for i in range(50)}
    assert early == {True}
    view = dict(view, turn=(bot.PATIENCE_ROUNDS + bot.RESTLESS_RAMP) * view["players"])
    late = [bot._restless_draw(view, legal, Rng.from_seed(i)) for i in range(200)]
    varied = [m for m in late if m is not None]
    assert all(m in legal for m in varied)
    assert 0.15 * 200 < len(varied) < 0.45 * 200
