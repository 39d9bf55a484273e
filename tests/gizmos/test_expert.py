"""The Gizmos expert on the simulator: its samples match the view, it never reads what the
seat cannot see, and the same seed and sequence number give the same move whatever the
simulator's memo caches hold. (tests/bots/test_expert.py covers every game's expert too.)"""

from __future__ import annotations

import copy

from games.engine import Rng
from games.gizmos import bot, expert, sim
from games.gizmos.rules import RULES, payment

SMALL = 12


def _positions(seed: int, players: int, count: int):
    """Positions of a fast-bot game where the expert would search (more than one move)."""
    state = RULES.new_game(players=players, seed=seed)
    for seq in range(400):
        if state["over"] or count == 0:
            return
        seat = state["current"]
        legal = RULES.legal_moves(state, seat)
        if len(legal) > 1 and state["phase"] in expert.SEARCHED_PHASES and seq % 5 == 0:
            yield seq, state, seat, legal
            count -= 1
        state = RULES.apply(state, seat, bot.choose(RULES.view(state, seat), legal, level="fast",
                                                    rng=Rng.from_seed(seq)))


def _no_log(view):
    return {k: v for k, v in view.items() if k != "log"}


def test_a_sample_is_a_simulator_state_consistent_with_the_view():
    for _seq, state, seat, legal in _positions(11, 3, 6):
        view = RULES.view(state, seat)
        sample = expert.ADAPTER.determinize(view, Rng.from_seed(2))
        assert sample["log"] == [] and sample["log"] is not state["log"]
        assert _no_log(RULES.view(sample, seat)) == _no_log(view)
        assert sim.SIMULATOR.legal_moves(sample, seat) == legal
        assert {k: len(d) for k, d in sample["decks"].items()} == view["decks"]


def test_rollout_views_show_the_fast_policy_only_its_own_seat_and_the_public_parts():
    """The fast policy in a rollout decides as it would from that seat's real view."""
    for _seq, state, seat, legal in _positions(12, 2, 6):
        if state["phase"] == "pay":
            continue
        view = RULES.view(state, seat)
        assert expert.ADAPTER.rollout_move(sim.SIMULATOR.clone(state), seat, legal, Rng(1)) == \
            bot.fast_move(view, legal)


def test_the_expert_moves_the_same_from_states_differing_only_in_hidden_cards():
    shuffler = Rng.from_seed(5)
    checked = 0
    for seq, state, seat, legal in _positions(13, 2, 5):
        other = RULES.load(RULES.dump(state))
        for level, deck in other["decks"].items():
            other["decks"][level] = shuffler.shuffled(deck)
        # The removed Level III cards and the Level III deck are unseen alike: mix them.
        pool = shuffler.shuffled(other["decks"]["3"] + other["removed"])
        other["decks"]["3"], other["removed"] = pool[:len(state["decks"]["3"])], sorted(
            pool[len(state["decks"]["3"]):])
        other["rng"] = shuffler.next64()
        assert _no_log(RULES.view(other, seat)) == _no_log(RULES.view(state, seat))
        a = expert.choose(RULES.view(state, seat), legal, Rng.from_seed(f"13:{seq}:{seat}"), SMALL)
        b = expert.choose(RULES.view(other, seat), copy.deepcopy(legal), Rng.from_seed(f"13:{seq}:{seat}"),
                          SMALL)
        assert a in legal and a == b
        checked += 1
    assert checked >= 3


def test_the_same_seed_gives_the_same_move_with_cold_or_warm_caches():
    for seq, state, seat, legal in _positions(14, 2, 4):
        view = RULES.view(state, seat)
        warm = expert.choose(view, legal, Rng.from_seed(f"14:{seq}:{seat}"), SMALL)
        for module in (sim, payment):  # every memo of the simulator and the payment search
            for cache in vars(module).values():
                if hasattr(cache, "cache_clear"):
                    cache.cache_clear()
        cold = expert.choose(copy.deepcopy(view), legal, Rng.from_seed(f"14:{seq}:{seat}"), SMALL)
        assert warm == cold and warm in legal
