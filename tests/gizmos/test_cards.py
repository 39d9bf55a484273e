"""One test per card design (107): build it, then check its effect, trigger and once-per-turn rule."""

from __future__ import annotations

import copy

import pytest

from games.engine import IllegalMove
from games.gizmos.rules import CARDS, COLORS, DESIGNS, score
from games.gizmos.rules.cards import limits

from .helpers import RULES, give, place, play, prepared, set_energy, set_row, to_display

SEAT = 0
LIMIT_BOOST = {"L3-02": "L3-01"}


def fresh_turn(s: dict) -> dict:
    """Give the turn back to SEAT, in its main phase, nothing used or armed."""
    s = copy.deepcopy(s)
    s.update(current=SEAT, phase="main", pending=None, research=None, used=[], armed=[])
    return s


def pay_plainly(s: dict) -> dict:
    """Finish a payment by spending spheres only (first colour offered)."""
    while s["phase"] == "pay":
        spends = [m for m in RULES.legal_moves(s, s["current"]) if m["type"] == "spend"]
        s = play(s, spends[0])
    return s


def built_position(cid: str) -> dict:
    """A 2-player game where SEAT has just built `cid` from the display with plain energy."""
    s = prepared(2, seed=7)
    s["first"] = SEAT
    s = fresh_turn(s)
    give(s, SEAT, LIMIT_BOOST.get(cid, "L3-02"))  # room for costs up to 9
    to_display(s, cid)
    card = CARDS[cid]
    set_energy(s, SEAT, **{"red" if card["color"] == "any" else card["color"]: card["cost"]})
    before = limits(s["seats"][SEAT]["gizmos"])
    s = play(s, {"type": "build", "card": cid})
    s = pay_plainly(s)
    assert cid in s["seats"][SEAT]["gizmos"]
    build = [e for e in s["log"] if e["kind"] == "build"][-1]
    assert build["card"] == cid and build["paid"] == (
        {"red" if card["color"] == "any" else card["color"]: card["cost"]})
    # §8 rule 4: the Build that placed a gizmo never arms it.
    assert cid not in build["armed"] and cid not in s["armed"]
    s = fresh_turn(s)
    s["_before"] = before
    return s


def l1_card(color: str) -> str:
    """A Level I upgrade of `color` (no trigger of its own)."""
    return next(c for c in sorted(CARDS) if CARDS[c]["level"] == 1 and CARDS[c]["color"] == color
                and CARDS[c]["kind"] == "upgrade_energy_research")


def provoke(s: dict, cid: str) -> dict:
    """Perform the action that meets `cid`'s trigger; return the state after it."""
    trig = CARDS[cid]["trigger"]
    if trig["action"] == "file":
        target = next(c for c in s["display"]["1"] if c)
        return play(s, {"type": "file", "card": target})
    if trig["action"] == "pick":
        set_row(s, *([trig["colors"][0]] * 6))
        set_energy(s, SEAT)
        return play(s, {"type": "pick", "color": trig["colors"][0]})
    set_energy(s, SEAT)
    if "colors" in trig:
        target = l1_card(trig["colors"][0])
        to_display(s, target)
    elif trig.get("from") == "archive":
        target = l1_card("red")
        place(s, target)
        s["seats"][SEAT]["archive"] = [target]
    else:
        target = "L2-33"
        to_display(s, target)
    set_energy(s, SEAT, **{CARDS[target]["color"]: CARDS[target]["cost"]})
    s = play(s, {"type": "build", "card": target})
    return pay_plainly(s)


