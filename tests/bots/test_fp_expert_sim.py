"""Flaming Pyramids' samples see only the seat's view; the expert is deterministic;
the search engine's counted work cap (games.engine.search) stops a costly decision.

`sim.determinize` builds simulator states from a view: two real states that differ
only in what the seat cannot see give the same samples.
"""

from __future__ import annotations

from games.engine import Rng
from games.flaming_pyramids import bot, expert, sim
from games.flaming_pyramids.rules import RULES
from tests.flaming_pyramids.test_view_secrecy import swap_hidden


def test_samples_depend_on_the_view_only():
    state = RULES.new_game(players=3, seed=12, options={"curse": True})
    shuffler = Rng.from_seed(4)
    checked = 0
    for seq in range(45):
        if RULES.outcome(state) is not None:
            break
        seat = min(RULES.to_move(state))
        other = swap_hidden(state, seat, shuffler)
        a = sim.determinize(RULES.view(state, seat), Rng.from_seed(f"s{seq}"))
        b = sim.determinize(RULES.view(other, seat), Rng.from_seed(f"s{seq}"))
        assert sim.to_rules(a) == sim.to_rules(b)
        # the sample keeps what the seat knows: its hand, the pyramid, the sizes
        assert a.hands[seat] == state["hands"][seat]
        assert sorted(a.board.items()) == sorted(((r, x), t) for r, x, t in state["board"])
        assert [len(p) for p in a.piles] == [len(p) for p in state["piles"]]
        checked += 1
        legal = RULES.legal_moves(state, seat)
        state = RULES.apply(state, seat, bot.choose(RULES.view(state, seat), legal, level="fast",
                                                    rng=Rng.from_seed(seq)))
    assert checked >= 30


def test_expert_is_deterministic():
    state = RULES.new_game(players=2, seed=99)
    for seq in range(6):
        seat = min(RULES.to_move(state))
        legal = RULES.legal_moves(state, seat)
        view = RULES.view(state, seat)
        a = expert.choose(view, legal, Rng.from_seed(f"e:{seq}"), iterations=4)
        b = expert.choose(RULES.view(state, seat), list(legal), Rng.from_seed(f"e:{seq}"), iterations=4)
        assert a == b and a in legal
        state = RULES.apply(state, seat, a)


class _CountingAdapter:
    """A toy search problem: a counter game whose every rollout step costs `cost` units."""

    rules = None
    rollout_decisions = 3

    def __init__(self, cost, per_iteration):
        self.cost = cost
        self.work_per_iteration = per_iteration
        self.rollouts = 0

    class _Sim:
        def to_move(self, state):
            return {0} if state["n"] < 6 else set()

        def legal_moves(self, state, seat):
            return [{"k": 1}, {"k": 2}]

        def play(self, state, seat, move):
            state["n"] += move["k"]

        def outcome(self, state):
            return {"winners": [0]} if state["n"] >= 6 else None

    sim = _Sim()

    def sampler(self, view):
        return lambda rng: {"n": 0}

    def candidates(self, view, legal):
        return legal

    def rollout_move(self, state, seat, legal, rng):
        return legal[0]

    def rollout_move_costed(self, state, seat, legal, rng):
        self.rollouts += 1
        return legal[0], self.cost

    def evaluate(self, state, me):
        return 0.5


def test_a_counted_work_cap_stops_a_costly_decision_early_and_deterministically():
    from games.engine import search

    legal = [{"k": 1}, {"k": 2}]
    cheap = _CountingAdapter(cost=1, per_iteration=10)
    search.choose(cheap, {}, legal, 0, Rng.from_seed(1), 50)
    costly = _CountingAdapter(cost=100, per_iteration=10)
    first = search.choose(costly, {}, legal, 0, Rng.from_seed(1), 50)
    # Under the cap every iteration runs (rollouts of 2-3 steps each); over it the search
    # stops once every candidate was tried and the cap (10 x 50 units) was spent.
    assert cheap.rollouts >= 100
    assert costly.rollouts <= 6
    again = _CountingAdapter(cost=100, per_iteration=10)
    assert search.choose(again, {}, legal, 0, Rng.from_seed(1), 50) == first
    assert again.rollouts == costly.rollouts
