"""The Powerhouse expert searches on the simulator from the seat's view only.

tests/bots/test_expert.py covers every game (legal moves, hidden state, a smoke
match) and tests/bots/test_determinism.py the full budget's determinism; these
add what is particular to the simulator path.
"""

from __future__ import annotations

import copy

from games.engine import Rng
from games.powerhouse import bot, expert
from games.powerhouse.rules import RULES
from games.powerhouse.sim import SIMULATOR as SIM

SMALL = 12


def _positions(players: int, seed: int, count: int):
    """(state, seat, legal) at decisions with a choice of a seeded fast-bot game."""
    state = RULES.new_game(players=players, seed=seed)
    out = []
    for seq in range(400):
        if RULES.outcome(state) is not None or len(out) >= count:
            break
        seat = min(RULES.to_move(state))
        legal = RULES.legal_moves(state, seat)
        if len(legal) > 1 and seq % 3 == 0:
            out.append((copy.deepcopy(state), seat, legal))
        move = bot.choose(RULES.view(state, seat), legal, level="fast", rng=Rng.from_seed(seq))
        state = RULES.apply(state, seat, move)
    return out


def test_the_expert_uses_the_simulator():
    assert expert.ADAPTER.sim is SIM


def test_samples_agree_with_the_real_position_and_differ_only_in_the_bag_order():
    for players in (2, 5):
        for state, seat, legal in _positions(players, 77 + players, 10):
            sample = expert.ADAPTER.sampler(RULES.view(state, seat))
            rng = Rng.from_seed("samples")
            a, b = sample(rng), sample(rng)
            assert a["rng"] != b["rng"] and a["log"] is None
            for s in (a, b):
                assert set(SIM.to_move(s)) == RULES.to_move(state)
                for p in range(players):
                    assert SIM.legal_moves(s, p) == RULES.legal_moves(state, p)
                for key in ("bag", "networks", "phase", "active", "pending", "meltdown",
                            "positions", "centre", "bag_dice", "tracking", "turn"):
                    assert s[key] == state[key], key
            # a sample played on leaves the next sample untouched
            SIM.play(a, seat, legal[0])
            assert sample(Rng.from_seed("samples"))["networks"] == state["networks"]


def test_the_expert_move_is_legal_and_the_same_whatever_the_bag_order():
    shuffler = Rng.from_seed("bag order")
    checked = 0
    for players in (2, 3, 5):
        for state, seat, legal in _positions(players, 500 + players, 6):
            other = dict(copy.deepcopy(state), rng=shuffler.next64())
            a = bot.choose(RULES.view(state, seat), legal, level="expert",
                           rng=Rng.from_seed(f"e:{checked}"), iterations=SMALL)
            b = bot.choose(RULES.view(other, seat), copy.deepcopy(legal), level="expert",
                           rng=Rng.from_seed(f"e:{checked}"), iterations=SMALL)
            assert a in legal and a == b, (players, a, b)
            checked += 1
    assert checked >= 12


def test_the_search_does_not_change_the_view_or_the_legal_list():
    for state, seat, legal in _positions(3, 9, 4):
        view = RULES.view(state, seat)
        before_view, before_legal = copy.deepcopy(view), copy.deepcopy(legal)
        expert.choose(view, legal, Rng.from_seed(1), iterations=SMALL)
        assert view == before_view and legal == before_legal