def check_effect(s: dict, cid: str) -> dict:
    """Use armed `cid` and check what it does."""
    eff = CARDS[cid]["effect"]
    p0 = copy.deepcopy(s["seats"][SEAT])
    assert {"type": "use", "gizmo": cid} in RULES.legal_moves(s, SEAT)
    s = play(s, {"type": "use", "gizmo": cid})
    p = s["seats"][SEAT]
    if "draw_random" in eff:
        room = limits(p["gizmos"])["energy_limit"] - sum(p0["energy"].values())
        assert sum(p["energy"].values()) - sum(p0["energy"].values()) == min(room, eff["draw_random"])
    elif "vp_tokens" in eff:
        assert p["tokens"] == p0["tokens"] + eff["vp_tokens"]
    elif "pick" in eff:
        assert s["phase"] == "pick"
        for _ in range(eff["pick"]):
            color = next(m for m in RULES.legal_moves(s, SEAT) if m["type"] == "pick")
            s = play(s, color)
        assert sum(s["seats"][SEAT]["energy"].values()) == sum(p0["energy"].values()) + eff["pick"]
    elif eff.get("perform_action") == "file":
        assert s["phase"] == "file"
        target = next(m for m in RULES.legal_moves(s, SEAT) if m["type"] == "file")
        s = play(s, target)
        assert target["card"] in s["seats"][SEAT]["archive"]
    elif eff.get("perform_action") == "research":
        assert s["phase"] == "research_level"
        s = play(s, {"type": "research", "level": 1})
        assert s["phase"] == "research"
        assert len(s["research"]["cards"]) == limits(p["gizmos"])["research"]
        s = play(s, {"type": "decline"})
        while s["phase"] == "return":
            s = play(s, RULES.legal_moves(s, SEAT)[0])
    elif "free_build" in eff:
        assert s["phase"] == "free_build"
        options = [m for m in RULES.legal_moves(s, SEAT) if m["type"] == "build"]
        assert options and all(CARDS[m["card"]]["level"] == 1 for m in options)
        energy = dict(s["seats"][SEAT]["energy"])
        s = play(s, options[0])
        assert options[0]["card"] in s["seats"][SEAT]["gizmos"]
        assert s["seats"][SEAT]["energy"] == energy  # cost ignored
    return s


def check_once_per_turn(s: dict, cid: str) -> None:
    """A used gizmo is refused a second time and is not armed again this turn."""
    assert s["current"] == SEAT and s["phase"] == "triggers", "the turn should still be running"
    assert cid in s["used"]
    with pytest.raises(IllegalMove):
        RULES.apply(s, SEAT, {"type": "use", "gizmo": cid})
    trig = CARDS[cid]["trigger"]
    event = {"action": trig["action"]}
    if trig["action"] == "pick":
        event["color"] = trig["colors"][0]
    elif trig["action"] == "build":
        event.update(card="L2-33", source="archive")
    t = copy.deepcopy(s)
    RULES._arm(t, SEAT, event)
    assert cid not in t["armed"]


DESIGN_IDS = sorted(DESIGNS)


@pytest.mark.parametrize("design", DESIGN_IDS)
def test_card_design(design):
    cid = DESIGNS[design][0]
    card = CARDS[cid]
    if card["level"] == 0:
        s = fresh_turn(prepared(2, seed=3))
        s["first"] = SEAT
        s["seats"][SEAT]["gizmos"] = [cid]
    else:
        s = built_position(cid)
    before = s.pop("_before", None)
    eff = card["effect"]
    if card["trigger"]:
        s = provoke(s, cid)
        assert cid in s["armed"], f"{cid} not armed by its trigger"
        # Keep the turn alive after the use: another armed gizmo that is always usable.
        keeper = "L3-20" if cid == "L3-19" else "L3-19"
        give(s, SEAT, keeper)
        s["armed"].append(keeper)
        s = check_effect(s, cid)
        check_once_per_turn(s, cid)
        assert any(e["kind"] == "use" and e["gizmo"] == cid for e in s["log"])
    elif "upgrade" in eff:
        after = limits(s["seats"][SEAT]["gizmos"])
        for key, delta in eff["upgrade"].items():
            assert after[key] - before[key] == delta
        # Permanent (§8 rule 3): usable at once and every turn; not a once-per-turn gizmo.
        assert cid not in s["used"]
    elif "forbid_action" in eff:
        kinds = {m["type"] for m in RULES.legal_moves(s, SEAT)}
        assert eff["forbid_action"] not in kinds
        # Also no File inside a Research (R3).
        if eff["forbid_action"] == "file":
            s2 = play(s, {"type": "research", "level": 1})
            assert all(m["type"] != "file" for m in RULES.legal_moves(s2, SEAT))
    elif "discount" in eff:
        check_discount(s, eff["discount"]["when"])
    elif "endgame_vp" in eff:
        p = s["seats"][SEAT]
        base = score(p)
        set_energy(s, SEAT, red=2, blue=1)
        p["tokens"] = 0
        if eff["endgame_vp"] == "energy_in_storage":
            assert score(p) == base + 3
        else:
            p["tokens"] = 4
            assert score(p) == base + 4 + 4
    elif "converter" in eff:
        check_converter(s, cid)
    else:  # pragma: no cover
        pytest.fail(f"untested effect {eff}")


