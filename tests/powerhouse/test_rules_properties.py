"""The shared property harness plus light playouts with the Powerhouse invariants.

Uniformly random play seldom builds a clean powerhouse: random games run from a few
hundred to several hundred thousand decisions (docs/games/powerhouse.md). The shared
harness plays every game to its end, so its seeds below are the first ones under
1 to 400 whose random game ends within 2,500 decisions, two per player count and
option set. The light playouts cover thousands of other seeds: short random
playouts from the start, and whole games where a share of the moves comes from the
fast bot so that they reach wins, double powerhouses and long cascades.
"""

from __future__ import annotations

import pytest

from games.engine.testing import check_rules
from games.powerhouse.rules import RULES

from .playouts import TransitionChecker, invariant, light_playout

OFF, ON = {}, {"meltdown_limit": True}

HARNESS_SEEDS = {  # (players, option set) -> seeds of finite random games
    (2, "off"): (5, 7), (2, "on"): (2, 3),
    (3, "off"): (16, 14), (3, "on"): (5, 7),
    (4, "off"): (21, 10), (4, "on"): (7, 20),
    (5, "off"): (9, 30), (5, "on"): (9, 5),
}


@pytest.mark.slow
@pytest.mark.parametrize("players,option", sorted(HARNESS_SEEDS))
def test_shared_harness(players, option):
    finished = 0
    for i, seed in enumerate(HARNESS_SEEDS[players, option]):
        report = check_rules(
            RULES, games=1, player_counts=[players], option_sets=[ON if option == "on" else OFF],
            first_seed=seed, check_every=25, all_moves_every=4, max_decisions=5000,
            invariant=invariant, fresh_process_games=int(i == 0 and players in (2, 5)))
        finished += report.finished
    assert finished == len(HARNESS_SEEDS[players, option])


@pytest.mark.parametrize("players", (2, 3, 4, 5))
@pytest.mark.parametrize("options", (OFF, ON), ids=("off", "on"))
def test_light_random_playouts(players, options):
    checker = TransitionChecker()
    for seed in range(PLAYOUTS):
        light_playout(20_000 + seed * 31 + players, players, options, decisions=70,
                      checker=checker)
    assert checker.longest_phase >= 1


@pytest.mark.slow
@pytest.mark.parametrize("players", (2, 3, 4, 5))
@pytest.mark.parametrize("options", (OFF, ON), ids=("off", "on"))
def test_whole_games_half_random_half_fast_bot(players, options):
    checker = TransitionChecker()
    ended = 0
    for seed in range(WHOLE_GAMES):
        s = light_playout(50_000 + seed * 17 + players, players, options, decisions=3000,
                          bot_share=0.6, checker=checker)
        ended += RULES.outcome(s) is not None
    assert ended >= WHOLE_GAMES // 2


def test_some_wins_come_outside_the_winners_turn():
    checker = TransitionChecker()
    for seed in range(25):
        light_playout(90_000 + seed, 3, OFF, decisions=3000, bot_share=0.6, checker=checker)
    assert checker.off_turn_wins > 0


PLAYOUTS = 125      # x 8 sets = 1,000 short random playouts
WHOLE_GAMES = 12    # x 8 sets = 96 whole games
