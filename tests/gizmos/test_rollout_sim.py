"""The expert's rollouts' simulator (`games.gizmos.sim.ROLLOUT_SIMULATOR`) and its payments.

The rollouts pay for a build with `payment.quick_spend` (as few spheres as any payment, by
the order-free search) and take the converter slots from `payment.quick_slots`, not from the
rules' search for the cheapest payment (which cost the expert seconds a decision late in a
game). The same cards must be buildable, with as few spheres, every payment listed must be
one the spheres really make, and the converters a payment uses must be ones that make it.
"""

from __future__ import annotations

from games.engine import Rng
from games.gizmos.rules import COLORS, RULES, payment
from games.gizmos.rules.cards import CARDS, SLOTS
from games.gizmos.sim import ROLLOUT_SIMULATOR, SIMULATOR

EFFECTS = sorted({t for slots in SLOTS.values() for t in slots})


def _slots(triples: tuple) -> list:
    return [("g%d" % i, 0, t) for i, t in enumerate(triples)]


def test_quick_spend_pays_with_as_few_spheres_as_the_cheapest_payment():
    rng = Rng.from_seed("quick-spend")
    paid = 0
    for case in range(1500):
        target = rng.choice(list(COLORS) + ["any"])
        need = 1 + rng.randbelow(7)
        counts = tuple(rng.randbelow(6) for _ in COLORS)
        triples = tuple(sorted(rng.choice(EFFECTS) for _ in range(rng.randbelow(7))))
        where = f"case {case}: {target} {need} {counts} {triples}"
        quick = payment.quick_spend(target, need, counts, triples)
        cheapest = payment.cheapest_spend(target=target, need=need,
                                          storage=dict(zip(COLORS, counts)), slots=_slots(triples))
        assert (quick is None) == (cheapest is None), where
        if quick is None:
            assert not payment.can_pay(target=target, need=need, storage=dict(zip(COLORS, counts)),
                                       slots=_slots(triples)), where
            continue
        paid += 1
        assert all(0 <= q <= c for q, c in zip(quick, counts)), where
        assert sum(quick) == sum(cheapest.values()), where
        # Exactly these spheres pay: the rules' own payment with them spends them all.
        plan = payment.witness(target=target, need=need, pool=[], storage=dict(zip(COLORS, counts)),
                               slots=_slots(triples), only=dict(zip(COLORS, quick)))
        assert plan is not None and tuple(plan["spend"].get(c, 0) for c in COLORS) == quick, where
        path = payment.quick_slots(target, need, quick, triples)
        assert path is not None, where
        left = list(triples)
        for effect in path:
            left.remove(effect)    # each slot at most once
        # ... and those slots alone, with those spheres, pay the cost.
        assert payment.reach(target, need, quick, tuple(sorted(path))), where
    assert paid > 500


def _without_spend(moves: list[dict]) -> list[dict]:
    return [{k: v for k, v in m.items() if k != "spend"} for m in moves]


def test_the_rollouts_simulator_lists_the_rules_moves_but_for_which_spheres_pay(monkeypatch):
    rules_ = ROLLOUT_SIMULATOR.rules
    finished = []
    finish = rules_._finish_build

    def spy(s, seat, cid, source, spent, converters, rng, free=False):
        finished.append((cid, list(converters)))
        return finish(s, seat, cid, source, spent, converters, rng, free)

    monkeypatch.setattr(rules_, "_finish_build", spy)
    builds_paid = converters_used = 0
    for seed in range(60):
        state = SIMULATOR.from_rules(RULES.new_game(players=2 + seed % 3, seed=40_000 + seed))
        chooser = Rng.from_seed(f"rollout-sim:{seed}")
        for n in range(150):
            if state["over"]:
                break
            seat = state["current"]
            listed = ROLLOUT_SIMULATOR.legal_moves(state, seat)
            rules = RULES.legal_moves(state, seat)
            where = f"seed {seed}, decision {n}"
            assert _without_spend(listed) == _without_spend(rules), where
            for mine, theirs in zip(listed, rules):
                if "spend" in mine:
                    assert sum(mine["spend"].values()) == sum(theirs["spend"].values()), where
            builds = [m for m in listed if m["type"] == "build"]
            move = chooser.choice(builds if builds and chooser.randbelow(3) else listed)
            before = dict(state["seats"][seat]["energy"])
            free = {cid for cid, _si, _slot in rules_.free_slots(state, seat)}
            if move["type"] == "build":
                source = "archive" if move["card"] in state["seats"][seat]["archive"] else "display"
                need = rules_.need(state, seat, move["card"], source)
            finished.clear()
            ROLLOUT_SIMULATOR.play(state, seat, move)
            if move["type"] == "build" and "spend" in move:   # a build paid at once
                builds_paid += 1
                after = state["seats"][seat]["energy"]
                assert all(after[c] == before[c] - move["spend"].get(c, 0) for c in COLORS), where
                # The converters it uses (the turn's "used" is cleared when the build ends
                # the turn, so they are caught on their way in): free ones of this seat, and
                # their slots alone with the spheres spent pay the cost.
                (card, converters), = finished
                assert card == move["card"] and len(set(converters)) == len(converters), where
                assert set(converters) <= free, where
                spent = tuple(move["spend"].get(c, 0) for c in COLORS)
                color = CARDS[card]["color"]
                slots = tuple(sorted(t for cid in converters for t in SLOTS[cid]))
                assert payment.reach(color, need, spent, slots), where
                if converters:
                    converters_used += 1
                    assert not payment.reach(color, need, spent, ()), where
            assert all(v >= 0 for p in state["seats"] for v in p["energy"].values()), where
    assert builds_paid > 100 and converters_used > 10, (builds_paid, converters_used)
