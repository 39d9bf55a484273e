"""Scenario tests from RULES.md: converters (§7.2), the chain example (§8), end and tie-breaks."""

from __future__ import annotations

import copy

import pytest

from games.engine import IllegalMove

from .helpers import RULES, give, invariant, place, play, prepared, set_energy, set_row, to_display


def turn_of(s: dict, seat: int) -> dict:
    s = copy.deepcopy(s)
    s.update(current=seat, phase="main", pending=None, research=None, used=[], armed=[])
    return s


def steps(s: dict) -> list[dict]:
    """The sphere-by-sphere payment steps among the legal moves."""
    return [m for m in RULES.legal_moves(s, s["current"]) if m["type"] in ("spend", "convert")]


# -- §7.2 converters -------------------------------------------------------------------------

def test_converter_chain_example_yellow_to_two_blue():
    """§7.2: yellow->any, a red doubler and red '1 or 2 -> any' turn 1 yellow into 2 blue."""
    s = turn_of(prepared(2, seed=11), 0)
    give(s, 0, "L1-26", "L2-30", "L2-22")  # yellow->any, red doubler, red 1-or-2->any
    set_energy(s, 0, yellow=1)
    to_display(s, "L2-09")  # blue, cost 2
    assert {"type": "build", "card": "L2-09"} in RULES.legal_moves(s, 0)
    s = play(s, {"type": "build", "card": "L2-09"})
    assert s["phase"] == "pay"
    # Only payments that can still complete are offered: spending yellow is one.
    assert steps(s) == [{"type": "spend", "color": "yellow"}]
    s = play(s, {"type": "spend", "color": "yellow"},
             {"type": "convert", "gizmo": "L1-26", "slot": 0, "unit": 0, "to": "red"},
             {"type": "convert", "gizmo": "L2-30", "slot": 0, "unit": 0},
             {"type": "convert", "gizmo": "L2-22", "slot": 0, "unit": 0, "to": "blue"})
    assert s["phase"] == "pay"
    s = play(s, {"type": "convert", "gizmo": "L2-22", "slot": 1, "unit": 1, "to": "blue"})
    p = s["seats"][0]
    assert "L2-09" in p["gizmos"] and sum(p["energy"].values()) == 0
    build = [e for e in s["log"] if e["kind"] == "build"][-1]
    assert build["paid"] == {"yellow": 1} and sorted(build["converters"]) == ["L1-26", "L2-22", "L2-30"]
    invariant(s)


def test_doubler_limit_two_black_reach_three():
    """R11: 2 black and one black doubler make at most 3 black."""
    s = turn_of(prepared(2, seed=12), 0)
    give(s, 0, "L2-25")  # black doubler
    set_energy(s, 0, black=2)
    to_display(s, "L2-36")  # black, cost 3
    to_display(s, "L3-02")  # black, cost 4
    assert RULES.affordable(s, 0, "L2-36", "display")
    assert not RULES.affordable(s, 0, "L3-02", "display")


def test_one_to_any_converts_exactly_one_sphere():
    """R11: one 'X -> any' symbol changes one sphere only."""
    s = turn_of(prepared(2, seed=13), 0)
    give(s, 0, "L1-21")  # blue -> any
    set_energy(s, 0, blue=2)
    to_display(s, "L2-05")  # red, cost 2
    assert not RULES.affordable(s, 0, "L2-05", "display")
    set_energy(s, 0, blue=1, red=1)
    assert RULES.affordable(s, 0, "L2-05", "display")


