"""The simulation path (games/flaming_pyramids/sim.py) against the checked rules.

Over thousands of seeded playouts, every player count, both variants, with and
without players leaving: after every decision the simulator's state is the rules'
state (log aside), and its legal moves, to_move and outcome are the rules' ones.
Also: the checked `apply` (which validates a move field by field instead of
regenerating the legal list) accepts exactly the moves `check_legal` accepts.
"""

from __future__ import annotations

import pytest

from games.engine import IllegalMove, Rng, check_legal
from games.flaming_pyramids import bot, sim
from games.flaming_pyramids.rules import RULES, TILE_IDS
from games.flaming_pyramids.rules import pyramid as P

S = sim.SIMULATOR
OPTION_SETS = [{}, {"curse": True}, {"fire_die": True}, {"curse": True, "fire_die": True}]


def _no_log(state):
    s = {k: v for k, v in state.items() if k != "log"}
    s["options"] = {k: bool(v) for k, v in s["options"].items()}
    return s


def _pick(state, legal, rng):
    """Half the time a random move, else a sound placement when there is one (quiet turns)."""
    if rng.randbelow(2) or legal[0]["type"] == "fall":
        return rng.choice(legal)
    board = {(r, x): t for r, x, t in state["board"]}
    sound = [m for m in legal if P.cell_state(board, (m["r"], m["x"])) in ("ground", "seated")
             and P.is_sound(board, (m["r"], m["x"]), m["tile"])]
    return rng.choice(sound or legal)


