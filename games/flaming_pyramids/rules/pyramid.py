"""Geometry of the pyramid and the mayhem cascade (RULES.md §5–§8, §10).

A board is a dict {(r, x): tile_id}. `r` is the row (0 on the table), `x` the
centre of the tile in half-tile units (parity of x equals parity of r). These
functions know nothing about hands, piles or logs: `find_event` names the next
thing that happens and `apply_event` does it to the board, returning which
tiles left the pyramid; the game (and the preview, and the bots) route them.
"""

from __future__ import annotations

from .tiles import TILES

LEFT, RIGHT = "left", "right"

# Fire Die faces (§10.2 [REC]): 1–3 fire and the igniter stays, 4 fire and the
# igniter leaves, 5 explosion, 6 smoke.
DIE_RESULTS = {1: "fire_stays", 2: "fire_stays", 3: "fire_stays", 4: "fire_removed",
               5: "explosion", 6: "smoke"}
DIE_FACES = {"fire_stays": (1, 2, 3), "fire_removed": (4,), "explosion": (5,), "smoke": (6,)}


def scan_key(cell):
    """Sort key: top to bottom, then left to right (§8.1)."""
    return (-cell[0], cell[1])


class _ScanKeys(dict):
    """A cache of scan keys: sorting with its C-level __getitem__ is much faster."""

    def __missing__(self, cell):
        key = self[cell] = (-cell[0], cell[1])
        return key


_SCAN = _ScanKeys()
_scan_key = _SCAN.__getitem__


def scan(cells):
    """Cells in scan order."""
    return sorted(cells, key=_scan_key)


def supporters(cell):
    """The lower-left and lower-right cells."""
    r, x = cell
    return (r - 1, x - 1), (r - 1, x + 1)


def touching(cell):
    """The six edge-sharing cells (§5.2 [REC]): sides, supporters, supported."""
    r, x = cell
    return ((r, x - 2), (r, x + 2), (r - 1, x - 1), (r - 1, x + 1), (r + 1, x - 1), (r + 1, x + 1))


def landing(cell, direction):
    """Where a free-air tile at `cell` lands after one step (§8.2)."""
    r, x = cell
    return (r - 1, x - 1) if direction == LEFT else (r - 1, x + 1)


def cell_state(board, cell):
    """"ground", "seated", "overhang" or "free" (§5.3)."""
    if cell[0] == 0:
        return "ground"
    a, b = supporters(cell)
    n = (a in board) + (b in board)
    return ("free", "overhang", "seated")[n]


_W = {t: TILES[t].weight for t in TILES}
_C = {t: TILES[t].colours for t in TILES}
_INC = {t: TILES[t].incendiary for t in TILES}


def _sound(t, a, b):
    """§7 for tile `t` on supporters `a` and `b` (either may be None, not both)."""
    if a is not None and b is not None:
        w = _W[t]
        wa, wb = _W[a], _W[b]
        if w > wa + wb:
            return False
        c = _C[t]
        return bool(c & _C[a]) or bool(c & _C[b]) or w == wa or w == wb
    # §7 [BRIEF]: an overhang needs the same colour and no more weight; numbers do not count.
    s = a if a is not None else b
    return _W[t] <= _W[s] and bool(_C[t] & _C[s])


def is_sound(board, cell, tile_id=None):
    """Whether the tile at `cell` (or `tile_id` put there) obeys §7; ground and free air count as sound."""
    r, x = cell
    if r == 0:
        return True
    a, b = board.get((r - 1, x - 1)), board.get((r - 1, x + 1))
    if a is None and b is None:
        return True
    return _sound(tile_id or board[cell], a, b)


def spots(board):
    """Available spots as (r, x, kind) with kind top/gap/extend/start (§6)."""
    if not board:
        return [(0, 0, "start")]
    out = []
    for (r, x) in board:
        above = (r + 1, x + 1)
        if above not in board and (r, x + 2) in board:
            out.append((r + 1, x + 1, "top"))
    ground = [x for (r, x) in board if r == 0]
    lo, hi = min(ground), max(ground)
    for x in range(lo + 2, hi, 2):
        if (0, x) not in board:
            out.append((0, x, "gap"))
    if not out:
        out = [(0, lo - 2, "extend"), (0, hi + 2, "extend")]
    out.sort(key=lambda s: (s[0], s[1]))
    return out


def _can_ignite(igniter_id, tile_id):
    return TILES[tile_id].material in TILES[igniter_id].ignites


def burn_set(board, igniter):
    """Cells burned by the incendiary at `igniter`: a flood through its fuels (§8.5)."""
    iid = board[igniter]
    seen = set()
    todo = [c for c in touching(igniter) if c in board and _can_ignite(iid, board[c])]
    while todo:
        c = todo.pop()
        if c in seen:
            continue
        seen.add(c)
        todo.extend(n for n in touching(c) if n in board and n not in seen and _can_ignite(iid, board[n]))
    return seen


