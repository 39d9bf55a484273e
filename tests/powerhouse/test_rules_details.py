"""Scenario tests of the rules beyond the worked examples: dumps, meltdowns, the option."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove
from games.powerhouse.rules import RULES

from .scenario import SEAT_A, SEAT_B, SEAT_C, moves, net, play, rigged, table

SMALLS = ["red-S", "yellow-S", "green-S", "blue-S", "purple-S"]
MEDIUMS = ["red-M", "yellow-M", "green-M", "blue-M", "purple-M"]
END = {"type": "end"}
STOP = {"type": "stop"}


def dump(piece):
    return {"type": "dump", "piece": piece}


def discard(piece):
    return {"type": "discard", "piece": piece}


# -- Major Dump (6.4) -------------------------------------------------------------------

def test_major_dump_targets_the_latest_powerhouse_and_may_stop_after_one():
    s = table({SEAT_A: SMALLS + MEDIUMS + ["red-L"], SEAT_B: ["red-M"]}, phase="reaction")
    assert END not in moves(s, SEAT_A)
    # the mediums were completed after the smalls, so they form the second powerhouse
    assert {m["piece"] for m in moves(s, SEAT_A) if m["type"] == "dump"} == set(MEDIUMS)
    assert RULES.view(s, SEAT_A)["you"]["major_dump"] == "M"
    s = play(s, SEAT_A, dump("blue-M"))
    assert STOP in moves(s, SEAT_A) and dump("blue-M") not in moves(s, SEAT_A)
    s = play(s, SEAT_A, STOP)
    assert s["active"] == SEAT_A and END in moves(s, SEAT_A)


def test_major_dump_follows_completion_order_not_size():
    s = table({SEAT_A: SMALLS + MEDIUMS + ["red-L"]}, phase="reaction")
    s["stamps"][SEAT_A] = [5, None, None, 2, None, None, None, None, None]  # smalls last
    assert {m["piece"] for m in moves(s, SEAT_A) if m["type"] == "dump"} == set(SMALLS)


def test_dumping_all_five_leaves_the_first_powerhouse_clean_and_wins():
    s = table({SEAT_A: SMALLS + MEDIUMS}, phase="reaction")
    s = play(s, SEAT_A, *[dump(p) for p in MEDIUMS[:4]])
    assert RULES.outcome(s) is None
    s = play(s, SEAT_A, dump(MEDIUMS[4]))
    assert RULES.outcome(s)["winners"] == [SEAT_A]


def test_a_triple_powerhouse_needs_a_second_dump():
    s = table({SEAT_A: SMALLS + MEDIUMS + ["red-L", "yellow-L", "green-L", "blue-L",
                                           "purple-L"] + ["red-S"]}, phase="reaction")
    s = play(s, SEAT_A, dump("red-L"), STOP)
    assert END not in moves(s, SEAT_A)
    assert {m["piece"] for m in moves(s, SEAT_A) if m["type"] == "dump"} == set(MEDIUMS)


def test_double_at_one_size_is_undone_by_firing_one_reactor():
    s = table({SEAT_A: SMALLS + SMALLS, SEAT_B: ["red-L"]}, phase="reaction")
    assert RULES.view(s, None)["networks"][SEAT_A]["powerhouses"] == 2
    assert END not in moves(s, SEAT_A)
    s = play(s, SEAT_A, {"type": "fire", "piece": "red-S"}, {"type": "give", "to": SEAT_B},
             {"type": "vapor"})
    # four reactors remain to fire, but no Major Dump is owed any more
    assert not any(m["type"] == "dump" for m in moves(s, SEAT_A))
    assert END not in moves(s, SEAT_A)


# -- meltdowns (section 7) --------------------------------------------------------------

def test_third_die_everyone_discards_three_and_the_dice_go_back():
    s = table({SEAT_A: ["red-S", "red-M", "red-L", "blue-S"],
               SEAT_B: ["green-S", "green-M", "yellow-L", "blue-L"]}, centre=2)
    s = play(s, SEAT_A, {"type": "draw", "kind": "die"})
    assert s["centre"] == 3 and s["meltdown"]["k"] == 3
    s = play(s, SEAT_A, discard("red-S"), discard("red-M"), discard("red-L"))
    s = play(s, SEAT_B, discard("green-S"), discard("green-M"), discard("yellow-L"))
    assert s["centre"] == 0 and s["bag_dice"] == 3
    assert s["active"] == SEAT_B and s["phase"] == "draw"


def test_discards_without_a_choice_are_made_for_the_player():
    s = table({SEAT_A: ["red-S", "blue-M", "green-L"], SEAT_B: ["red-M"],
               SEAT_C: ["blue-L", "blue-L", "blue-L"]}, players=3, centre=1)
    s = play(s, SEAT_A, {"type": "draw", "kind": "die"})
    # B holds fewer than k; C's pieces are all alike: only A chooses
    assert RULES.to_move(s) == frozenset({SEAT_A})
    assert net(s, SEAT_B) == {} and net(s, SEAT_C) == {"blue-L": 1}


def test_no_win_halfway_through_ones_own_discards():
    """Q3: a powerhouse plus one extra does not win when two discards are owed."""
    s = table({SEAT_A: SMALLS + ["red-M"], SEAT_B: ["red-L", "green-L", "blue-L"]},
              active=SEAT_B, centre=1)
    s = play(s, SEAT_B, {"type": "draw", "kind": "die"})
    s = play(s, SEAT_A, discard("red-M"))
    assert RULES.outcome(s) is None and s["meltdown"]["owed"][SEAT_A] == 1
    s = play(s, SEAT_A, discard("red-S"))
    s = play(s, SEAT_B, discard("red-L"), discard("green-L"))
    assert RULES.outcome(s) is None


def test_meltdown_tie_goes_to_the_first_clean_seat_after_the_drawer():
    s = table({SEAT_A: ["red-L", "green-M"],
               SEAT_B: ["red-M", "yellow-M", "green-M", "blue-M", "purple-M", "red-L"],
               SEAT_C: SMALLS + ["blue-L"]}, players=3)
    s = play(s, SEAT_A, {"type": "draw", "kind": "die"})
    s = play(s, SEAT_B, discard("red-L"))
    s = play(s, SEAT_C, discard("blue-L"))
    s = play(s, SEAT_A, discard("green-M"))
    assert RULES.outcome(s)["winners"] == [SEAT_B]


def test_meltdown_tie_goes_to_the_drawer_when_clean():
    s = table({SEAT_A: ["red-M", "yellow-M", "green-M", "blue-M", "purple-M", "red-L"],
               SEAT_B: SMALLS + ["blue-L"]}, active=SEAT_A)
    s = play(s, SEAT_A, {"type": "draw", "kind": "die"}, discard("red-L"))
    s = play(s, SEAT_B, discard("blue-L"))
    assert RULES.outcome(s)["winners"] == [SEAT_A]


# -- draws and wins ---------------------------------------------------------------------

def test_a_drawn_pyramid_that_makes_a_clean_powerhouse_wins_before_reactions():
    s = table({SEAT_A: ["red-L", "yellow-L", "green-L", "blue-L"]})
    s = play(rigged(s, "L", "purple-L"), SEAT_A, {"type": "draw", "kind": "L"})
    assert RULES.outcome(s)["winners"] == [SEAT_A]


def test_a_size_missing_from_the_bag_cannot_be_chosen():
    everyone = {SEAT_A: SMALLS + SMALLS, SEAT_B: SMALLS}
    s = table(everyone)
    assert [m["kind"] for m in moves(s, SEAT_A)] == ["M", "L", "die"]


def test_owner_may_give_away_a_piece_of_their_own_powerhouse():
    s = table({SEAT_A: SMALLS + ["red-M", "red-L"], SEAT_B: []}, phase="reaction")
    s = play(s, SEAT_A, {"type": "battery", "color": "red"}, discard("red-M"))
    assert {"type": "transform", "piece": "red-S"} in moves(s, SEAT_A)
    s = play(s, SEAT_A, {"type": "transform", "piece": "red-S"}, {"type": "give", "to": SEAT_B})
    # B held nothing before the give: vapor is the only way on
    assert moves(s, SEAT_A) == [{"type": "vapor"}]
    s = play(s, SEAT_A, {"type": "vapor"})
    assert net(s, SEAT_B) == {"red-S": 1} and s["active"] == SEAT_B


# -- the Meltdown Limitation Rule (section 10) ------------------------------------------

def test_limitation_rule_spends_a_tracking_pyramid_and_blocks_the_fourth_die():
    s = table({SEAT_A: ["red-S"], SEAT_B: ["blue-S"]}, options={"meltdown_limit": True},
              tracking=[1, 3])
    assert {"type": "draw", "kind": "die"} in moves(s, SEAT_A)
    s = play(s, SEAT_A, {"type": "draw", "kind": "die"})
    assert s["tracking"] == [0, 3]
    assert RULES.view(s, None)["networks"][SEAT_A]["tracking"] == 0
    s = play(rigged(s, "M", "green-M"), SEAT_B, {"type": "draw", "kind": "M"})
    assert {"type": "draw", "kind": "die"} not in moves(s, SEAT_A)
    with pytest.raises(IllegalMove):
        RULES.apply(s, SEAT_A, {"type": "draw", "kind": "die"})


def test_limitation_rule_allows_the_forced_die_with_no_pyramid_left():
    full = {SEAT_A: SMALLS * 3 + MEDIUMS, SEAT_B: MEDIUMS * 2 + [f"{c}-L" for c in (
        "red", "yellow", "green", "blue", "purple")] * 3}
    s = table(full, options={"meltdown_limit": True}, tracking=[0, 0])
    assert moves(s, SEAT_A) == [{"type": "draw", "kind": "die"}]
    s = play(s, SEAT_A, {"type": "draw", "kind": "die"})
    assert s["tracking"] == [0, 0]


def test_option_off_by_default_and_listed():
    assert [o.key for o in RULES.options] == ["meltdown_limit"]
    assert RULES.default_options() == {"meltdown_limit": False}
    s = RULES.new_game(players=2, seed=1)
    assert s["tracking"] is None