def test_no_overpayment_and_unneeded_spheres_refused():
    """§15 Q6: a sphere that cannot pay is never offered; a spent sphere must be converted."""
    s = turn_of(prepared(2, seed=14), 0)
    give(s, 0, "L1-26")  # yellow -> any
    set_energy(s, 0, blue=1, yellow=1, red=1)
    to_display(s, "L2-09")  # blue, cost 2
    s = play(s, {"type": "build", "card": "L2-09"})
    spends = {m["color"] for m in RULES.legal_moves(s, 0) if m["type"] == "spend"}
    assert spends == {"blue", "yellow"}
    s = play(s, {"type": "spend", "color": "yellow"})
    assert steps(s) == [
        {"type": "convert", "gizmo": "L1-26", "slot": 0, "unit": 0, "to": "blue"}]
    s = play(s, {"type": "convert", "gizmo": "L1-26", "slot": 0, "unit": 0, "to": "blue"},
             {"type": "spend", "color": "blue"})
    assert "L2-09" in s["seats"][0]["gizmos"] and s["seats"][0]["energy"]["red"] == 1


def test_generic_gizmo_paid_with_any_mix_and_doubler():
    """§6.3: a generic cost 7 takes any colours; a doubler makes one sphere pay 2."""
    s = turn_of(prepared(2, seed=15), 0)
    give(s, 0, "L3-01", "L2-25")  # storage 9, black doubler
    set_energy(s, 0, red=2, yellow=2, blue=1, black=1)
    to_display(s, "L3-13")
    assert RULES.affordable(s, 0, "L3-13", "display")
    s = play(s, {"type": "build", "card": "L3-13"})
    moves = RULES.legal_moves(s, 0)
    assert {"type": "spend", "color": "black"} in moves
    s = play(s, {"type": "spend", "color": "black"}, {"type": "convert", "gizmo": "L2-25", "slot": 0, "unit": 0})
    for color in ("red", "red", "yellow", "yellow", "blue"):
        s = play(s, {"type": "spend", "color": color})
    assert "L3-13" in s["seats"][0]["gizmos"] and sum(s["seats"][0]["energy"].values()) == 0


def test_converter_once_per_turn_across_builds():
    """§7.2: a converter used for one build is not available for a second build that turn."""
    s = turn_of(prepared(2, seed=16), 0)
    give(s, 0, "L1-25", "L3-31")  # red->any; Build blue/black -> free Level I build
    set_energy(s, 0, red=2)
    to_display(s, "L1-35")  # blue cost 1
    s = play(s, {"type": "build", "card": "L1-35"}, {"type": "spend", "color": "red"},
             {"type": "convert", "gizmo": "L1-25", "slot": 0, "unit": 0, "to": "blue"})
    assert "L1-25" in s["used"] and "L3-31" in s["armed"]
    slots = RULES.free_slots(s, 0)
    assert all(g != "L1-25" for g, _i, _x in slots)


# -- §8 chain example ------------------------------------------------------------------------

def test_chain_reaction_example():
    """§8: yellow doubler pays L2-18 from the Archive; 'build blue/yellow -> pick' fires; the
    pick of a yellow fires 'pick yellow -> draw'; the new gizmo does not fire."""
    s = turn_of(prepared(2, seed=21), 0)
    give(s, 0, "L2-29", "L2-05", "L1-06")  # yellow doubler; build blue/yellow->pick; pick yellow->draw
    place(s, "L2-18")
    s["seats"][0]["archive"] = ["L2-18"]
    set_energy(s, 0, yellow=2, red=1)
    s = play(s, {"type": "build", "card": "L2-18"})
    moves = RULES.legal_moves(s, 0)
    assert {"type": "spend", "color": "red"} not in moves  # red cannot help
    s = play(s, {"type": "spend", "color": "yellow"},
             {"type": "convert", "gizmo": "L2-29", "slot": 0, "unit": 0},
             {"type": "spend", "color": "yellow"})
    p = s["seats"][0]
    assert "L2-18" in p["gizmos"] and p["energy"] == {"red": 1, "yellow": 0, "blue": 0, "black": 0}
    assert s["armed"] == ["L2-05"] and s["phase"] == "triggers"
    assert "L2-18" not in s["armed"]  # built by this very action
    set_row(s, "yellow", "red", "red", "blue", "blue", "black")
    s = play(s, {"type": "use", "gizmo": "L2-05"}, {"type": "pick", "color": "yellow"})
    assert s["armed"] == ["L1-06"]
    s = play(s, {"type": "use", "gizmo": "L1-06"})
    p = s["seats"][0]
    assert sum(p["energy"].values()) == 3  # red + picked yellow + random draw
    assert s["current"] == 1  # nothing left armed: the turn ended
    draw = [e for e in s["log"] if e["kind"] == "use"][-1]
    assert draw["effect"] == "draw" and len(draw["colors"]) == 1
    invariant(s)


