"""Shared helpers for the Gizmos tests: prepared positions and the invariants."""

from __future__ import annotations

from games.engine import Rng, get_rules
from games.gizmos.rules import CARDS, COLORS

RULES = get_rules("gizmos")


def invariant(s: dict) -> None:
    """Game-specific invariants checked on every state of every playout."""
    # 52 spheres: row + supply + storages, never twice (payment keeps spheres in storage).
    for c in COLORS:
        total = s["supply"][c] + s["row"].count(c) + sum(p["energy"][c] for p in s["seats"])
        assert total == 13, f"{c}: {total} spheres"
        assert s["supply"][c] >= 0
    assert len(s["row"]) <= 6
    if sum(s["supply"].values()):
        assert len(s["row"]) == 6, "the row is short while the supply has spheres"
    # 112 cards, each in exactly one place.
    places = []
    for deck in s["decks"].values():
        places += deck
    places += s["removed"] + s["box"]
    for row in s["display"].values():
        places += [c for c in row if c is not None]
    for p in s["seats"]:
        places += p["archive"] + p["gizmos"]
    if s["research"]:
        places += s["research"]["cards"]
    assert len(places) == 112 and set(places) == set(CARDS), "cards lost or duplicated"
    for p in s["seats"]:
        from games.gizmos.rules.cards import limits
        lim = limits(p["gizmos"])
        assert sum(p["energy"].values()) <= lim["energy_limit"], "storage above its limit"
        assert min(p["energy"].values()) >= 0
        assert len(p["archive"]) <= lim["file_limit"], "archive above its limit"
    # No gizmo used twice in a turn; armed gizmos are never used ones.
    assert len(set(s["used"])) == len(s["used"]), "a gizmo used twice in one turn"
    assert not set(s["used"]) & set(s["armed"])
    if s["phase"] == "pay":
        pend = s["pending"]
        for c in COLORS:
            assert pend["spent"][c] <= s["seats"][s["current"]]["energy"][c]


def light_playout(seed: int, players: int, *, check=invariant, max_decisions: int = 5000) -> dict:
    """A random game played in place (no copies); `check` on every state; returns the end state."""
    state = RULES.new_game(players=players, seed=seed)
    chooser = Rng.from_seed(seed * 31 + players)
    used_log = {}
    for _ in range(max_decisions):
        check(state)
        if state["over"]:
            return state
        seat = state["current"]
        moves = RULES.legal_moves(state, seat)
        move = chooser.choice(moves)
        if move["type"] == "use":
            key = (state["round"], seat)
            assert move["gizmo"] not in used_log.get(key, ()), "gizmo offered twice in one turn"
            used_log.setdefault(key, set()).add(move["gizmo"])
        RULES.apply_unchecked(state, seat, move)
    raise AssertionError(f"seed {seed}: no end after {max_decisions} decisions")


def prepared(players: int = 2, seed: int = 1, *, seat: int | None = None) -> dict:
    """A fresh game whose current seat is `seat` (default: the first player), in its main phase."""
    s = RULES.new_game(players=players, seed=seed)
    if seat is not None:
        s["current"] = seat
    return s


def place(s: dict, cid: str) -> None:
    """Move card `cid` out of wherever it is (deck, removed, display, a player)."""
    for deck in s["decks"].values():
        if cid in deck:
            deck.remove(cid)
    if cid in s["removed"]:
        s["removed"].remove(cid)
    for row in s["display"].values():
        if cid in row:
            row[row.index(cid)] = None
    for p in s["seats"]:
        for key in ("archive", "gizmos"):
            if cid in p[key]:
                p[key].remove(cid)


def give(s: dict, seat: int, *cids: str) -> None:
    """Put gizmos into `seat`'s active area."""
    for cid in cids:
        place(s, cid)
        s["seats"][seat]["gizmos"].append(cid)


def to_display(s: dict, cid: str, keep: tuple = ()) -> None:
    """Put `cid` face up in the display of its level (replacing a card not in `keep`)."""
    lvl = str(CARDS[cid]["level"])
    place(s, cid)
    row = s["display"][lvl]
    slot = row.index(None) if None in row else next(i for i, c in enumerate(row) if c not in keep)
    old = row[slot]
    if old is not None:
        s["removed"].append(old)
    row[slot] = cid


def set_energy(s: dict, seat: int, **counts: int) -> None:
    """Set a seat's storage, moving spheres to or from the supply."""
    p = s["seats"][seat]
    for c in COLORS:
        want = counts.get(c, 0)
        delta = want - p["energy"][c]
        s["supply"][c] -= delta
        p["energy"][c] = want
        assert s["supply"][c] >= 0


def set_row(s: dict, *colors: str) -> None:
    """Set the energy row (the old row goes back to the supply)."""
    for c in s["row"]:
        s["supply"][c] += 1
    for c in colors:
        s["supply"][c] -= 1
    s["row"] = list(colors)


def play(s: dict, *moves: dict) -> dict:
    """Apply `moves` for the current seat (through the checked `apply`)."""
    for move in moves:
        s = RULES.apply(s, s["current"], move)
    return s
