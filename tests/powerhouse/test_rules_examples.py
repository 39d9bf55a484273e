"""The worked examples of RULES.md section 13 and the Spanish rules text ("Ejemplos")."""

from __future__ import annotations

import pytest

from games.engine import IllegalMove
from games.powerhouse.rules import RULES

from .scenario import SEAT_A, SEAT_B, SEAT_C, moves, net, play, rigged, table

END = {"type": "end"}
VAPOR = {"type": "vapor"}


def fire(piece):
    return {"type": "fire", "piece": piece}


def give(to):
    return {"type": "give", "to": to}


def take(piece):
    return {"type": "take", "piece": piece}


def discard(piece):
    return {"type": "discard", "piece": piece}


def draw(kind):
    return {"type": "draw", "kind": kind}


# -- RULES.md 13.1: the FAQ video position ----------------------------------------------

def test_faq_video_reactor_waits_through_a_meltdown_then_must_fire():
    s = table({SEAT_A: ["red-S", "yellow-M", "green-L"],
               SEAT_B: ["purple-M", "purple-M", "blue-S"]}, active=SEAT_B)
    s = play(s, SEAT_B, draw("die"))
    # every player discards one, all asked at once
    assert RULES.to_move(s) == frozenset({SEAT_A, SEAT_B})
    assert s["phase"] == "meltdown" and s["centre"] == 1
    s = play(s, SEAT_B, discard("blue-S"))
    assert RULES.to_move(s) == frozenset({SEAT_A})
    s = play(s, SEAT_A, discard("red-S"))
    # B's turn ended with the reactor unfired; no transform happened
    assert net(s, SEAT_B) == {"purple-M": 2}
    assert not any(e["kind"] in ("give", "take") for e in s["log"])
    assert s["active"] == SEAT_A and s["phase"] == "draw"
    s = play(rigged(s, "L", "red-L"), SEAT_A, draw("L"))  # nothing to react to: turn passes
    assert s["active"] == SEAT_B and s["phase"] == "draw"
    s = play(rigged(s, "S", "blue-S"), SEAT_B, draw("S"))
    assert s["phase"] == "reaction" and s["active"] == SEAT_B
    assert fire("purple-M") in moves(s, SEAT_B)
    assert END not in moves(s, SEAT_B)
    with pytest.raises(IllegalMove):
        RULES.apply(s, SEAT_B, END)
    assert RULES.view(s, SEAT_B)["you"]["must_fire"] == ["purple-M"]


# -- RULES.md 13.2: winning by meltdown -------------------------------------------------

def test_winning_by_meltdown_with_the_second_die():
    five_smalls = ["red-S", "yellow-S", "green-S", "blue-S", "purple-S"]
    s = table({SEAT_A: five_smalls + ["red-M", "blue-L"],
               SEAT_B: ["red-S", "green-M", "green-L", "yellow-L"]}, centre=1)
    s = play(s, SEAT_A, draw("die"))
    assert s["meltdown"]["k"] == 2 and RULES.to_move(s) == frozenset({SEAT_A, SEAT_B})
    s = play(s, SEAT_A, discard("red-M"), discard("blue-L"))
    # A is clean now, but the check waits until every discard is made (7.4)
    assert RULES.outcome(s) is None and RULES.to_move(s) == frozenset({SEAT_B})
    s = play(s, SEAT_B, discard("red-S"), discard("green-M"))
    assert RULES.outcome(s) == {"winners": [SEAT_A], "scores": {"0": 1, "1": 0}}
    assert RULES.to_move(s) == frozenset()


# -- RULES.md 13.3: transform-proof pieces ----------------------------------------------

