"""The worked examples of RULES.md §14, and other rulings, as scenario tests."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove
from games.flaming_pyramids.rules import RULES
from games.flaming_pyramids.rules import pyramid as P

from .helpers import board_of, check_tiles, position


def place(state, tile, r, x, seat=None):
    seat = state["active"] if seat is None else seat
    return RULES.apply(state, seat, {"type": "place", "tile": tile, "r": r, "x": x})


def fall(state, direction):
    seat = state["pending"]["decider"]
    return RULES.apply(state, seat, {"type": "fall", "direction": direction})


def added_to_pile(before, after, seat):
    """Tiles the cascade sent under `seat`'s pile, in order, from the log."""
    out = []
    for e in after["log"][len(before["log"]):]:
        if e["kind"] in ("collapse", "explosion", "fire", "curse", "roll") and e["to"] == seat:
            out.extend(s["tile"] for s in e["sent"])
    return out


def spots_of(state):
    return [(m["r"], m["x"]) for m in RULES.legal_moves(state, state["active"])
            if m["type"] == "place" and m["tile"] == state["hands"][state["active"]][0]]


def test_1_legal_exactly_at_the_limit():
    s = position({(0, 0): "wood-blue-20", (0, 2): "wood-red-40"}, hand=["stone-blue-60", "straw-red-2"])
    assert spots_of(s) == [(1, 1)]
    after = place(s, "stone-blue-60", 1, 1)
    assert board_of(after) == {(0, 0): "wood-blue-20", (0, 2): "wood-red-40", (1, 1): "stone-blue-60"}
    assert after["log"][0]["sound"] is True
    assert added_to_pile(s, after, 0) == []
    assert after["active"] == 1
    check_tiles(after)


def test_2_simple_collapse():
    s = position({(0, 0): "straw-yellow-2", (0, 2): "straw-green-4"}, hand=["stone-red-100"])
    pile_before = list(s["piles"][0])
    after = place(s, "stone-red-100", 1, 1)
    assert added_to_pile(s, after, 0) == ["straw-yellow-2", "straw-green-4"]
    assert RULES.to_move(after) == frozenset([0])
    assert after["pending"]["tile"] == "stone-red-100"
    after = fall(after, "right")
    assert board_of(after) == {(0, 2): "stone-red-100"}
    # Refill: the pile got the two tiles at the bottom; the player drew from the top.
    assert after["piles"][0][-2:] == ["straw-yellow-2", "straw-green-4"] or len(pile_before) < 4
    assert after["active"] == 1
    assert sorted((r, x) for r, x, _k in P.spots(board_of(after))) == [(0, 0), (0, 4)]
    check_tiles(after)


def test_3_chain_collapse():
    board = {(0, 0): "wood-yellow-10", (0, 2): "wood-yellow-20", (0, 4): "wood-red-30",
             (1, 1): "wood-yellow-30", (1, 3): "wood-red-40"}
    s = position(board, hand=["stone-green-120"])
    assert spots_of(s) == [(2, 2)]
    a = place(s, "stone-green-120", 2, 2)
    assert added_to_pile(s, a, 0) == ["wood-yellow-30", "wood-red-40"]
    a = fall(a, "left")
    assert added_to_pile(s, a, 0) == ["wood-yellow-30", "wood-red-40", "wood-yellow-10", "wood-yellow-20"]
    a = fall(a, "right")
    assert board_of(a) == {(0, 2): "stone-green-120", (0, 4): "wood-red-30"}
    assert a["active"] == 1
    assert [(r, x) for r, x, _k in P.spots(board_of(a))] == [(1, 3)]