def test_random_draw_is_not_a_pick():
    """R1: a random draw never fires Pick triggers."""
    s = turn_of(prepared(2, seed=22), 0)
    give(s, 0, "L1-05", "L1-06", "L1-07", "L1-08", "L1-09", "L1-10", "L1-11", "L1-12")
    s = play(s, {"type": "file", "card": s["display"]["1"][0]})
    s = play(s, {"type": "use", "gizmo": s["seats"][0]["gizmos"][0]})  # starter: draw 1
    assert s["current"] == 1 and not any(e["kind"] == "use" and e["gizmo"].startswith("L1") for e in s["log"])


def test_full_storage_blocks_pick_and_draw():
    s = turn_of(prepared(2, seed=23), 0)
    set_energy(s, 0, red=5)
    kinds = {m["type"] for m in RULES.legal_moves(s, 0)}
    assert "pick" not in kinds
    s = play(s, {"type": "file", "card": s["display"]["1"][0]})
    assert s["current"] == 1  # the starter's draw is void with a full storage: not offered


def test_research_secret_build_and_return_order():
    s = turn_of(prepared(3, seed=24), 0)
    deck = s["decks"]["1"]
    top = deck[:3]
    s = play(s, {"type": "research", "level": 1})
    assert s["research"]["cards"] == top
    assert RULES.view(s, 1)["research"] == {"seat": 0, "level": 1, "count": 3}
    assert RULES.view(s, 0)["research"]["cards"] == top
    s = play(s, {"type": "file", "card": top[0]})
    assert s["phase"] == "return"
    s = play(s, {"type": "bottom", "card": top[2]})
    assert s["decks"]["1"][-2:] == [top[2], top[1]]
    assert s["seats"][0]["archive"] == [top[0]]


def test_pass_only_when_nothing_is_possible():
    s = turn_of(prepared(2, seed=25), 0)
    give(s, 0, "L3-03", "L3-05")  # no File, no Research
    set_energy(s, 0, red=5)
    for lvl in ("1", "2", "3"):
        s["display"][lvl] = [None] * len(s["display"][lvl])
    assert RULES.legal_moves(s, 0) == [{"type": "pass"}]


def test_negator_keeps_archive_buildable():
    """§15 Q9: a no-File negator does not stop building from the Archive."""
    s = turn_of(prepared(2, seed=26), 0)
    give(s, 0, "L3-03")
    place(s, "L1-29")
    s["seats"][0]["archive"] = ["L1-29"]
    set_energy(s, 0, red=1)
    assert {"type": "build", "card": "L1-29"} in RULES.legal_moves(s, 0)


def test_junk_and_illegal_moves_refused():
    s = prepared(2, seed=27)
    seat = s["current"]
    for bad in ({"type": "build", "card": "L9-99"}, {"type": "use", "gizmo": "L0-01"},
                {"type": "spend", "color": "red"}, {"type": "pick", "color": "pink"}):
        with pytest.raises(IllegalMove):
            RULES.apply(s, seat, bad)
    with pytest.raises(IllegalMove):
        RULES.apply(s, 1 - seat, {"type": "pick", "color": s["row"][0]})


# -- §11 end of the game, §12 tie-breaks --------------------------------------------------------

def _trigger_end(s: dict, seat: int) -> dict:
    """`seat` builds its 16th gizmo now."""
    s = turn_of(s, seat)
    filler = [f"L1-{n}" for n in range(21, 35)]  # converters and upgrades: no triggers
    for cid in filler:
        place(s, cid)
        s["seats"][seat]["gizmos"].append(cid)
    assert len(s["seats"][seat]["gizmos"]) == 15
    target = "L1-36"
    to_display(s, target)
    set_energy(s, seat, black=1)
    s = play(s, {"type": "build", "card": target}, {"type": "spend", "color": "black"})
    assert target in s["seats"][seat]["gizmos"]
    return s


