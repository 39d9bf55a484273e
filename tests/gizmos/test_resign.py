"""Gizmos: a player leaves (resigns or is dropped); the others play on."""

from __future__ import annotations

from games.engine import Rng
from games.gizmos.display import log_line
from games.gizmos.rules import RULES
from tests.engine.leaving import leaving_playouts


def test_two_players_the_other_wins_at_once():
    state = RULES.new_game(players=2, seed=5)
    other = 1 - state["current"]
    after = RULES.resign(state, state["current"])
    outcome = RULES.outcome(after)
    assert outcome["winners"] == [other] and outcome["reason"] == "others_left"
    assert outcome["ranking"] == [other, 1 - other]


def test_the_leavers_energy_returns_and_turns_skip_them():
    chooser = Rng.from_seed(2)
    state = RULES.new_game(players=3, seed=9)
    for _ in range(30):  # some turns, so players hold energy
        seat = state["current"]
        state = RULES.apply(state, seat, chooser.choice(RULES.legal_moves(state, seat)))
    leaver = state["current"]
    supply = sum(state["supply"].values())
    energy = sum(state["seats"][leaver]["energy"].values())
    after = RULES.resign(state, leaver)
    assert sum(after["supply"].values()) == supply + energy
    assert after["current"] != leaver and after["phase"] == "main"
    assert "left the game" in log_line(
        next(e for e in after["log"] if e["kind"] == "resign"), RULES.view(after, None),
        ["Ana", "Bo", "Cy"])
    for _ in range(2000):
        if after["over"]:
            break
        assert after["current"] != leaver
        seat = after["current"]
        after = RULES.apply(after, seat, chooser.choice(RULES.legal_moves(after, seat)))
    assert after["over"]
    assert RULES.outcome(after)["ranking"][-1] == leaver


def test_the_game_still_ends_after_the_last_seat_still_in():
    state = RULES.new_game(players=3, seed=1)
    last = RULES.last_seat(state)
    after = RULES.resign(state, last)
    assert RULES.last_seat(after) == (last - 1) % 3


def test_random_playouts_with_players_leaving():
    assert leaving_playouts(RULES, players_counts=(2, 3, 4), seeds=range(6)) > 0
