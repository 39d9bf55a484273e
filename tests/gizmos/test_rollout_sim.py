"""The expert's rollouts' simulator (`games.gizmos.sim.ROLLOUT_SIMULATOR`) and its payments.

The rollouts pay for a build with `payment.quick_spend` (as few spheres as any payment, by
the order-free search) and take the converter slots from `payment.quick_slots`, not from the
rules' search for the cheapest payment (which cost the expert seconds a decision late in a
game). The same cards must be buildable, with as few spheres, and every payment listed must
be one the spheres really make.
"""

from __future__ import annotations

from games.engine import Rng
from games.gizmos.rules import COLORS, RULES, payment
from games.gizmos.rules.cards import SLOTS
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
    assert paid > 500


def _without_spend(moves: list[dict]) -> list[dict]:
    return [{k: v for k, v in m.items() if k != "spend"} for m in moves]


def test_the_rollouts_simulator_lists_the_rules_moves_but_for_which_spheres_pay():
    builds_paid = 0
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
            ROLLOUT_SIMULATOR.play(state, seat, move)
            if move["type"] == "build" and "spend" in move:   # a build paid at once
                builds_paid += 1
                after = state["seats"][seat]["energy"]
                assert all(after[c] == before[c] - move["spend"].get(c, 0) for c in COLORS), where
            assert all(v >= 0 for p in state["seats"] for v in p["energy"].values()), where
    assert builds_paid > 100