def check_discount(s: dict, when: str) -> None:
    """A discount lowers the count to pay, on every qualifying build (permanent)."""
    set_energy(s, SEAT, red=2)
    if when == "build_level_2":
        to_display(s, "L2-13")  # red, cost 3
        assert RULES.need(s, SEAT, "L2-13", "display") == 2
        s = play(s, {"type": "build", "card": "L2-13"})
        s = pay_plainly(s)
        assert "L2-13" in s["seats"][SEAT]["gizmos"] and s["seats"][SEAT]["energy"]["red"] == 0
        assert RULES.need(s, SEAT, "L2-01", "display") == 1  # still applies later
    elif when == "build_from_archive":
        place(s, "L2-13")
        s["seats"][SEAT]["archive"] = ["L2-13"]
        assert RULES.need(s, SEAT, "L2-13", "archive") == 2
        assert RULES.need(s, SEAT, "L2-13", "display") == 3
        s = play(s, {"type": "build", "card": "L2-13"})
        s = pay_plainly(s)
        assert "L2-13" in s["seats"][SEAT]["gizmos"]
    else:
        place(s, "L2-13")
        s["decks"]["2"].insert(0, "L2-13")
        s = play(s, {"type": "research", "level": 2})
        assert {"type": "build", "card": "L2-13"} in RULES.legal_moves(s, SEAT)
        assert RULES.need(s, SEAT, "L2-13", "research") == 2
        s = play(s, {"type": "build", "card": "L2-13"})
        s = pay_plainly(s)
        assert "L2-13" in s["seats"][SEAT]["gizmos"]


def check_converter(s: dict, cid: str) -> None:
    """The converter pays what plain energy cannot, and only once per turn."""
    slots = CARDS[cid]["effect"]["converter"]["slots"]
    first = slots[0]
    src = first["from"] if first["from"] != "any" else "red"
    if first["to_count"] == 2:
        # Doubler: 1 X pays a cost of 2 X.
        target = next(c for c in sorted(CARDS) if CARDS[c]["level"] == 2 and CARDS[c]["color"] == src
                      and CARDS[c]["cost"] == 2)
        other = next(c for c in sorted(CARDS) if CARDS[c]["level"] == 2 and CARDS[c]["color"] == src
                     and CARDS[c]["cost"] == 2 and c != target)
        set_energy(s, SEAT, **{src: 1})
    else:
        color = next(c for c in COLORS if c != src)
        n = len(slots)
        pool = [c for c in sorted(CARDS) if CARDS[c]["level"] in (1, 2) and CARDS[c]["color"] == color
                and CARDS[c]["cost"] == n]
        target, other = pool[0], pool[1]
        set_energy(s, SEAT, **{src: n})
    to_display(s, target)
    to_display(s, other, keep=(target,))
    assert RULES.affordable(s, SEAT, target, "display")
    s = play(s, {"type": "build", "card": target, })
    used_slots = 0
    while s["phase"] == "pay":
        moves = RULES.legal_moves(s, SEAT)
        conv = [m for m in moves if m["type"] == "convert" and m["gizmo"] == cid]
        if conv:
            want = CARDS[target]["color"]
            pick = next((m for m in conv if m.get("to") == want), conv[0])
            s = play(s, pick)
            used_slots += 1
        else:
            s = play(s, [m for m in moves if m["type"] == "spend"][0])
    assert target in s["seats"][SEAT]["gizmos"]
    assert used_slots == len(slots) if first["to_count"] == 1 else used_slots == 1
    build = [e for e in s["log"] if e["kind"] == "build"][-1]
    assert cid in build["converters"]
    # Once per turn (§7.2): in the same turn the converter can no longer pay.
    t = copy.deepcopy(s)
    t.update(current=SEAT, phase="triggers", used=[cid], armed=[])
    set_energy(t, SEAT, **{src: 1 if first["to_count"] == 2 else len(slots)})
    assert all(g != cid for g, _i, _sl in RULES.free_slots(t, SEAT))
    assert not RULES.affordable(t, SEAT, other, "display")
    t["used"] = []
    assert RULES.affordable(t, SEAT, other, "display")