def fire_tiles(board, placed):
    """With the Fire Die: the incendiaries the placed tile sets off, or [] (§10.2)."""
    r, x, tid = placed
    cell = (r, x)
    if board.get(cell) != tid:
        return []
    t = TILES[tid]
    if t.incendiary:
        if any(c in board and _can_ignite(tid, board[c]) for c in touching(cell)):
            return [cell]
        return []
    return scan(c for c in touching(cell) if c in board and TILES[board[c]].incendiary
                and _can_ignite(board[c], tid))


def find_event(board, *, curse=False, die=False, placed=None):
    """The next mayhem event in check order (§8.1), or None when stable.

    Returns one of ("fall", cell), ("collapse", cell, [supporter cells]),
    ("explosion", [incendiary cells], [blasted cells]), ("fire", [igniter], [burned]),
    ("roll", [fire tile cells]) or ("curse", [top, lower-left, lower-right]).
    `placed` is (r, x, tile) of this turn's tile while the Fire Die may still roll.
    One pass in scan order gathers what every check needs.
    """
    unsound = trio = None
    incendiaries = []
    for cell in sorted(board, key=_scan_key):
        t = board[cell]
        if _INC[t]:
            incendiaries.append(cell)
        r, x = cell
        if not r:
            continue
        la, lb = (r - 1, x - 1), (r - 1, x + 1)
        a, b = board.get(la), board.get(lb)
        if a is None and b is None:
            return ("fall", cell)                                   # 1. free air
        if unsound is None and not _sound(t, a, b):
            unsound = (cell, [c for c in (la, lb) if c in board])
        if curse and trio is None and a is not None and b is not None and _W[t] == _W[a] == _W[b]:
            trio = [cell, la, lb]
    if unsound is not None:
        return ("collapse", unsound[0], unsound[1])                 # 2. collapses
    return later_events(board, incendiaries, trio and trio[0], die, placed)


def later_events(board, incendiaries, trio, die, placed):
    """`find_event` on a board without free-air or unsound tiles: explosions, fire, the
    Curse, from its incendiaries in scan order and its first trio's top cell in scan order
    (or None). The simulator's event finder ends with it too (sim.find_event)."""
    if len(incendiaries) > 1:                                       # 3. explosions
        for cell in incendiaries:
            if any(c in board and _INC[board[c]] for c in touching(cell)):
                return explosion(board, cell)
    if die:                                                         # 4. fire
        if placed is not None:
            cells = fire_tiles(board, placed)
            if cells:
                return ("roll", cells)
    else:
        for cell in incendiaries:
            burned = burn_set(board, cell)
            if burned:
                return ("fire", [cell], scan(burned))
    if trio is not None:                                            # 5. curse
        r, x = trio
        return ("curse", [trio, (r - 1, x - 1), (r - 1, x + 1)])
    return None


def explosion(board, cell):
    """The explosion of the touching incendiaries that hold `cell` (§8.4): the group's
    cells and the cells it blasts, each in scan order."""
    group, todo = set(), [cell]
    while todo:
        c = todo.pop()
        if c in group:
            continue
        group.add(c)
        todo.extend(n for n in touching(c) if n in board and _INC[board[n]])
    blasted = {n for c in group for n in touching(c) if n in board and n not in group}
    return ("explosion", scan(group), scan(blasted))


def take(board, cells):
    """Remove `cells` from the board; (cell, tile id) pairs in the given order."""
    return [(c, board.pop(c)) for c in cells]


def apply_event(board, event, *, die_value=None):
    """Do `event` (not a fall) to `board`; returns (sent, out, extra).

    `sent` are (cell, tile id) pairs that go under the recipient's draw pile (in
    order), `out` those removed from the game, `extra` facts for the log.
    """
    kind = event[0]
    if kind == "collapse":
        return take(board, event[2]), [], {}
    if kind == "explosion":
        blasted = take(board, event[2])
        return blasted, take(board, event[1]), {}
    if kind == "fire":
        burned = take(board, event[2])
        return burned, take(board, event[1]), {}
    if kind == "curse":
        return take(board, event[1]), [], {}
    if kind == "roll":
        result = DIE_RESULTS[die_value]
        cells = event[1]
        if result in ("fire_stays", "fire_removed"):
            burned = set()
            for c in cells:
                burned |= burn_set(board, c)
            sent = take(board, scan(burned))
            out = take(board, cells) if result == "fire_removed" else []
            return sent, out, {"result": result}
        if result == "explosion":
            blasted = {n for c in cells for n in touching(c) if n in board and n not in cells}
            sent = take(board, scan(blasted))
            return sent, take(board, cells), {"result": result}
        return [], [], {"result": result}
    raise ValueError(kind)


def fall(board, cell, direction):
    """Move the free-air tile at `cell` one step down to `direction`; its new cell."""
    to = landing(cell, direction)
    board[to] = board.pop(cell)
    return to
