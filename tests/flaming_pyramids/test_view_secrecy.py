"""No view or log entry shows another player's hand or an unseen part of a draw pile."""

from __future__ import annotations

import json

import pytest

from games.engine import Rng
from games.engine.testing import random_playout
from games.flaming_pyramids.rules import RULES

OPTION_SETS = [{}, {"curse": True}, {"fire_die": True}, {"curse": True, "fire_die": True}]


def strings(obj, out=None):
    """Every string anywhere in a JSON-like value."""
    out = set() if out is None else out
    if isinstance(obj, str):
        out.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out.add(k)
            strings(v, out)
    elif isinstance(obj, list):
        for v in obj:
            strings(v, out)
    return out


def secrets_for(state, seat):
    """Tile ids `seat` may not know the place of."""
    hidden = set()
    for other in range(state["players"]):
        if other != seat:
            hidden |= set(state["hands"][other]) - set(state["hand_known"][other])
        pile = state["piles"][other]
        hidden |= set(pile[:len(pile) - state["pile_known"][other]])
    return hidden


def check_secrecy(state, seen_log=None):
    """Every view, and each log entry as it first appears, hides what its seat may not know."""
    for seat in [None, *range(state["players"])]:
        view = RULES.view(state, seat)
        log = view.pop("log")
        start = 0 if seen_log is None else seen_log.get(seat, 0)
        if seen_log is not None:
            seen_log[seat] = len(log)
        hidden = secrets_for(state, seat)
        found = strings(view) & hidden
        assert not found, f"seat {seat} sees hidden tiles {sorted(found)}"
        for entry in log[start:]:
            found = strings(entry) & hidden
            assert not found, f"seat {seat} reads hidden tiles {sorted(found)} in {entry}"
            assert "private_to" not in entry
            if entry["kind"] == "draw" and entry["seat"] != seat:
                assert "tiles" not in entry
        assert "rng" not in json.dumps(view)


@pytest.mark.parametrize("options", OPTION_SETS, ids=["base", "curse", "die", "both"])
def test_no_hidden_tile_in_any_view(options):
    for players in range(2, 7):
        for k in range(2):
            seen_log = {}
            random_playout(RULES, players=players, seed=900 + 17 * k + players, options=options,
                           max_decisions=20_000,
                           on_state=lambda s, step: step % 3 == 0 and check_secrecy(s, seen_log))


def swap_hidden(state, seat, rng):
    """The same position with the tiles `seat` cannot see dealt differently."""
    s = RULES.load(RULES.dump(state))
    slots = []
    for other in range(s["players"]):
        if other != seat:
            for i, t in enumerate(s["hands"][other]):
                if t not in s["hand_known"][other]:
                    slots.append(("hands", other, i))
        pile = s["piles"][other]
        for i in range(len(pile) - s["pile_known"][other]):
            slots.append(("piles", other, i))
    tiles = [s[k][o][i] for k, o, i in slots]
    rng.shuffle(tiles)
    for (k, o, i), t in zip(slots, tiles):
        s[k][o][i] = t
    for h in s["hands"]:
        h.sort()
    return s


def test_views_do_not_depend_on_hidden_tiles():
    """Two states that differ only in hidden tiles give every seat the same view."""
    rng = Rng.from_seed(5)
    for players in (2, 4, 6):
        playout = random_playout(RULES, players=players, seed=321 + players, max_decisions=20_000)
        state = RULES.new_game(players=players, seed=321 + players)
        for step, (seat_moved, move) in enumerate(playout.moves):
            if step % 9 == 0:
                for seat in range(players):
                    other = swap_hidden(state, seat, rng)
                    assert RULES.view(other, seat) == RULES.view(state, seat)
            state = RULES.apply(state, seat_moved, move)


def test_own_draws_are_private_and_known_draws_public():
    state = RULES.new_game(players=3, seed=4)
    state = RULES.apply(state, state["active"], RULES.legal_moves(state, state["active"])[0])
    while state["pending"] is not None:
        seat = state["pending"]["decider"]
        state = RULES.apply(state, seat, RULES.legal_moves(state, seat)[0])
    drawer = [e for e in state["log"] if e["kind"] == "draw"][-1]["seat"]
    mine = [e for e in RULES.view(state, drawer)["log"] if e["kind"] == "draw"][-1]
    theirs = [e for e in RULES.view(state, (drawer + 1) % 3)["log"] if e["kind"] == "draw"][-1]
    assert mine["tiles"] and "tiles" not in theirs and theirs["count"] == mine["count"]
    assert RULES.view(state, None)["hand"] is None
