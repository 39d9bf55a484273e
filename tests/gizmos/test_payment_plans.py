"""Converter chains for generic costs (§6.3, §7.2), whole payments, calling a build off and
firing automatic gizmos together or by themselves: each a move the engine lists and checks."""

from __future__ import annotations

import copy

import pytest

from games.engine import IllegalMove
from games.gizmos import bot
from games.engine import Rng

from .helpers import RULES, give, invariant, play, prepared, set_energy, set_row, to_display


def turn_of(s: dict, seat: int = 0) -> dict:
    s = copy.deepcopy(s)
    s.update(current=seat, phase="main", pending=None, research=None, used=[], armed=[])
    return s


def kinds(s: dict, kind: str) -> list[dict]:
    return [m for m in RULES.legal_moves(s, s["current"]) if m["type"] == kind]


# -- the converter chain for a generic cost (the deviation of issue 12) ----------------------

def generic_position() -> dict:
    """6 spheres (1 yellow), a yellow->any converter and a red doubler, a generic cost 7."""
    s = turn_of(prepared(2, seed=21))
    give(s, 0, "L3-01", "L1-26", "L2-30")  # storage 9, yellow -> any, red doubler
    set_energy(s, 0, yellow=1, blue=3, black=2)
    to_display(s, "L3-13")  # generic, cost 7
    return s


def test_generic_cost_takes_a_converter_chain_into_a_doubler():
    """§7.2: yellow -> red, then the red doubler: 1 yellow pays 2 of the 7."""
    s = generic_position()
    assert {"type": "build", "card": "L3-13"} in RULES.legal_moves(s, 0)
    s = play(s, {"type": "build", "card": "L3-13"}, {"type": "spend", "color": "yellow"})
    # A plain colour change pays nothing more (§6.3): only the one feeding the doubler is offered.
    converts = kinds(s, "convert")
    assert converts == [{"type": "convert", "gizmo": "L1-26", "slot": 0, "unit": 0, "to": "red"}]
    s = play(s, converts[0], {"type": "convert", "gizmo": "L2-30", "slot": 0, "unit": 0})
    for color in ("blue", "blue", "blue", "black", "black"):
        s = play(s, {"type": "spend", "color": color})
    p = s["seats"][0]
    assert "L3-13" in p["gizmos"] and sum(p["energy"].values()) == 0
    build = [e for e in s["log"] if e["kind"] == "build"][-1]
    assert build["paid"] == {"yellow": 1, "blue": 3, "black": 2}
    assert build["converters"] == ["L1-26", "L2-30"]
    invariant(s)


def test_generic_cost_without_the_chain_is_still_refused():
    """Without the converter into red, 6 spheres and a red doubler do not pay 7."""
    s = generic_position()
    s["seats"][0]["gizmos"].remove("L1-26")
    s["box"].append("L1-26")
    assert {"type": "build", "card": "L3-13"} not in RULES.legal_moves(s, 0)


def test_the_page_plan_and_the_pay_move_use_the_chain():
    s = play(generic_position(), {"type": "build", "card": "L3-13"})
    view = RULES.view(s, 0)
    plans = view["turn"]["payment"]["plans"]
    assert [p["spend"] for p in plans] == [{"yellow": 1, "blue": 3, "black": 2}]
    assert plans[0]["converters"] == ["L1-26", "L2-30"] and plans[0]["left"] == {}
    s = play(s, {"type": "pay", "spend": {"yellow": 1, "blue": 3, "black": 2}})
    assert "L3-13" in s["seats"][0]["gizmos"]
    invariant(s)


# -- whole payments ----------------------------------------------------------------------------

def test_one_plan_per_set_of_spheres_kept_cheapest_first():
    s = turn_of(prepared(2, seed=22))
    give(s, 0, "L1-26")  # yellow -> any
    set_energy(s, 0, blue=2, yellow=1, red=1)
    to_display(s, "L2-09")  # blue, cost 2
    s = play(s, {"type": "build", "card": "L2-09"})
    pays = kinds(s, "pay")
    # Two blue, or one blue and the yellow through the converter (keeping a blue).
    assert pays == [{"type": "pay", "spend": {"blue": 2}}, {"type": "pay", "spend": {"yellow": 1, "blue": 1}}]
    t = play(s, pays[1])
    p = t["seats"][0]
    assert "L2-09" in p["gizmos"] and p["energy"] == {"red": 1, "yellow": 0, "blue": 1, "black": 0}
    assert [e for e in t["log"] if e["kind"] == "build"][-1]["converters"] == ["L1-26"]
    t = play(s, pays[0])
    assert t["seats"][0]["energy"] == {"red": 1, "yellow": 1, "blue": 0, "black": 0}
    assert [e for e in t["log"] if e["kind"] == "build"][-1]["converters"] == []


def test_plan_after_a_first_sphere_and_bad_plans_refused():
    s = turn_of(prepared(2, seed=23))
    give(s, 0, "L1-26")
    set_energy(s, 0, blue=2, yellow=1)
    to_display(s, "L2-09")
    s = play(s, {"type": "build", "card": "L2-09"}, {"type": "spend", "color": "blue"})
    assert kinds(s, "pay") == [{"type": "pay", "spend": {"blue": 1}}, {"type": "pay", "spend": {"yellow": 1}}]
    assert kinds(s, "cancel") == []  # something is paid: no calling off
    for bad in ({"blue": 2}, {"red": 1}, {"blue": -1}, {}, {"blue": 1, "yellow": 1}, "blue", None):
        with pytest.raises(IllegalMove):
            RULES.apply(s, 0, {"type": "pay", "spend": bad})
    s = play(s, {"type": "pay", "spend": {"yellow": 1}})
    assert "L2-09" in s["seats"][0]["gizmos"] and s["seats"][0]["energy"]["blue"] == 1


