"""The bots' fast simulation path (games/gizmos/sim.py) against the checked rules.

Over thousands of seeded random playouts the simulator must give the same states
(its log aside: it keeps none), legal moves, players to move and outcomes as the
checked `RULES.legal_moves` / `RULES.apply`; and the checked `apply`, which now
checks a move against the legal moves of its type only, must accept and refuse
exactly what checking it against every legal move did.
"""

from __future__ import annotations

import copy

import pytest

from games.engine import IllegalMove, Rng, check_legal, require_move_dict
from games.gizmos.rules import CARDS, COLORS, RULES, copy_state
from games.gizmos.rules.game import MOVE_TYPES
from games.gizmos.sim import SIMULATOR

CARD_IDS = sorted(CARDS)


def _strip(s: dict) -> dict:
    return {k: v for k, v in s.items() if k != "log"}


def _pick(chooser: Rng, legal: list[dict]) -> dict:
    """A random legal move, builds favoured half the time so that engines grow (deep positions)."""
    builds = [m for m in legal if m["type"] in ("build", "pay", "use", "use_all")]
    if builds and chooser.randbelow(2):
        return chooser.choice(builds)
    return chooser.choice(legal)


def _playout(seed: int, players: int, decisions: int) -> int:
    """One seeded playout, checked path and simulator side by side; returns its length."""
    state = RULES.new_game(players=players, seed=seed)
    sim = SIMULATOR.from_rules(state)
    chooser = Rng.from_seed(f"sim:{seed}:{players}")
    for n in range(decisions):
        assert _strip(sim) == _strip(state), f"seed {seed}, decision {n}: states differ"
        assert SIMULATOR.to_move(sim) == RULES.to_move(state)
        assert SIMULATOR.outcome(sim) == RULES.outcome(state)
        if state["over"]:
            return n
        seat = state["current"]
        legal = RULES.legal_moves(state, seat)
        assert SIMULATOR.legal_moves(sim, seat) == legal, f"seed {seed}, decision {n}: moves differ"
        for other in range(players):
            if other != seat:
                assert SIMULATOR.legal_moves(sim, other) == [] == RULES.legal_moves(state, other)
        move = _pick(chooser, legal)
        state = RULES.apply(state, seat, move)
        SIMULATOR.play(sim, seat, move)
    return decisions


@pytest.mark.slow
@pytest.mark.timeout(1200)   # tens of seconds on a quiet core; far more on a shared, loaded one
def test_the_simulator_follows_the_checked_rules_over_thousands_of_playouts():
    """2,000 seeded playouts: 1,900 openings of 40 decisions and 100 whole games, 2-4 players."""
    lengths = []
    for g in range(1_900):
        lengths.append(_playout(40_000 + g, 2 + g % 3, 40))
    finished = 0
    for g in range(100):
        n = _playout(50_000 + g, 2 + g % 3, 5_000)
        finished += n < 5_000
        lengths.append(n)
    assert finished == 100
    assert sum(lengths) > 90_000


def test_clone_is_independent_and_play_works_in_place():
    state = RULES.new_game(players=3, seed=7)
    sim = SIMULATOR.from_rules(state)
    before = copy.deepcopy(state)
    chooser = Rng.from_seed(1)
    for _ in range(80):
        seat = min(SIMULATOR.to_move(sim))
        twin = SIMULATOR.clone(sim)
        SIMULATOR.play(sim, seat, _pick(chooser, SIMULATOR.legal_moves(sim, seat)))
        assert twin != sim
    assert state == before, "the rules' state was changed by the simulator"
    assert sim["log"] == []


def _reference_apply(state, seat, move):
    """The checked apply as it was: the move looked up among all legal moves."""
    RULES.require_seat(state, seat, state["players"])
    require_move_dict(move, MOVE_TYPES)
    move = check_legal(RULES.legal_moves(state, seat), move)
    s = copy_state(state)
    RULES.apply_unchecked(s, seat, move)
    return s


def _variants(move: dict, chooser: Rng, state: dict) -> list:
    """The move itself and near misses: other cards, colours, levels, spends, extra keys."""
    out = [move, dict(move, extra=1), {"type": move["type"]}]
    for key, value in move.items():
        if key == "type":
            out += [dict(move, type=t) for t in ("build", "file", "pick", "pay", "spend", "use", "stop")
                    if t != value]
        elif key == "card" or key == "gizmo":
            out += [dict(move, **{key: chooser.choice(CARD_IDS)}), dict(move, **{key: [value]}),
                    dict(move, **{key: None})]
        elif key in ("color", "to"):
            out += [dict(move, **{key: c}) for c in COLORS if c != value] + [dict(move, **{key: 1})]
        elif key == "level":
            out += [dict(move, level=value % 3 + 1), dict(move, level=str(value)), dict(move, level=True)]
        elif key == "spend":
            colour = chooser.choice(COLORS)
            out += [dict(move, spend=dict(value, **{colour: value.get(colour, 0) + 1})), dict(move, spend={}),
                    dict(move, spend=[value])]
        elif key in ("unit", "slot"):
            out += [dict(move, **{key: value + 1}), dict(move, **{key: float(value)})]
        elif key == "on":
            out += [dict(move, on=not value), dict(move, on=1)]
    # A build of a card of the research draws or the archive from another phase.
    for cid in (state["research"] or {}).get("cards", []) + state["seats"][state["current"]]["archive"]:
        out += [{"type": "build", "card": cid}, {"type": "file", "card": cid}]
    return out + ["build", None, {"type": "pass"}, {"type": "end_turn"}, {"type": "decline"}]


def _outcome(fn, state, seat, move):
    try:
        return ("ok", _strip(fn(state, seat, move)))
    except IllegalMove as err:
        return ("refused", err.code)


@pytest.mark.parametrize("players", (2, 3, 4))
def test_the_checked_apply_accepts_and_refuses_as_before(players):
    checked = 0
    for g in range(8):
        state = RULES.new_game(players=players, seed=60_000 + 100 * players + g)
        chooser = Rng.from_seed(g)
        while not state["over"]:
            seat = state["current"]
            legal = RULES.legal_moves(state, seat)
            if chooser.randbelow(4) == 0:
                for move in _variants(chooser.choice(legal), chooser, state):
                    for who in {seat, (seat + 1) % players}:
                        new = _outcome(RULES.apply, state, who, move)
                        assert new == _outcome(_reference_apply, state, who, move), (state["phase"], move)
                        checked += 1
            state = RULES.apply(state, seat, _pick(chooser, legal))
    assert checked > 1_000