@pytest.mark.parametrize("with_blowtorch", [False, True])
def test_4_coal_fire_overhang_holds(with_blowtorch):
    board = {(0, 0): "stone-blue-60", (0, 2): "straw-yellow-2", (1, 1): "wood-blue-20"}
    igniter = "blowtorch-red" if with_blowtorch else "coal-green"
    s = position(board, hand=[igniter])
    assert spots_of(s) == [(0, -2), (0, 4)]
    a = place(s, igniter, 0, 4)
    if with_blowtorch:
        assert added_to_pile(s, a, 0) == ["wood-blue-20", "straw-yellow-2"]
        assert board_of(a) == {(0, 0): "stone-blue-60"}
    else:
        assert added_to_pile(s, a, 0) == ["straw-yellow-2"]
        assert board_of(a) == {(0, 0): "stone-blue-60", (1, 1): "wood-blue-20"}
    assert igniter in a["out"]
    assert a["pending"] is None and a["active"] == 1


def test_5_coal_fire_overhang_fails():
    board = {(0, 0): "wood-blue-20", (0, 2): "straw-yellow-2", (1, 1): "wood-red-20"}
    s = position(board, hand=["coal-green"])
    a = place(s, "coal-green", 0, 4)
    assert added_to_pile(s, a, 0) == ["straw-yellow-2", "wood-blue-20"]
    assert a["pending"]["tile"] == "wood-red-20"
    a = fall(a, "left")
    assert board_of(a) == {(0, 0): "wood-red-20"}
    assert "coal-green" in a["out"]


@pytest.mark.parametrize("direction", ["left", "right"])
def test_6_illegal_coal_collapses_then_fires_where_it_lands(direction):
    board = {(0, 0): "straw-yellow-2", (0, 2): "stone-red-100", (0, 4): "wood-green-10"}
    s = position(board, hand=["coal-yellow"])
    assert spots_of(s) == [(1, 1), (1, 3)]
    a = place(s, "coal-yellow", 1, 3)
    assert a["log"][0]["sound"] is False
    assert added_to_pile(s, a, 0) == ["stone-red-100", "wood-green-10"]
    a = fall(a, direction)
    if direction == "left":
        assert added_to_pile(s, a, 0) == ["stone-red-100", "wood-green-10", "straw-yellow-2"]
        assert board_of(a) == {}
        assert "coal-yellow" in a["out"]
    else:
        assert board_of(a) == {(0, 0): "straw-yellow-2", (0, 4): "coal-yellow"}
        assert "coal-yellow" not in a["out"]


def test_7_fallen_tile_reseats_an_old_tile_which_collapses():
    board = {(0, 0): "straw-yellow-2", (0, 2): "stone-red-100", (0, 4): "wood-green-10",
             (1, 1): "wood-red-30"}
    s = position(board, hand=["coal-yellow"])
    assert spots_of(s) == [(1, 3)]
    a = place(s, "coal-yellow", 1, 3)
    assert added_to_pile(s, a, 0) == ["stone-red-100", "wood-green-10"]
    a = fall(a, "left")
    # red-30 now seated on yellow-2 and the Coal: no match, collapses before any fire.
    assert added_to_pile(s, a, 0) == ["stone-red-100", "wood-green-10", "straw-yellow-2", "coal-yellow"]
    assert a["pending"]["tile"] == "wood-red-30"
    a = fall(a, "left")
    assert board_of(a) == {(0, 0): "wood-red-30"}
    assert not any(e["kind"] == "fire" for e in a["log"])


def test_8_blowtorch_fire_spreads():
    board = {(0, 0): "straw-yellow-2", (0, 2): "stone-red-100", (0, 4): "wood-green-10",
             (1, 1): "wood-red-30"}
    s = position(board, hand=["blowtorch-red"])
    a = place(s, "blowtorch-red", 1, 3)
    assert a["log"][0]["sound"] is True
    assert added_to_pile(s, a, 0) == ["wood-red-30", "straw-yellow-2", "wood-green-10"]
    assert board_of(a) == {(0, 2): "stone-red-100"}
    assert "blowtorch-red" in a["out"]


