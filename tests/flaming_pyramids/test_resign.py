"""Flaming Pyramids: a player leaves (resigns or is dropped); the others play on."""

from __future__ import annotations

from games.engine import Rng
from games.flaming_pyramids.rules import RULES
from games.flaming_pyramids.display import log_line
from tests.engine.leaving import leaving_playout, leaving_playouts


def test_two_players_the_other_wins_at_once():
    state = RULES.new_game(players=2, seed=4)
    after = RULES.resign(state, state["active"])
    other = 1 - state["active"]
    assert RULES.outcome(after)["winners"] == [other]
    assert RULES.outcome(after)["reason"] == "others_left"
    assert not RULES.to_move(after)


def test_three_players_the_leavers_tiles_leave_unseen_and_turns_skip_them():
    state = RULES.new_game(players=3, seed=11)
    leaver = state["active"]
    tiles = len(state["hands"][leaver]) + len(state["piles"][leaver])
    after = RULES.resign(state, leaver)
    assert after["gone"] == [leaver] and RULES.outcome(after) is None
    assert after["active"] == (leaver + 1) % 3, "the turn passes on"
    assert after["hands"][leaver] == [] and after["piles"][leaver] == []
    entry = after["log"][-2]
    assert entry == {"kind": "resign", "seat": leaver, "tiles": tiles}
    names = ["Ana", "Bo", "Cy"]
    assert "leave the game unseen" in log_line(entry, RULES.view(after, None), names)
    # Other seats see no tile of the leaver's hand.
    view = RULES.view(after, (leaver + 1) % 3)
    assert view["seats"][leaver]["tiles"] == 0
    # After the next player, the one after them plays, never the leaver.
    seat = after["active"]
    after = RULES.apply(after, seat, RULES.legal_moves(after, seat)[0])
    while after["pending"] is not None:
        decider = after["pending"]["decider"]
        assert decider != leaver
        after = RULES.apply(after, decider, RULES.legal_moves(after, decider)[0])
    if after["winner"] is None:
        assert after["active"] not in (leaver,)
        assert RULES.view(after, None)["previous"] != leaver


def test_a_fall_decision_the_leaver_owed_passes_to_the_next_player_still_in():
    found = 0
    for seed in range(200):
        chooser = Rng.from_seed(seed)
        state = RULES.new_game(players=4, seed=seed)
        for _ in range(200):
            owing = sorted(RULES.to_move(state))
            if not owing:
                break
            if state["pending"] is not None:
                decider = state["pending"]["decider"]
                after = RULES.resign(state, decider)
                if after["winner"] is None:
                    assert after["pending"]["decider"] != decider
                    assert after["pending"]["decider"] not in after["gone"]
                    found += 1
                break
            seat = owing[0]
            state = RULES.apply(state, seat, chooser.choice(RULES.legal_moves(state, seat)))
        if found >= 3:
            break
    assert found >= 3, "no playout reached a fall decision"


def test_random_playouts_with_players_leaving():
    ended = leaving_playouts(RULES, players_counts=(2, 3, 4), seeds=range(12))
    assert ended > 0


def test_the_last_player_in_wins():
    state = RULES.new_game(players=4, seed=3)
    result = leaving_playout(RULES, players=4, seed=3, leavers=3)
    assert result["outcome"] is not None
    assert result["outcome"]["winners"][0] not in result["left"]
    assert state["players"] == 4
