"""The shared property harness over many random playouts, plus game invariants."""

from __future__ import annotations

import pytest

from games.engine.testing import check_rules, random_playout
from games.flaming_pyramids.rules import RULES

from .helpers import invariant

OPTION_SETS = [{}, {"curse": True}, {"fire_die": True}, {"curse": True, "fire_die": True}]
MAX_DECISIONS = 20_000


@pytest.mark.slow
def test_harness_all_player_counts_and_variants():
    report = check_rules(RULES, games=20, option_sets=OPTION_SETS, check_every=20,
                         all_moves_every=2, fresh_process_games=2, invariant=invariant, max_decisions=MAX_DECISIONS,
                         junk=[{"type": "place"}, {"type": "fall"}, {"type": "fall", "direction": "up"},
                               {"type": "place", "tile": "millstone", "r": 0, "x": 1}])
    assert report.games == 20 and report.finished == 20
    assert set(report.by_players) == {2, 3, 4, 5, 6}


def _turn_checks(state, step, falls):
    """Each cascade ends: the decisions owed within one turn stay bounded."""
    invariant(state)
    if state["pending"] is not None:
        falls[0] += 1
        # each fall lowers a tile one row; rows are bounded by the tile count
        assert falls[0] <= 45 * 10, "a cascade does not end"
    else:
        falls[0] = 0


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=["base", "curse", "die", "both"])
def test_light_random_playouts(options):
    """Many more playouts with only the invariants: 300 per option set, 1,200 in all."""
    games = 0
    for players in range(2, 7):
        for k in range(60):
            falls = [0]
            playout = random_playout(RULES, players=players, seed=50_000 + 131 * k + players,
                                     options=options, max_decisions=MAX_DECISIONS,
                                     on_state=lambda s, step: _turn_checks(s, step, falls))
            final = playout.final
            invariant(final)
            out = RULES.outcome(final)
            assert out is not None
            winner = out["winners"][0]
            assert out["scores"][str(winner)] == 0
            # the winner is the first to end their own turn with no tiles
            assert final["active"] == winner
            assert all(v < 0 for k2, v in out["scores"].items() if int(k2) != winner)
            games += 1
    assert games == 300