def test_9_explosion():
    s = position({(0, 0): "stone-blue-100", (0, 2): "coal-green"}, hand=["blowtorch-blue"])
    a = place(s, "blowtorch-blue", 1, 1)
    assert added_to_pile(s, a, 0) == ["stone-blue-100"]
    assert board_of(a) == {}
    assert {"blowtorch-blue", "coal-green"} <= set(a["out"])
    assert P.spots(board_of(a)) == [(0, 0, "start")]


@pytest.mark.parametrize("curse", [True, False])
def test_10_curse(curse):
    s = position({(0, 0): "wood-yellow-20", (0, 2): "wood-red-20"}, hand=["wood-blue-20"],
                 players=3, active=1, options={"curse": curse})
    a = place(s, "wood-blue-20", 1, 1)
    if curse:
        assert added_to_pile(s, a, 0) == ["wood-blue-20", "wood-yellow-20", "wood-red-20"]
        assert s["piles"][0] + ["wood-blue-20", "wood-yellow-20", "wood-red-20"] == a["piles"][0]
        assert board_of(a) == {}
    else:
        assert len(board_of(a)) == 3
    assert added_to_pile(s, a, 1) == []


def test_11_curse_then_previous_player_decides_the_fall():
    board = {(0, 0): "stone-green-60", (0, 2): "wood-yellow-20", (0, 4): "wood-red-20",
             (1, 1): "wood-yellow-40"}
    s = position(board, hand=["wood-blue-20"], players=3, active=1, options={"curse": True})
    a = place(s, "wood-blue-20", 1, 3)
    assert added_to_pile(s, a, 0) == ["wood-blue-20", "wood-yellow-20", "wood-red-20", "stone-green-60"]
    assert added_to_pile(s, a, 1) == []
    # The previous player (seat 0) owes the fall decision, outside their turn.
    assert RULES.to_move(a) == frozenset([0])
    assert RULES.legal_moves(a, 1) == []
    view = RULES.view(a, 0)
    assert view["pending"]["decider"] == 0 and view["pending"]["curse"] is True
    assert view["pending"]["left"] == {"r": 0, "x": 0} and view["pending"]["right"] == {"r": 0, "x": 2}
    with pytest.raises(IllegalMove):
        RULES.apply(a, 1, {"type": "fall", "direction": "right"})
    a = fall(a, "right")
    assert board_of(a) == {(0, 2): "wood-yellow-40"}
    assert a["active"] == 2
    assert a["piles"][0] == s["piles"][0] + ["wood-blue-20", "wood-yellow-20", "wood-red-20", "stone-green-60"]
    assert a["pile_known"][0] == 4


def test_12_gap_spots():
    board = {(0, 0): "wood-blue-20", (0, 4): "wood-red-40", (0, 6): "wood-green-40"}
    assert sorted(P.spots(board)) == [(0, 2, "gap"), (1, 5, "top")]


def test_12b_wide_gap_offers_every_cell():
    board = {(0, 0): "wood-blue-20", (0, 6): "wood-red-40"}
    assert sorted(P.spots(board)) == [(0, 2, "gap"), (0, 4, "gap")]


def test_13_setup_counts_and_leftovers():
    for players, each, left in [(2, 22, 1), (3, 15, 0), (4, 11, 1), (5, 9, 0), (6, 7, 3)]:
        for seed in range(30):
            s = RULES.new_game(players=players, seed=seed)
            check_tiles(s)
            assert all(len(h) == 5 for h in s["hands"])
            assert all(len(p) == each - 5 for p in s["piles"])
            leftovers = [t for _r, _x, t in s["board"]] + s["out"]
            assert len(leftovers) == left
            assert all(t.startswith(("coal", "blowtorch")) for t in s["out"])
            assert [(r, x) for r, x, _t in s["board"]] == [(0, 2 * i) for i in range(len(s["board"]))]


