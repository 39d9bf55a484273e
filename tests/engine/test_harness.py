"""The shared property harness, run on the test game, and proof that it catches bugs."""

import copy

import pytest

import tests.high_card  # noqa: F401 - registers the test game
from games.engine import IllegalMove, get_rules
from games.engine.testing import check_rules
from tests.high_card.rules import HighCardRules


def test_high_card_passes_the_harness():
    report = check_rules(get_rules("high-card"), games=60,
                         option_sets=[{}, {"double_last": True}],
                         fresh_process_imports=["tests.high_card"])
    assert report.games == 60 and report.finished == 60
    assert set(report.by_players) == {2, 3, 4}


class Mutating(HighCardRules):
    def apply(self, state, seat, move):
        new = super().apply(state, seat, move)
        state["scores"][0] += 0 if move.get("type") != "keep" else 1  # mutates its input
        return new


class Leaky(HighCardRules):
    def view(self, state, seat):
        v = super().view(state, seat)
        v["rng"] = state["rng"]
        return v


class Lenient(HighCardRules):
    def apply(self, state, seat, move):
        if isinstance(move, dict) and "unexpected" in move:  # ignores unknown keys
            move = {k: v for k, v in move.items() if k != "unexpected"}
        return super().apply(state, seat, copy.deepcopy(move))


class Crashing(HighCardRules):
    def apply(self, state, seat, move):
        if move is None:
            raise TypeError("boom")
        return super().apply(state, seat, move)


@pytest.mark.parametrize("cls,message", [
    (Mutating, "mutated"), (Leaky, "leaks"), (Crashing, "raised TypeError"),
    (Lenient, "is not legal but was accepted"),
])
def test_the_harness_catches_broken_rules(cls, message):
    base = get_rules("high-card")
    broken = cls(slug="high-card", name=base.name, min_players=2, max_players=4, options=base.options)
    with pytest.raises(AssertionError, match=message):
        check_rules(broken, games=6, fresh_process_games=0)


def test_illegal_move_keeps_a_translatable_template():
    exc = IllegalMove("You cannot play {card}.", code="bad_card", card=7)
    assert str(exc) == "You cannot play 7." and exc.template == "You cannot play {card}."
    assert exc.code == "bad_card" and exc.params == {"card": 7}


def test_require_finish_false_accepts_games_cut_short():
    rules = get_rules("high-card")
    report = check_rules(rules, games=3, max_decisions=4, require_finish=False,
                         fresh_process_games=1, fresh_process_imports=["tests.high_card"])
    assert report.games == 3 and report.finished == 0
    with pytest.raises(AssertionError, match="no end after 4 decisions"):
        check_rules(rules, games=1, max_decisions=4, fresh_process_games=0)
