"""The bots' simulator (games/powerhouse/sim.py) and the checked rules agree everywhere.

Thousands of seeded playouts go through both paths side by side: at every step the
same seats owe a decision, the same legal moves are offered, the chosen move leaves
equal states (the simulator keeps no log) and the outcomes match. The checked
`apply` validates a move directly (game.check_move); it must accept and refuse
exactly what the generated legal list does, for every move shape.
"""

from __future__ import annotations

from games.engine import IllegalMove, Rng
from games.powerhouse import bot
from games.powerhouse.rules import RULES, game
from games.powerhouse.rules.pieces import COLORS, TYPE_NAMES
from games.powerhouse.sim import SIMULATOR as SIM

_NOT_COMPARED = ("log", "log_count")


def _core(state: dict) -> dict:
    return {k: v for k, v in state.items() if k not in _NOT_COMPARED}


def _side_by_side(seed: int, players: int, options: dict, decisions: int, fast_share: float,
                  chooser: Rng) -> dict:
    """One playout through both paths, compared at every step; the checked state at the end."""
    checked = RULES.new_game(players=players, seed=seed, options=options)
    sim = SIM.clone(checked)
    assert sim["log"] is None and _core(sim) == _core(checked)
    for n in range(decisions):
        owing = RULES.to_move(checked)
        assert set(SIM.to_move(sim)) == owing and len(SIM.to_move(sim)) == len(owing)
        assert SIM.outcome(sim) == RULES.outcome(checked)
        if not owing:
            break
        for seat in range(players):
            assert SIM.legal_moves(sim, seat) == RULES.legal_moves(checked, seat), (seed, n, seat)
        seat = chooser.choice(sorted(owing))
        legal = SIM.legal_moves(sim, seat)
        if len(legal) > 1 and chooser.random() < fast_share:
            move = bot._choose_fast(sim, seat, legal)
        else:
            move = chooser.choice(legal)
        if n % 7 == 0:  # a clone is independent of its original
            before = _core(SIM.clone(sim))
            other = SIM.clone(sim)
            SIM.play(other, seat, move)
            assert _core(sim) == before
        checked = RULES.apply(checked, seat, dict(move))
        SIM.play(sim, seat, move)
        assert _core(sim) == _core(checked), (seed, n, move)
    assert SIM.outcome(sim) == RULES.outcome(checked)
    return checked


def test_random_playouts_agree_step_by_step():
    chooser = Rng.from_seed("sim-random")
    for i in range(2000):
        players = 2 + i % 4
        options = {"meltdown_limit": i % 3 == 0}
        _side_by_side(10_000 + i, players, options, 40, 0.0, chooser)


def test_whole_games_agree_to_the_outcome():
    chooser = Rng.from_seed("sim-whole")
    finished = 0
    for i in range(100):
        players = 2 + i % 4
        final = _side_by_side(20_000 + i, players, {"meltdown_limit": i % 2 == 1}, 1500, 0.8,
                              chooser)
        finished += RULES.outcome(final) is not None
    assert finished >= 95


def _move_universe() -> list:
    values = (list(TYPE_NAMES) + list(COLORS) + list(game.DRAW_KINDS)
              + [0, 1, 2, 3, 4, 5, -1, True, False, 1.0, "1", None, "", "bogus"])
    moves: list = [None, "end", [], {}, {"type": None}, {"type": 1}, {"type": "bogus"},
                   {"kind": "S"}]
    for kind in game.MOVE_TYPES:
        moves.append({"type": kind})
        moves.append({"type": kind, "extra": 1})
        for key in ("kind", "piece", "color", "to"):
            for value in values:
                moves.append({"type": kind, key: value})
        moves.append({"type": kind, "piece": "red-S", "kind": "S"})
    return moves


def test_direct_check_accepts_and_refuses_exactly_what_the_legal_list_does():
    universe = _move_universe()
    chooser = Rng.from_seed("sim-check")
    positions = 0
    for i in range(40):
        players = 2 + i % 4
        s = RULES.new_game(players=players, seed=30_000 + i, options={"meltdown_limit": i % 2 == 0})
        for _n in range(40):
            for seat in range(players):
                legal = game.legal_moves(s, seat)
                # shapes of the move types legal here (a sample), and a sample of the rest
                near = [m for m in universe if isinstance(m, dict) and m.get("type") in
                        {x["type"] for x in legal}]
                for move in chooser.sample(near, min(60, len(near))) + chooser.sample(universe, 20):
                    expected = game.find_legal(legal, move)
                    got = game.check_move(s, seat, move)
                    assert got == expected, (i, seat, move, got, expected)
                    if got is not None:
                        assert type(got) is dict and got is not move
                for move in legal:  # every legal move is accepted as itself
                    assert game.check_move(s, seat, move) == move
            positions += 1
            owing = sorted(game.to_move(s))
            if not owing:
                break
            seat = chooser.choice(owing)
            legal = game.legal_moves(s, seat)
            move = bot._choose_fast(s, seat, legal) if chooser.random() < 0.5 else chooser.choice(legal)
            s = RULES.apply(s, seat, move)
    assert positions > 1200


def test_the_checked_apply_still_refuses_with_a_clear_error():
    s = RULES.new_game(players=2, seed=4)
    seat = s["active"]
    for bad in ({"type": "draw", "kind": "XL"}, {"type": "draw", "kind": "S", "x": 1},
                {"type": "end"}, {"type": "give", "to": True}):
        try:
            RULES.apply(s, seat, bad)
        except IllegalMove as err:
            assert err.code in ("illegal", "bad_move")
        else:
            raise AssertionError(f"{bad} was accepted")