def test_build_called_off_while_nothing_is_paid():
    s = turn_of(prepared(2, seed=24))
    set_energy(s, 0, blue=2)
    to_display(s, "L2-09")
    before = copy.deepcopy(s)
    s = play(s, {"type": "build", "card": "L2-09"})
    assert {"type": "cancel"} in RULES.legal_moves(s, 0)
    s = play(s, {"type": "cancel"})
    assert s["phase"] == "main" and s["current"] == 0 and s["pending"] is None
    assert RULES.legal_moves(s, 0) == RULES.legal_moves(before, 0)
    assert s["seats"] == before["seats"] and s["display"] == before["display"]


def test_no_calling_off_a_build_out_of_a_research():
    """The drawn card was shown to be paid for; it must not go back to a secret hand."""
    s = turn_of(prepared(2, seed=25))
    set_energy(s, 0, red=3, yellow=3, blue=3, black=3)
    s["seats"][0]["gizmos"].append("L3-01")
    s = play(s, {"type": "research", "level": 1})
    build = kinds(s, "build")[0]
    s = play(s, build)
    if s["phase"] == "pay":
        assert kinds(s, "cancel") == []


# -- automatic gizmos --------------------------------------------------------------------------

def armed_position(*extra: str) -> dict:
    """Seat 0 owns its starter (File -> draw 1), "File -> +1 VP" and `extra`; a card to file."""
    s = turn_of(prepared(2, seed=26))
    assert s["seats"][0]["gizmos"] == ["L0-01"]
    give(s, 0, "L3-19", *extra)
    set_energy(s, 0)
    return s


def again(s: dict) -> dict:
    """Seat 0's next turn, with its Archive emptied (out of the game) so it may file again."""
    s = turn_of(s, 0)
    s["removed"] += s["seats"][0]["archive"]
    s["seats"][0]["archive"] = []
    return s


def file_one(s: dict) -> dict:
    card = next(c for c in s["display"]["1"] if c)
    return play(s, {"type": "file", "card": card})


def test_use_all_fires_the_automatic_gizmos_and_leaves_the_choices():
    s = file_one(armed_position("L1-01"))  # L1-01: File -> Pick 1, a choice
    assert sorted(s["armed"]) == ["L0-01", "L1-01", "L3-19"]
    assert {"type": "use_all"} in RULES.legal_moves(s, 0)
    t = play(s, {"type": "use_all"})
    p = t["seats"][0]
    assert t["phase"] == "triggers" and t["armed"] == ["L1-01"]
    assert p["tokens"] == 1 and sum(p["energy"].values()) == 1
    assert {"type": "use_all"} not in RULES.legal_moves(t, 0)
    invariant(t)


def test_use_all_ends_the_turn_when_nothing_else_is_armed():
    s = file_one(armed_position())
    t = play(s, {"type": "use_all"})
    assert t["current"] == 1 and t["seats"][0]["tokens"] == 1


def test_automatic_setting_fires_by_itself_on_later_turns():
    s = file_one(armed_position("L1-01"))
    assert {"type": "auto", "on": True} in RULES.legal_moves(s, 0)
    s = play(s, {"type": "auto", "on": True})  # also fires them now
    assert s["armed"] == ["L1-01"] and s["seats"][0]["tokens"] == 1
    assert RULES.view(s, 1)["seats"][0]["auto"] is True
    assert {"type": "auto", "on": False} in RULES.legal_moves(s, 0)
    s = play(s, {"type": "end_turn"})
    # Next turn: the VP token comes at once; the draw waits while the Pick is a choice.
    s = file_one(again(s))
    assert s["seats"][0]["tokens"] == 2 and sorted(s["armed"]) == ["L0-01", "L1-01"]
    row = s["row"][0]
    s = play(s, {"type": "use", "gizmo": "L1-01"}, {"type": "pick", "color": row})
    # Nothing left to choose: the draw fired by itself and the turn ended.
    assert s["current"] == 1
    uses = [e["gizmo"] for e in s["log"] if e["kind"] == "use"]
    assert uses[-2:] == ["L1-01", "L0-01"]
    invariant(s)


def test_automatic_setting_can_be_turned_off():
    s = file_one(armed_position("L1-01"))
    s = play(s, {"type": "auto", "on": True}, {"type": "auto", "on": False})
    assert not RULES.auto_fires(s, 0) and s["phase"] == "triggers"
    s = file_one(again(play(s, {"type": "end_turn"})))
    assert s["seats"][0]["tokens"] == 1 and "L3-19" in s["armed"]


def test_bots_use_the_same_moves():
    s = file_one(armed_position("L1-01"))
    legal = RULES.legal_moves(s, 0)
    assert bot.choose(RULES.view(s, 0), legal, level="fast", rng=Rng(1)) == {"type": "use_all"}
    s = turn_of(prepared(2, seed=22))
    give(s, 0, "L1-26")
    set_energy(s, 0, blue=2, yellow=1, red=1)
    to_display(s, "L2-09")
    s = play(s, {"type": "build", "card": "L2-09"})
    move = bot.choose(RULES.view(s, 0), RULES.legal_moves(s, 0), level="fast", rng=Rng(1))
    assert move["type"] == "pay"
