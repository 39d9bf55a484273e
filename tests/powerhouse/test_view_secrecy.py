"""Views: everything on the table, nothing of the generator, the grid of the rules."""

from __future__ import annotations

import json

from games.engine import Rng
from games.engine.testing import check_view
from games.powerhouse.rules import RULES, game

from .playouts import light_playout
from .scenario import table


def _states(count=300):
    out = []

    class Keep:
        def step(self, before, seat, move, after):
            out.append(after)

    for seed in range(4):
        light_playout(300 + seed, 2 + seed, {"meltdown_limit": seed % 2 == 0},
                      decisions=count // 4, bot_share=0.5, checker=Keep())
    return out


def test_views_never_hold_the_generator_state_or_the_seed():
    for s in _states():
        for seat in [None, *range(s["players"])]:
            view = check_view(RULES, s, seat, seed=300)
            assert "rng" not in json.dumps(view)


def test_views_differ_only_in_the_seats_own_obligations():
    for s in _states(120):
        spectator = RULES.view(s, None)
        assert "you" not in spectator
        for seat in range(s["players"]):
            view = RULES.view(s, seat)
            assert view.pop("you")["seat"] == seat
            assert view == spectator


def test_the_bag_order_is_unknowable_two_generators_give_equal_views():
    s = RULES.new_game(players=3, seed=11)
    other = dict(s, rng=Rng.from_seed(12345).state)
    for seat in (None, 0, 1, 2):
        assert RULES.view(s, seat) == RULES.view(other, seat)


def test_network_grid_bag_contents_and_obligations():
    s = table({0: ["red-S", "red-S", "blue-L"], 1: ["green-M"]}, phase="reaction")
    view = RULES.view(s, 0)
    mine = view["networks"][0]
    assert view["colors"] == ["red", "yellow", "green", "blue", "purple"]
    assert view["sizes"] == ["S", "M", "L"]
    assert mine["grid"] == [[2, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 1, 0]]
    assert mine["reactors"] == ["red-S"] and mine["pieces"] == 3
    assert view["bag"]["by_size"] == {"S": 13, "M": 14, "L": 14}
    assert view["bag"]["grid"][0][0] == 1 and view["bag"]["dice"] == 3
    you = view["you"]
    assert you["must_fire"] == ["red-S"] and you["can_end"] is False and you["to_move"]
    s = RULES.apply(s, 0, {"type": "fire", "piece": "red-S"})
    assert RULES.view(s, 0)["you"]["pending"] == {"action": "fire", "stage": "give",
                                                  "piece": "red-S"}
    assert RULES.view(s, 1)["you"]["waiting"] == {"reactors": [], "major_dump": None}


def test_log_entries_carry_the_facts_of_each_event():
    s = table({0: ["red-S", "red-S", "blue-L"], 1: ["green-M", "blue-S"]}, phase="reaction")
    for move in ({"type": "fire", "piece": "red-S"}, {"type": "give", "to": 1},
                 {"type": "take", "piece": "green-M"}):
        s = RULES.apply(s, 0, move)
    log = RULES.view(s, None)["log"]
    assert log[-3:] == [
        {"kind": "give", "seat": 0, "to": 1, "piece": "red-S"},
        {"kind": "take", "seat": 0, "from": 1, "piece": "green-M"},
        {"kind": "end", "seat": 0, "auto": True},
    ]
    assert game.LOG_KEEP >= 50