def test_transform_proof_powerhouse_allows_only_spare_pieces():
    s = table({SEAT_A: ["green-L", "green-L", "red-M"],
               SEAT_B: ["red-S", "yellow-S", "green-S", "blue-S", "purple-S", "red-S", "blue-M"]},
              phase="reaction")
    s = play(s, SEAT_A, fire("green-L"), give(SEAT_B))
    assert sorted(m.get("piece", "") for m in moves(s, SEAT_A)) == ["", "blue-M", "red-S"]
    assert VAPOR in moves(s, SEAT_A)
    with pytest.raises(IllegalMove):
        RULES.apply(s, SEAT_A, take("yellow-S"))
    with pytest.raises(IllegalMove):  # the piece just given cannot come straight back
        RULES.apply(s, SEAT_A, take("green-L"))
    assert set(RULES.view(s, None)["networks"][SEAT_B]["transform_proof"]) == {
        "yellow-S", "green-S", "blue-S", "purple-S"}


# -- RULES.md 13.4: a win outside one's own turn ----------------------------------------

def test_off_turn_win_when_the_given_piece_arrives():
    s = table({SEAT_A: ["green-S", "green-S", "red-L"],
               SEAT_B: ["red-S", "yellow-S", "blue-S", "purple-S"]}, phase="reaction")
    s = play(s, SEAT_A, fire("green-S"))
    s = play(s, SEAT_A, give(SEAT_B))
    assert RULES.outcome(s)["winners"] == [SEAT_B]
    assert s["active"] == SEAT_A  # still A's turn: no take was ever offered
    assert RULES.to_move(s) == frozenset() and moves(s, SEAT_A) == []


# -- RULES.md 13.5: a cascade and the Q6 safeguard --------------------------------------

def test_cascade_new_reactor_must_be_fired_and_loops_are_blocked():
    s = table({SEAT_A: ["red-M", "red-M", "blue-L"],
               SEAT_B: ["blue-L", "yellow-S"],
               SEAT_C: ["red-M", "green-S"]}, players=3, phase="reaction")
    s = play(s, SEAT_A, fire("red-M"), give(SEAT_B), take("blue-L"))
    assert net(s, SEAT_A) == {"red-M": 1, "blue-L": 2}
    assert moves(s, SEAT_A) == [fire("blue-L")]  # the new reactor is mandatory
    s = play(s, SEAT_A, fire("blue-L"))
    via_b = play(s, SEAT_A, give(SEAT_B))
    # taking the red medium back from B would restore the phase's first position
    assert take("red-M") not in moves(via_b, SEAT_A)
    assert take("yellow-S") in moves(via_b, SEAT_A) and VAPOR in moves(via_b, SEAT_A)
    via_c = play(s, SEAT_A, give(SEAT_C))
    assert take("red-M") in moves(via_c, SEAT_A)
    via_c = play(via_c, SEAT_A, take("red-M"))
    assert net(via_c, SEAT_A) == {"red-M": 2, "blue-L": 1}
    assert fire("red-M") in moves(via_c, SEAT_A) and END not in moves(via_c, SEAT_A)


# -- RULES.md 13.6 = Spanish "Ejemplos", first example ----------------------------------

def _stabilising_start():
    s = table({SEAT_A: ["green-L", "yellow-S", "yellow-M", "yellow-L"],
               SEAT_B: ["green-L", "red-S"]})
    s = play(rigged(s, "L", "green-L"), SEAT_A, draw("L"))
    assert net(s, SEAT_A)["green-L"] == 2
    return s


def test_spanish_example_1_battery_turns_the_reactor_into_a_stable_one():
    s = _stabilising_start()
    assert fire("green-L") in moves(s, SEAT_A) and END not in moves(s, SEAT_A)
    assert {"type": "battery", "color": "yellow"} in moves(s, SEAT_A)
    s = play(s, SEAT_A, {"type": "battery", "color": "yellow"}, discard("yellow-S"),
             {"type": "transform", "piece": "yellow-M"}, give(SEAT_B), take("green-L"))
    assert net(s, SEAT_A) == {"green-L": 3, "yellow-L": 1}
    # a stable reactor is optional: the phase may end
    assert set(map(str, moves(s, SEAT_A))) == {str(fire("green-L")), str(END)}
    s = play(s, SEAT_A, END)
    assert s["active"] == SEAT_B and s["phase"] == "draw"