def test_13_setup_six_players_with_millstone_leftovers():
    # Find a seed whose leftovers include an incendiary, then check it was removed.
    found = False
    for seed in range(400):
        s = RULES.new_game(players=6, seed=seed)
        if s["out"] and len(s["board"]) == 2:
            found = True
            assert [(r, x) for r, x, _t in s["board"]] == [(0, 0), (0, 2)]
            assert [(r, x) for r, x, _k in P.spots(board_of(s))] == [(1, 1)]
            break
    assert found


def test_13_single_leftover_gives_two_sides():
    assert P.spots({(0, 0): "millstone"}) == [(0, -2, "extend"), (0, 2, "extend")]


def test_regulations():
    # number match alone, colour match alone, weight limits, overhang rules, the Millstone
    b = {(0, 0): "wood-blue-20", (0, 2): "wood-red-40"}
    assert P.is_sound(b, (1, 1), "wood-green-20")         # number
    assert P.is_sound(b, (1, 1), "stone-red-60")          # colour, 60 <= 60
    assert not P.is_sound(b, (1, 1), "stone-red-100")     # overweight
    assert not P.is_sound(b, (1, 1), "wood-green-30")     # no match
    assert P.is_sound(b, (1, 1), "millstone") is False    # 200 > 60
    heavy = {(0, 0): "stone-blue-100", (0, 2): "stone-red-100"}
    assert P.is_sound(heavy, (1, 1), "millstone")
    assert P.is_sound({(0, 0): "stone-blue-60", (0, 2): "millstone"}, (1, 1), "straw-green-2")
    # overhangs
    assert P.is_sound({(0, 0): "millstone"}, (1, 1), "stone-green-120")
    assert not P.is_sound({(0, 0): "wood-blue-20"}, (1, 1), "wood-red-20")   # number does not count
    assert P.is_sound({(0, 0): "stone-blue-60"}, (1, 1), "wood-blue-20")
    assert not P.is_sound({(0, 0): "wood-blue-20"}, (1, 1), "wood-blue-30")
    assert not P.is_sound({(0, 0): "stone-blue-120"}, (1, 1), "millstone")
    # coals match each other by number, not the Millstone
    assert P.is_sound({(0, 0): "coal-yellow", (0, 2): "stone-red-100"}, (1, 1), "coal-green")


def test_fire_does_not_jump_from_straw_into_wood_for_a_coal():
    b = {(0, 0): "straw-red-2", (0, 2): "wood-red-10", (0, 4): "straw-blue-4", (0, 6): "coal-green"}
    assert P.find_event(b) == ("fire", [(0, 6)], [(0, 4)])
    b2 = {**b, (0, 6): "blowtorch-red"}
    assert P.find_event(b2) == ("fire", [(0, 6)], [(0, 0), (0, 2), (0, 4)])


def test_incendiary_next_to_stone_only_is_harmless():
    b = {(0, 0): "stone-red-100", (0, 2): "blowtorch-red", (0, 4): "millstone"}
    assert P.find_event(b) is None
    assert P.find_event(b, curse=True) is None


def test_explosion_blasts_stone_and_millstone_too():
    b = {(0, 0): "millstone", (0, 2): "coal-green", (0, 4): "coal-yellow", (0, 6): "stone-red-60",
         (0, 8): "straw-blue-2"}
    kind, group, blasted = P.find_event(b)
    assert kind == "explosion" and group == [(0, 2), (0, 4)] and blasted == [(0, 0), (0, 6)]


def test_cannot_pass_and_junk_is_refused():
    s = position({(0, 0): "straw-yellow-2", (0, 2): "straw-green-4"}, hand=["stone-red-100"])
    assert RULES.legal_moves(s, 0) == [{"type": "place", "tile": "stone-red-100", "r": 1, "x": 1}]
    for bad in [{"type": "pass"}, {"type": "place", "tile": "stone-red-100", "r": 0, "x": 4},
                {"type": "place", "tile": "millstone", "r": 1, "x": 1},
                {"type": "fall", "direction": "left"}]:
        with pytest.raises(IllegalMove):
            RULES.apply(s, 0, bad)
    with pytest.raises(IllegalMove):
        place(s, "stone-red-100", 1, 1, seat=1)


