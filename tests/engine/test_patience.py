"""games.engine.patience: the shared "a bot tires in a very long game" ramp."""

from __future__ import annotations

from games.engine import Rng
from games.engine.patience import tired


def test_no_draw_and_no_tiring_up_to_the_patience_turn():
    rng = Rng.from_seed("p")
    before = Rng(rng.state)
    assert not any(tired(turn, rng, 300, 100) for turn in range(301))
    assert rng == before  # nothing drawn: short games are played as without it


def test_the_chance_rises_over_the_ramp_to_its_top():
    def share(turn, top=1.0):
        return sum(tired(turn, Rng.from_seed(i), 300, 100, top) for i in range(1000)) / 1000

    assert 0.2 < share(325) < 0.3
    assert 0.45 < share(350) < 0.55
    assert share(400) == share(5000) == 1.0
    assert 0.07 < share(400, top=0.1) < 0.13
    assert 0.07 < share(900, top=0.1) < 0.13
