"""The payment search (games/gizmos/rules/payment.py) against its slower form before issue 15.

The search is memoised on a canonical form of its arguments (what is left to pay instead of
need and done; the storage capped at what can still be spent, colours that pay nothing
zeroed) and generates converter steps once per sphere's units. `reach`, `feasible` and
`cheapest` (cost and first step) must answer exactly as before on every argument, since
everything else in the payment module is built on them; and `cheapest_spend` must be the
spheres `witness` spends (None where `can_pay` is false), so that the checked rules list
the same build moves as before.
"""

from __future__ import annotations

from itertools import combinations, product

import pytest

from games.engine import Rng
from games.gizmos.rules import CARDS, COLORS, RULES, payment
from games.gizmos.rules.cards import SLOTS

from . import payment_reference as before

TARGETS = COLORS + ("any",)
CONVERTERS = sorted(SLOTS)


def _slot_sets(most: int) -> list[tuple]:
    """Every set of free slots (sorted triples) of up to `most` converter gizmos, and the
    single slots of two-slot gizmos (one of them used already)."""
    out = set()
    for k in range(most + 1):
        for cards in combinations(CONVERTERS, k):
            out.add(tuple(sorted(t for cid in cards for t in SLOTS[cid])))
    for cid in CONVERTERS:
        for t in SLOTS[cid]:
            out.add((t,))
    return sorted(out)


@pytest.mark.slow
def test_the_search_answers_as_before_on_every_storage_for_small_engines():
    """Every storage up to 3 of a colour, every cost 1-4, no sphere spent yet, 0-1 converter."""
    checked = 0
    for slots in _slot_sets(1):
        for target in TARGETS:
            for need in range(1, 5):
                for storage in product(range(4), repeat=len(COLORS)):
                    assert payment.reach(target, need, storage, slots) == before.reach(
                        target, need, payment._cap(storage, need), slots)
                    args = (target, need, 0, (), payment._cap(storage, need), slots)
                    assert payment.cheapest(*args) == before.cheapest(*args), args
                    assert payment.feasible(*args) == before.feasible(*args), args
                    checked += 1
    assert checked > 80_000


@pytest.mark.slow
def test_the_search_answers_as_before_in_the_middle_of_payments():
    """Random payments under way: spheres spent (done, the last sphere's units), storages
    above the cost, up to 4 converters, costs up to 7."""
    rng = Rng.from_seed("payment search")
    slot_sets = _slot_sets(3)
    for _ in range(5_000):   # 8,000 until 2026-12-07 (the suite's 15 minutes)
        target = rng.choice(TARGETS)
        need = 1 + rng.randbelow(7)
        done = rng.randbelow(need + 1)
        group = tuple(sorted(rng.choice(COLORS) for _ in range(rng.randbelow(4))))
        storage = tuple(rng.randbelow(9) for _ in COLORS)
        slots = rng.choice(slot_sets)
        if rng.randbelow(3) == 0:  # a fourth converter
            slots = tuple(sorted(slots + SLOTS[rng.choice(CONVERTERS)]))
        args = (target, need, done, group, payment._cap(storage, need), slots)
        assert payment.cheapest(*args) == before.cheapest(*args), args
        assert payment.feasible(*args) == before.feasible(*args), args
        assert payment.reach(target, need - done, storage, slots) == before.reach(
            target, need - done, payment._cap(storage, max(need - done, 0)), slots), args


def test_cheapest_spend_is_what_witness_spends():
    rng = Rng.from_seed("cheapest spend")
    slot_sets = _slot_sets(3)
    for _ in range(3_000):
        target = rng.choice(TARGETS)
        need = 1 + rng.randbelow(7)
        storage = {c: rng.randbelow(9) for c in COLORS}
        slots = [("g%d" % i, i, t) for i, t in enumerate(rng.choice(slot_sets))]
        spend = payment.cheapest_spend(target=target, need=need, storage=storage, slots=slots)
        if payment.can_pay(target=target, need=need, storage=storage, slots=slots):
            plan = payment.witness(target=target, need=need, pool=[], storage=storage, slots=slots)
            assert spend == plan["spend"], (target, need, storage, slots)
        else:
            assert spend is None


def _old_build_moves(s: dict, seat: int, cid: str, source: str) -> list[dict]:
    """The checked rules' build moves of a card as they were listed before issue 15."""
    slots = RULES.free_slots(s, seat)
    if not RULES.affordable(s, seat, cid, source, slots):
        return []
    moves = []
    need = RULES.need(s, seat, cid, source)
    if need:
        plan = payment.witness(target=CARDS[cid]["color"], need=need, pool=[],
                               storage=s["seats"][seat]["energy"], slots=slots)
        moves.append({"type": "build", "card": cid, "spend": plan["spend"]})
    return moves + [{"type": "build", "card": cid}]


def test_the_checked_rules_list_the_build_moves_as_before():
    """Seeded random games, 2-4 players: at every action choice and research draw, the build
    moves listed are those `affordable` and `witness` gave (in the same order)."""
    checked = 0
    for g in range(30):
        players = 2 + g % 3
        state = RULES.new_game(players=players, seed=70_000 + g)
        chooser = Rng.from_seed(f"builds:{g}")
        while not state["over"]:
            seat = state["current"]
            legal = RULES.legal_moves(state, seat)
            phase = state["phase"]
            if phase in ("main", "research"):
                if phase == "main":
                    cards = [(cid, "display") for _l, _i, cid in RULES._display_cards(state)]
                    cards += [(cid, "archive") for cid in state["seats"][seat]["archive"]]
                else:
                    cards = [(cid, "research") for cid in state["research"]["cards"]]
                old = [m for cid, source in cards for m in _old_build_moves(state, seat, cid, source)]
                assert [m for m in legal if m["type"] == "build"] == old, (g, phase)
                checked += 1
            builds = [m for m in legal if m["type"] in ("build", "pay", "use", "use_all")]
            move = chooser.choice(builds) if builds and chooser.randbelow(2) else chooser.choice(legal)
            state = RULES.apply(state, seat, move)
    assert checked > 1_000