def test_win_at_end_of_own_turn_only_with_no_tiles():
    s = position({(0, 0): "wood-blue-20", (0, 2): "wood-red-40"}, hand=["stone-blue-60"],
                 piles=[[], []])
    a = place(s, "stone-blue-60", 1, 1)
    assert a["winner"] == 0
    assert RULES.outcome(a)["winners"] == [0]
    assert RULES.to_move(a) == frozenset()
    assert a["log"][-1] == {"kind": "win", "seat": 0, "turn": s["turn"]}


def test_emptied_hand_is_no_win_if_mayhem_gave_tiles_back():
    s = position({(0, 0): "straw-yellow-2", (0, 2): "straw-green-4"}, hand=["stone-red-100"],
                 piles=[[], []])
    a = fall(place(s, "stone-red-100", 1, 1), "left")
    assert a["winner"] is None
    assert sorted(a["hands"][0]) == ["straw-green-4", "straw-yellow-2"]
    assert a["hand_known"][0] == ["straw-green-4", "straw-yellow-2"]
    assert a["active"] == 1
    log = RULES.view(a, 1)["log"]
    draw = [e for e in log if e["kind"] == "draw"][-1]
    assert "tiles" not in draw and draw["known"] == ["straw-yellow-2", "straw-green-4"]


def test_refill_draws_from_the_top_and_keeps_known_bottom():
    s = position({(0, 0): "straw-yellow-2", (0, 2): "straw-green-4"}, hand=["stone-red-100"],
                 piles=[["wood-blue-10", "wood-blue-30"], []])
    a = fall(place(s, "stone-red-100", 1, 1), "left")
    assert sorted(a["hands"][0]) == sorted(["wood-blue-10", "wood-blue-30", "straw-yellow-2", "straw-green-4"])
    assert a["piles"][0] == []
    v = RULES.view(a, 1)
    assert [t["id"] for t in v["seats"][0]["hand_known"]] == ["straw-green-4", "straw-yellow-2"]


def test_fire_die_rolls_once_and_only_for_the_placed_tile():
    board = {(0, 0): "stone-blue-60", (0, 2): "straw-yellow-2", (1, 1): "wood-blue-20"}
    results = set()
    for seed in range(40):
        s = position(board, hand=["coal-green"], options={"fire_die": True})
        s["rng"] = seed * 7919 + 1
        a = place(s, "coal-green", 0, 4)
        rolls = [e for e in a["log"] if e["kind"] == "roll"]
        assert len(rolls) == 1
        roll = rolls[0]
        results.add(roll["result"])
        on = board_of(a)
        if roll["result"] == "fire_stays":
            assert on == {(0, 0): "stone-blue-60", (1, 1): "wood-blue-20", (0, 4): "coal-green"}
        elif roll["result"] == "fire_removed":
            assert on == {(0, 0): "stone-blue-60", (1, 1): "wood-blue-20"}
            assert "coal-green" in a["out"]
        elif roll["result"] == "explosion":
            assert [x["tile"] for x in roll["sent"]] == ["straw-yellow-2"]
            assert "coal-green" in a["out"]
        else:
            assert on == {**board, (0, 4): "coal-green"}
        # The smoking or staying Coal never re-ignites: the next player faces a stable pyramid.
        assert a["pending"] is None and a["active"] == 1
    assert results == {"fire_stays", "fire_removed", "explosion", "smoke"}


def test_fire_die_collapse_never_causes_fire():
    board = {(0, 0): "straw-yellow-2", (0, 2): "stone-red-100", (0, 4): "wood-green-10"}
    s = position(board, hand=["coal-yellow"], options={"fire_die": True})
    a = fall(place(s, "coal-yellow", 1, 3), "left")
    assert board_of(a) == {(0, 0): "straw-yellow-2", (0, 2): "coal-yellow"}
    assert not any(e["kind"] in ("roll", "fire") for e in a["log"])