def RULES_CARDS():
    from games.gizmos.rules import CARDS
    return CARDS


def test_end_round_is_completed_when_first_player_triggers():
    s = prepared(3, seed=31)
    s["first"] = 0
    s = _trigger_end(s, 0)
    assert s["ending"] and not s["over"] and s["current"] == 1
    s = play(s, {"type": "research", "level": 1}, {"type": "decline"})
    while s["phase"] == "return":
        s = play(s, RULES.legal_moves(s, s["current"])[0])
    assert s["current"] == 2 and not s["over"]
    s = play(s, {"type": "research", "level": 1}, {"type": "decline"})
    while s["phase"] == "return":
        s = play(s, RULES.legal_moves(s, s["current"])[0])
    assert s["over"] and RULES.outcome(s)["reason"] == "end_condition"
    assert RULES.to_move(s) == frozenset()


def test_end_immediately_when_last_seat_triggers():
    s = prepared(3, seed=32)
    s["first"] = 1  # seat 0 is the last in turn order
    s = _trigger_end(s, 0)
    assert s["over"]


def test_fourth_level3_triggers_end():
    s = turn_of(prepared(2, seed=33), 0)
    s["first"] = 0
    give(s, 0, "L3-01", "L3-19", "L3-20")
    to_display(s, "L3-35")
    set_energy(s, 0, red=4)
    s = play(s, {"type": "build", "card": "L3-35"})
    s = play(s, *[{"type": "spend", "color": "red"}] * 4) if s["phase"] == "pay" else s
    assert s["ending"]


def _set(s, seat, *, vp, gizmos, energy):
    from games.gizmos.rules import CARDS
    p = s["seats"][seat]
    taken = set(sum((q["gizmos"] + q["archive"] for q in s["seats"]), []))
    fillers = [c for c in sorted(CARDS) if c.startswith("L1-2") and c not in taken][:gizmos]
    for c in fillers:
        place(s, c)
        p["gizmos"].append(c)
    p["tokens"] = vp - gizmos
    set_energy(s, seat, red=energy)


def _over(players=3, first=1):
    s = prepared(players, seed=41)
    s["first"] = first
    s["over"] = True
    s["reason"] = "end_condition"
    return s


def test_highest_score_wins():
    s = _over()
    _set(s, 0, vp=10, gizmos=2, energy=0)
    _set(s, 1, vp=12, gizmos=2, energy=0)
    _set(s, 2, vp=11, gizmos=2, energy=0)
    out = RULES.outcome(s)
    assert out["winners"] == [1] and out["tiebreak"] is None and out["scores"]["1"] == 12


def test_tiebreak_most_gizmos():
    s = _over()
    _set(s, 0, vp=10, gizmos=3, energy=0)
    _set(s, 1, vp=10, gizmos=2, energy=4)
    _set(s, 2, vp=10, gizmos=2, energy=0)
    out = RULES.outcome(s)
    assert out["winners"] == [0] and out["tiebreak"] == "gizmos"


def test_tiebreak_most_energy():
    s = _over()
    _set(s, 0, vp=10, gizmos=2, energy=1)
    _set(s, 1, vp=10, gizmos=2, energy=3)
    _set(s, 2, vp=10, gizmos=2, energy=2)
    out = RULES.outcome(s)
    assert out["winners"] == [1] and out["tiebreak"] == "energy"


def test_tiebreak_latest_in_turn_order():
    s = _over(first=1)  # order: 1, 2, 0 -> seat 0 is latest
    for seat in range(3):
        _set(s, seat, vp=10, gizmos=2, energy=2)
    out = RULES.outcome(s)
    assert out["winners"] == [0] and out["tiebreak"] == "turn_order"
    assert out["ranking"] == [0, 2, 1]