def test_spanish_example_1_stable_reactor_may_wait_for_turns():
    s = _stabilising_start()
    s = play(s, SEAT_A, {"type": "battery", "color": "yellow"}, discard("yellow-S"),
             {"type": "transform", "piece": "yellow-M"}, give(SEAT_B), take("green-L"), END)
    # B's turn passes without touching A; A's next turn still need not fire
    s = play(rigged(s, "M", "blue-M"), SEAT_B, draw("M"))
    assert s["active"] == SEAT_A
    s = play(rigged(s, "M", "red-M"), SEAT_A, draw("M"))
    assert END in moves(s, SEAT_A)


def test_spanish_example_1_a_taken_piece_leaves_a_reactor_for_next_turn():
    s = _stabilising_start()
    s = play(s, SEAT_A, {"type": "battery", "color": "yellow"}, discard("yellow-S"),
             {"type": "transform", "piece": "yellow-M"}, give(SEAT_B), take("green-L"), END)
    # B draws a red small: a reactor; B fires it at A and takes one of A's green larges
    s = play(rigged(s, "S", "red-S"), SEAT_B, draw("S"))
    s = play(s, SEAT_B, fire("red-S"), give(SEAT_A), take("green-L"))
    assert net(s, SEAT_A)["green-L"] == 2
    assert RULES.view(s, SEAT_A)["you"]["waiting"]["reactors"] == ["green-L"]
    s = play(s, SEAT_B, *([END] if s["active"] == SEAT_B else []))
    s = play(rigged(s, "M", "blue-M"), SEAT_A, draw("M"))
    assert fire("green-L") in moves(s, SEAT_A) and END not in moves(s, SEAT_A)


def test_spanish_example_1_firing_the_stable_reactor_forces_the_second_firing():
    s = _stabilising_start()
    s = play(s, SEAT_A, {"type": "battery", "color": "yellow"}, discard("yellow-S"),
             {"type": "transform", "piece": "yellow-M"}, give(SEAT_B), take("green-L"))
    s = play(s, SEAT_A, fire("green-L"), give(SEAT_B), VAPOR)
    assert net(s, SEAT_A)["green-L"] == 2
    assert moves(s, SEAT_A) == [fire("green-L")]
    s = play(s, SEAT_A, fire("green-L"), give(SEAT_B), VAPOR)
    assert s["active"] == SEAT_B  # nothing left to do: the phase closed


# -- RULES.md 13.7 = Spanish "Ejemplos", second example ---------------------------------

def test_spanish_example_2_winning_by_cleaning_up():
    s = table({SEAT_A: ["red-M", "yellow-M", "green-M", "purple-M", "purple-S", "purple-L"],
               SEAT_B: ["red-S", "yellow-S", "green-S", "blue-S", "purple-S", "blue-M",
                        "red-L"]})
    s = play(rigged(s, "M", "green-M"), SEAT_A, draw("M"))
    assert END not in moves(s, SEAT_A)
    s = play(s, SEAT_A, fire("green-M"), give(SEAT_B))
    # B's smalls are transform-proof; the blue medium is not part of B's powerhouse
    takes = {m["piece"] for m in moves(s, SEAT_A) if m["type"] == "take"}
    assert "blue-M" in takes and not takes & {"red-S", "yellow-S", "blue-S", "purple-S"}
    s = play(s, SEAT_A, take("blue-M"))
    assert RULES.view(s, SEAT_A)["networks"][SEAT_A]["batteries"] == ["purple"]
    assert RULES.outcome(s) is None
    s = play(s, SEAT_A, {"type": "battery", "color": "purple"}, discard("purple-S"),
             {"type": "transform", "piece": "purple-L"})
    assert RULES.outcome(s) is None
    s = play(s, SEAT_A, give(SEAT_B))
    # the give leaves A exactly the five mediums: A wins before any take or vapor
    assert RULES.outcome(s)["winners"] == [SEAT_A]
    assert net(s, SEAT_A) == {f"{c}-M": 1 for c in ("red", "yellow", "green", "blue", "purple")}
