"""Powerhouse: a player leaves (resigns or is dropped); the others play on."""

from __future__ import annotations

from games.engine import Rng
from games.powerhouse.display import log_line
from games.powerhouse.rules import RULES
from games.powerhouse.rules.game import conservation_errors
from tests.engine.leaving import leaving_playouts


def test_two_players_the_other_wins_at_once():
    state = RULES.new_game(players=2, seed=5)
    other = 1 - state["active"]
    after = RULES.resign(state, state["active"])
    assert RULES.outcome(after)["winners"] == [other]
    assert not RULES.to_move(after)


def test_the_leavers_pyramids_go_back_into_the_bag_and_nobody_gives_to_them():
    state = RULES.new_game(players=3, seed=8)
    leaver = (state["active"] + 1) % 3
    held = sum(state["networks"][leaver])
    bag = sum(state["bag"])
    after = RULES.resign(state, leaver)
    assert sum(after["bag"]) == bag + held and sum(after["networks"][leaver]) == 0
    assert conservation_errors(after) == []
    names = ["Ana", "Bo", "Cy"]
    line = log_line(after["log"][-1], RULES.view(after, None), names)
    assert "left the game" in line and "back into the bag" in line
    # Play on: no give may target the leaver; turns skip them.
    chooser = Rng.from_seed(1)
    for _ in range(300):
        owing = sorted(RULES.to_move(after))
        if not owing:
            break
        assert leaver not in owing
        seat = owing[0]
        legal = RULES.legal_moves(after, seat)
        assert not any(m["type"] == "give" and m["to"] == leaver for m in legal)
        after = RULES.apply(after, seat, chooser.choice(legal))
        assert conservation_errors(after) == []


def test_a_meltdown_forgives_the_discards_the_leaver_owed():
    for seed in range(300):
        chooser = Rng.from_seed(seed)
        state = RULES.new_game(players=3, seed=seed)
        for _ in range(400):
            if state["phase"] == "meltdown" and sum(1 for n in state["meltdown"]["owed"] if n) >= 2:
                owing = sorted(RULES.to_move(state))
                leaver = owing[0]
                after = RULES.resign(state, leaver)
                assert leaver not in RULES.to_move(after)
                assert conservation_errors(after) == []
                return
            owing = sorted(RULES.to_move(state))
            if not owing:
                break
            seat = owing[0]
            state = RULES.apply(state, seat, chooser.choice(RULES.legal_moves(state, seat)))
    raise AssertionError("no playout reached a meltdown with two seats owing")


def test_random_playouts_with_players_leaving():
    assert leaving_playouts(RULES, players_counts=(2, 3, 5), seeds=range(10)) > 0
