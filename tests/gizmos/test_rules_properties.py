"""The shared property harness plus light random playouts with the Gizmos invariants."""

from __future__ import annotations

import pytest

from games.engine.testing import check_rules

from .helpers import RULES, invariant, light_playout


@pytest.mark.slow
def test_shared_harness():
    report = check_rules(RULES, games=6, player_counts=(2, 3, 4), check_every=15, all_moves_every=4,
                         invariant=invariant, fresh_process_games=1)
    assert report.games == report.finished == 6


@pytest.mark.slow
@pytest.mark.parametrize("players", (2, 3, 4))
def test_light_random_playouts(players):
    lengths = []
    for seed in range(GAMES_PER_COUNT):
        s = light_playout(10_000 + seed, players)
        assert RULES.outcome(s) is not None
        lengths.append(len(s["log"]))
    assert min(lengths) > 0


GAMES_PER_COUNT = 250  # 750 light games over the three player counts (1,050 until 2026-12-07)