def _playout(seed, max_decisions):
    rng = Rng.from_seed(f"sim:{seed}")
    players = 2 + seed % 5
    options = OPTION_SETS[(seed // 5) % 4]
    state = RULES.new_game(players=players, seed=seed, options=options)
    fast = sim.from_rules(state)
    leaver = seed % 7 == 3 and players > 2
    for n in range(max_decisions):
        assert sim.to_rules(fast) == _no_log(state), (seed, n)
        assert S.to_move(fast) == RULES.to_move(state), (seed, n)
        assert S.outcome(fast) == RULES.outcome(state), (seed, n)
        if RULES.outcome(state) is not None:
            return n, True
        if leaver and n == 10:  # somebody leaves: the sim carries on from the rules' state
            state = RULES.resign(state, (state["active"] + 1) % players)
            fast = sim.from_rules(state)
            continue
        for seat in range(players):
            legal = RULES.legal_moves(state, seat)
            assert S.legal_moves(fast, seat) == legal, (seed, n, seat)
        seat = min(RULES.to_move(state))
        legal = RULES.legal_moves(state, seat)
        move = _pick(state, legal, rng)
        state = RULES.apply(state, seat, move)
        sim_move = S.legal_moves(fast, seat)[legal.index(move)]
        if n % 9 == 0:  # a clone is an independent copy: playing it leaves the original alone
            before = sim.to_rules(fast)
            copy = S.clone(fast)
            S.play(copy, seat, sim_move)
            assert sim.to_rules(fast) == before, (seed, n)
            fast = copy
        else:
            S.play(fast, seat, sim_move)
    return max_decisions, False


def test_simulator_matches_the_rules_over_thousands_of_playouts():
    decisions = finished = 0
    for seed in range(2_000):
        n, done = _playout(seed, 60)
        decisions += n
        finished += done
    assert decisions > 60_000
    for seed in range(5_000, 5_040):   # some whole games, to their outcome
        n, done = _playout(seed, 5_000)
        assert done, seed
        finished += 1
    assert finished >= 40


def test_determinize_is_bot_determinize():
    state = RULES.new_game(players=4, seed=77, options={"curse": True, "fire_die": True})
    rng = Rng.from_seed(3)
    for n in range(80):
        if RULES.outcome(state) is not None:
            break
        seat = min(RULES.to_move(state))
        view = RULES.view(state, seat)
        a, b = Rng.from_seed(f"d{n}"), Rng.from_seed(f"d{n}")
        expected = bot.determinize(view, a)
        expected.pop("log")
        got = sim.to_rules(sim.determinize(view, b))
        assert got == _no_log(expected) and a.state == b.state
        state = RULES.apply(state, seat, rng.choice(RULES.legal_moves(state, seat)))


def _variants(move, state, seat):
    """Moves near `move`: wrong types, extra or missing keys, other tiles and cells."""
    out = [dict(move), dict(move, extra=1), {k: v for k, v in move.items() if k != "type"}]
    if move["type"] == "place":
        out += [dict(move, r=True), dict(move, x=float(move["x"])), dict(move, r=str(move["r"])),
                dict(move, x=move["x"] + 1), dict(move, r=move["r"] + 1), dict(move, x=move["x"] - 2),
                dict(move, tile=move["tile"].upper()), dict(move, type="fall"),
                dict(move, tile=state["out"][0] if state["out"] else "millstone")]
        for hand in state["hands"]:
            out += [dict(move, tile=t) for t in hand[:2]]
    else:
        out += [dict(move, direction="up"), dict(move, direction=["left"]), {"type": "fall"},
                {"type": "place", "tile": state["hands"][seat][0] if state["hands"][seat] else "x",
                 "r": 0, "x": 0}]
    return out


@pytest.mark.parametrize("options", OPTION_SETS, ids=["base", "curse", "die", "both"])
def test_checked_apply_accepts_exactly_the_legal_moves(options):
    """The field-by-field check refuses and accepts what check_legal would, for every seat."""
    rng = Rng.from_seed(f"chk:{options}")
    tried = 0
    for seed in range(30):
        state = RULES.new_game(players=2 + seed % 3, seed=seed, options=options)
        for n in range(40):
            if RULES.outcome(state) is not None:
                break
            seat = min(RULES.to_move(state))
            legal = RULES.legal_moves(state, seat)
            for s in range(state["players"]):
                for move in _variants(rng.choice(legal), state, seat):
                    try:
                        want = check_legal(RULES.legal_moves(state, s), move)
                    except IllegalMove:
                        want = None
                    try:
                        got = RULES.apply(state, s, move)
                    except IllegalMove:
                        got = None
                    if want is None:
                        assert got is None, (seed, n, s, move)
                    else:
                        assert got == RULES.apply(state, s, want), (seed, n, s, move)
                    tried += 1
            state = RULES.apply(state, seat, rng.choice(legal))
    assert tried > 5_000


def _event_boards(seed):
    """Boards a cascade search meets: each pyramid of a seeded playout, then the same with
    one tile taken away, two swapped or an unplaced tile put on a free spot (free air,
    unsound tiles, trios, neighbouring incendiaries), each followed through its cascade."""
    rng = Rng.from_seed(f"events:{seed}")
    players = 2 + seed % 5
    state = RULES.new_game(players=players, seed=seed, options=OPTION_SETS[seed % 4])
    for _n in range(rng.randbelow(120)):
        if RULES.outcome(state) is not None:
            break
        seat = min(RULES.to_move(state))
        state = RULES.apply(state, seat, _pick(state, RULES.legal_moves(state, seat), rng))
    board = {(r, x): t for r, x, t in state["board"]}
    if seed % 3 == 0:   # or a random pyramid, up to 36 tiles: many trios, incendiaries, faults
        tiles = rng.shuffled(list(TILE_IDS))
        width = 3 + rng.randbelow(6)
        board = {(r, 2 * i + r): tiles.pop() for r in range(width) for i in range(width - r)
                 if r == 0 or rng.randbelow(8)}
    elif seed % 3 == 1:   # or a sound pyramid rich in trios of one weight (no incendiaries)
        board = _trio_pyramid(rng)
    yield board
    if len(board) < 2:
        return
    cells = sorted(board)
    for _k in range(6):
        b = dict(board)
        what = rng.randbelow(3)
        if what == 0:
            del b[rng.choice(cells)]
        elif what == 1:
            c1, c2 = rng.choice(cells), rng.choice(cells)
            b[c1], b[c2] = b[c2], b[c1]
        else:
            unplaced = [t for t in state["hands"][0] + state["piles"][0] if t not in b.values()]
            if unplaced:
                r, x, _kind = rng.choice(P.spots(b))
                b[(r, x)] = rng.choice(unplaced)
        for _step in range(40):
            yield dict(b)
            event = P.find_event(b, curse=True, die=False)
            if event is None:
                break
            if event[0] == "fall":
                P.fall(b, event[1], rng.choice([P.LEFT, P.RIGHT]))
            else:
                P.apply_event(b, event)


def _trio_pyramid(rng):
    """A stable, sound pyramid built by placements where, half the time, a tile of its two
    supporters' weight is taken when one is left (a trio for the Curse)."""
    left = [t for t in TILE_IDS if not P._INC[t]]
    board = {}
    for _n in range(40):
        r, x, _kind = rng.choice(P.spots(board))
        fits = [t for t in left if P.cell_state(board, (r, x)) in ("ground", "seated")
                and P.is_sound(board, (r, x), t)]
        if not fits:
            continue
        if r and rng.randbelow(2):
            w = P._W[board[(r - 1, x - 1)]]
            fits = [t for t in fits if P._W[t] == w == P._W[board[(r - 1, x + 1)]]] or fits
        tile = rng.choice(fits)
        board[(r, x)] = tile
        left.remove(tile)
    return board


def test_the_simulators_event_finder_gives_the_rules_answer():
    """`sim.find_event` (one unsorted pass, soundness from bit masks; the simulator's
    cascades and the bots' cascade searches use it) names the same next event as the
    rules' `pyramid.find_event` on every board, variants on and off, with and without a
    placed tile for the Fire Die."""
    compared = 0
    seen = set()
    for seed in range(600):
        for board in _event_boards(seed):
            placed = None
            if board:
                (r, x), t = max(board.items())
                placed = (r, x, t)
            for curse in (False, True):
                for die in (False, True):
                    expected = P.find_event(board, curse=curse, die=die, placed=placed if die else None)
                    assert sim.find_event(board, curse=curse, die=die,
                                          placed=placed if die else None) == expected, (seed, board)
                    compared += 1
                    seen.add(None if expected is None else expected[0])
    assert compared > 20_000
    assert seen == {None, "fall", "collapse", "explosion", "fire", "roll", "curse"}, seen


def test_the_first_event_after_a_placement_is_the_rules_answer():
    """`sim._first_event` (a placement's first event from the placed tile's neighbourhood,
    on a board that had none) names the same event as the rules' `pyramid.find_event` for
    every spot and a sample of tiles on boards stable under each pair of variants, and
    `sim._quiet` says quiet exactly when it finds none. (Which of its three cells comes
    first never decides here: two at once would need five tiles of one weight, there are
    four, or a tile above heavier than the supporter it overhung.)"""
    compared = 0
    seen = set()
    for seed in range(300):
        rng = Rng.from_seed(f"first:{seed}")
        for board in _event_boards(seed):
            for curse in (False, True):
                for die in (False, True):
                    if P.find_event(board, curse=curse, die=die, placed=None) is not None:
                        continue
                    unplaced = [t for t in TILE_IDS if t not in board.values()]
                    for r, x, _kind in P.spots(board):
                        # every tile under a tile resting on the spot (the cases where two
                        # cells can collapse or crown a trio at once), a sample elsewhere
                        under = (r + 1, x - 1) in board or (r + 1, x + 1) in board
                        for tile in unplaced if under else rng.sample(unplaced, min(6, len(unplaced))):
                            b = dict(board)
                            b[(r, x)] = tile
                            expected = P.find_event(b, curse=curse, die=die,
                                                    placed=(r, x, tile) if die else None)
                            got = sim._first_event(b, (r, x), tile, curse, die)
                            assert got == expected, (seed, board, (r, x, tile), curse, die)
                            assert sim._quiet(b, (r, x), tile, curse, die) == (expected is None)
                            assert b == {**board, (r, x): tile}
                            compared += 1
                            seen.add(None if expected is None else expected[0])
    assert compared > 20_000, compared
    assert seen == {None, "collapse", "explosion", "fire", "roll", "curse"}, seen


def test_the_greedy_fall_is_the_first_sound_landing():
    """`bot._greedy_direction` (the fall the fast level and the expert's rollouts take
    without search; it reads soundness from the simulator's masks) is the rules' reading:
    the first landing, left then right, that is on the ground or seated and sound, else
    left; for every tile of every board a cascade search meets."""
    def reference(board, cell):
        tile = board[cell]
        for direction in (P.LEFT, P.RIGHT):
            to = P.landing(cell, direction)
            if P.cell_state(board, to) in ("ground", "seated") and P.is_sound(board, to, tile):
                return direction
        return P.LEFT

    checked = 0
    rights = 0
    for seed in range(150):
        for board in _event_boards(seed):
            for cell in board:
                if cell[0]:
                    want = reference(board, cell)
                    assert bot._greedy_direction(board, cell) == want, (seed, board, cell)
                    checked += 1
                    rights += want == P.RIGHT
    assert checked > 20_000 and rights > 1_000, (checked, rights)
