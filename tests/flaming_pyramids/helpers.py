"""Shared helpers for the Flaming Pyramids tests: positions built by hand, invariants."""

from __future__ import annotations

from games.flaming_pyramids.rules import RULES, TILE_IDS
from games.flaming_pyramids.rules import pyramid as P


def position(board, *, hand, players=2, active=0, options=None, piles=None, out=()):
    """A state with `board` {(r, x): tile} and the active seat holding `hand`.

    The other tiles are dealt to the draw piles (or as given in `piles`) so that
    all 45 tiles are somewhere; every other seat gets up to five of them in hand.
    """
    used = set(board.values()) | set(hand) | set(out)
    for p in piles or []:
        used |= set(p)
    rest = [t for t in TILE_IDS if t not in used]
    hands = [[] for _ in range(players)]
    hands[active] = sorted(hand)
    for seat in range(players):
        if seat != active:
            hands[seat] = sorted(rest[:5])
            rest = rest[5:]
    if piles is None:
        piles = [[] for _ in range(players)]
        for i, t in enumerate(rest):
            piles[i % players].append(t)
    else:
        piles = [list(p) for p in piles]
        piles[(active + 1) % players].extend(rest)
    state = RULES.new_game(players=players, seed=1, options=options or {})
    state.update({
        "active": active, "first": active, "hands": hands, "piles": piles,
        "hand_known": [[] for _ in range(players)], "pile_known": [0] * players,
        "board": [[r, x, t] for (r, x), t in sorted(board.items())], "out": list(out),
        "cascade": None, "pending": None, "winner": None, "log": [],
    })
    check_tiles(state)
    return state


def board_of(state):
    """The state's pyramid as {(r, x): tile}."""
    return {(r, x): t for r, x, t in state["board"]}


def check_tiles(state):
    """Invariant: the 45 tiles are each in exactly one place."""
    places = [*state["out"], *(t for _r, _x, t in state["board"])]
    for h in state["hands"]:
        places.extend(h)
    for p in state["piles"]:
        places.extend(p)
    assert len(places) == 45, f"{len(places)} tiles accounted for"
    assert sorted(places) == sorted(TILE_IDS), "a tile is missing or doubled"


def invariant(state):
    """The game-specific invariants checked on every state of the harness."""
    check_tiles(state)
    players = state["players"]
    for seat in range(players):
        assert len(state["hands"][seat]) <= 5
        assert 0 <= state["pile_known"][seat] <= len(state["piles"][seat])
        assert set(state["hand_known"][seat]) <= set(state["hands"][seat])
    board = board_of(state)
    for (r, x) in board:
        assert r >= 0 and (x - r) % 2 == 0, "bad cell parity"
    if state["winner"] is not None:
        w = state["winner"]
        assert not state["hands"][w] and not state["piles"][w], "winner still owns tiles"
        assert state["pending"] is None
        assert state["log"][-1]["kind"] == "win" and state["log"][-1]["seat"] == w
        assert state["active"] == w
        return
    # Nobody else may hold zero tiles: the first to end a turn empty wins at once.
    if state["pending"] is None:
        # Asked to place: the pyramid is stable and the active player holds a tile.
        assert state["cascade"] is None
        opts = state["options"]
        assert P.find_event(board, curse=opts["curse"], die=opts["fire_die"]) is None, \
            "asked to place on an unstable pyramid"
        assert state["hands"][state["active"]], "active player has no tile"
        for seat in range(players):
            assert state["hands"][seat] or state["piles"][seat], f"seat {seat} has no tiles"
    else:
        cell = (state["pending"]["r"], state["pending"]["x"])
        assert P.cell_state(board, cell) == "free"