def test_fire_die_placed_fuel_next_to_an_incendiary():
    board = {(0, 0): "blowtorch-red", (0, 2): "stone-red-100"}
    s = position(board, hand=["straw-red-6"], options={"fire_die": True})
    a = place(s, "straw-red-6", 1, 1)
    roll = [e for e in a["log"] if e["kind"] == "roll"][0]
    assert roll["incendiaries"] == [{"tile": "blowtorch-red", "r": 0, "x": 0}]


def test_preview_reports_collapse_and_choices_without_hidden_info():
    s = position({(0, 0): "straw-yellow-2", (0, 2): "straw-green-4"}, hand=["stone-red-100", "straw-green-6"])
    p = RULES.preview(s, 0, {"type": "place", "tile": "stone-red-100", "r": 1, "x": 1})
    assert p["sound"] is False and p["back"] == {"min": 2, "max": 2}
    assert p["depends_on_choice"] and p["choosers"] == [0]
    assert p["message"].startswith("This placement will collapse")
    assert p["message"].format(**p["params"]) == "This placement will collapse: 2 tiles come back to you."
    q = RULES.preview(s, 0, {"type": "place", "tile": "straw-green-6", "r": 1, "x": 1})
    assert q["quiet"] and q["sound"]
    with pytest.raises(IllegalMove):
        RULES.preview(s, 0, {"type": "place", "tile": "millstone", "r": 1, "x": 1})


def test_preview_of_the_fire_die_gives_chances_not_the_roll():
    board = {(0, 0): "stone-blue-60", (0, 2): "straw-yellow-2", (1, 1): "wood-blue-20"}
    s = position(board, hand=["coal-green"], options={"fire_die": True})
    p = RULES.preview(s, 0, {"type": "place", "tile": "coal-green", "r": 0, "x": 4})
    assert p["depends_on_chance"]
    assert sorted(tuple(o["chance"]) for o in p["outcomes"]) == [(1, 6), (1, 6), (1, 6), (3, 6)]
    assert p["back"] == {"min": 0, "max": 1}
    # The preview is the same whatever the generator holds.
    s2 = dict(s, rng=12345)
    assert RULES.preview(s2, 0, {"type": "place", "tile": "coal-green", "r": 0, "x": 4}) == p


def test_preview_matches_the_real_cascade():
    board = {(0, 0): "wood-yellow-10", (0, 2): "wood-yellow-20", (0, 4): "wood-red-30",
             (1, 1): "wood-yellow-30", (1, 3): "wood-red-40"}
    s = position(board, hand=["stone-green-120"])
    p = RULES.preview(s, 0, {"type": "place", "tile": "stone-green-120", "r": 2, "x": 2})
    outcome = [o for o in p["outcomes"] if [c["direction"] for c in o["choices"]] == ["left", "right"]][0]
    assert outcome["to_piles"] == {"0": 4}
    a = fall(fall(place(s, "stone-green-120", 2, 2), "left"), "right")
    assert len(added_to_pile(s, a, 0)) == 4


def test_view_shows_pending_fall_and_known_pile_bottom():
    s = position({(0, 0): "straw-yellow-2", (0, 2): "straw-green-4"}, hand=["stone-red-100"])
    a = place(s, "stone-red-100", 1, 1)
    v = RULES.view(a, 1)
    assert v["phase"] == "fall" and v["to_move"] == [0]
    assert v["pending"]["left"] == {"r": 0, "x": 0} and v["pending"]["right"] == {"r": 0, "x": 2}
    assert [t["id"] for t in v["seats"][0]["pile_known"]] == ["straw-yellow-2", "straw-green-4"]
    assert v["spots"] == []
    assert v["hand"] is not None and v["seat"] == 1
    assert [t["state"] for t in v["pyramid"]] == ["free"]
