"""A fast simulation path for searches and benches. Never used by the write path.

The expert's two-player alpha-beta search plays on it (expert.py); the benches measure
playouts on it.

`SIMULATOR` has the interface games.engine.search and the benches call for every game:

    clone(state), to_move(state), legal_moves(state, seat), play(state, seat, move),
    outcome(state)

Its state is a `SimState` (slots, the board a dict {(r, x): tile id}, no log), made
from a rules state by `from_rules` (or straight from a seat's view with unseen tiles
dealt at random by `determinize`) and turned back by `to_rules` (the rules state
without its log: that is what the property test compares, tests/flaming_pyramids/
test_sim.py). `play` changes the state in place and trusts its move to come from
`legal_moves`: no validation, no copies, no log entries, no JSON.

What makes it cheaper than `FlamingPyramidsRules.apply` (same rules, same order):
- no state copy per move (`clone` is explicit, and only the search calls it);
- the board stays a dict between moves instead of a sorted list of lists;
- between turns the pyramid is stable, so after a placement only the placed tile
  and the (at most two) tiles resting on it can start anything: a placement that
  sets nothing off ends the turn without the full scan of `pyramid.find_event`
  (most placements of sensible players are quiet); anything else runs the same
  cascade driver as the rules;
- legal moves are shared, prebuilt move dicts (callers must not change them).
"""

from __future__ import annotations

from games.engine import Rng

from .rules import HAND_SIZE, TILE_IDS
from .rules import pyramid as P
from .rules.tiles import TILES

_W = P._W
_INC = P._INC
_IGNITES = {t: TILES[t].ignites for t in TILES}
_MAT = {t: TILES[t].material for t in TILES}
_sound = P._sound
_apply_event = P.apply_event
_scan_key = P._scan_key
_later_events = P.later_events

# §7 as bit masks over the tiles: bit t of _ON2[(a, b)] is set when tile t is sound on the
# supporters a and b, of _ON1[s] when it is sound overhanging the one supporter s.
_BIT = {t: 1 << i for i, t in enumerate(TILE_IDS)}
_ON2 = {(a, b): sum(_BIT[t] for t in TILE_IDS if _sound(t, a, b)) for a in TILE_IDS for b in TILE_IDS}
_ON1 = {a: sum(_BIT[t] for t in TILE_IDS if _sound(t, a, None)) for a in TILE_IDS}
# The same read from above (§7 is symmetric in the two supporters): bit t of _HOLDS2[(u, a)]
# is set when tile u is sound on a and t, of _HOLDS1[u] when u is sound overhanging t alone.
_HOLDS2 = {(u, a): sum(_BIT[t] for t in TILE_IDS if _sound(u, a, t)) for u in TILE_IDS for a in TILE_IDS}
_HOLDS1 = {u: sum(_BIT[t] for t in TILE_IDS if _sound(u, t, None)) for u in TILE_IDS}
_ALL = sum(_BIT.values())
_OF_WEIGHT = {w: sum(_BIT[t] for t in TILE_IDS if _W[t] == w) for w in set(_W.values())}
_INCENDIARY = sum(_BIT[t] for t in TILE_IDS if _INC[t])
# §8.5: the tiles incendiary n sets alight, and the incendiaries that set n alight
_LIT_BY = {n: sum(_BIT[t] for t in TILE_IDS if _MAT[t] in _IGNITES[n]) for n in TILE_IDS}
_LIGHTING = {n: sum(_BIT[t] for t in TILE_IDS if _INC[t] and _MAT[n] in _IGNITES[t]) for n in TILE_IDS}


def find_event(board, *, curse=False, die=False, placed=None):
    """`pyramid.find_event`: the same answer for every board, cheaper.

    The rules sort the whole board into scan order (top row first, then left to right)
    and stop at the first free-air tile; this takes the board in its dict order, keeps
    the first free-air, unsound and curse-trio cell in scan order as it goes, and sorts
    only the incendiaries. Soundness comes from the bit masks above. The simulator's
    cascades and the bots' cascade searches use it; the write path keeps the rules' own
    (tests/flaming_pyramids/test_sim.py compares the two on boards in and out of
    cascades).
    """
    fall = unsound = trio = None
    incendiaries = []
    get = board.get
    for cell, t in board.items():
        if _INC[t]:
            incendiaries.append(cell)
        r, x = cell
        if not r:
            continue
        a, b = get((r - 1, x - 1)), get((r - 1, x + 1))
        if a is None:
            if b is None:
                if fall is None or r > fall[0] or (r == fall[0] and x < fall[1]):
                    fall = cell
                continue
            ok = _ON1[b] & _BIT[t]
        elif b is None:
            ok = _ON1[a] & _BIT[t]
        else:
            ok = _ON2[(a, b)] & _BIT[t]
            if curse and _W[t] == _W[a] == _W[b] and (
                    trio is None or r > trio[0] or (r == trio[0] and x < trio[1])):
                trio = cell
        if not ok and (unsound is None or r > unsound[0] or (r == unsound[0] and x < unsound[1])):
            unsound = cell
    if fall is not None:
        return ("fall", fall)                                       # 1. free air
    if unsound is not None:                                         # 2. collapses
        r, x = unsound
        return ("collapse", unsound, [c for c in ((r - 1, x - 1), (r - 1, x + 1)) if c in board])
    incendiaries.sort(key=_scan_key)
    return _later_events(board, incendiaries, trio, die, placed)


_find_event = find_event


class _Moves(dict):
    """(r, x) -> {tile id: the place move dict}, built on first use and shared."""

    def __missing__(self, cell):
        r, x = cell
        row = self[cell] = {t: {"type": "place", "tile": t, "r": r, "x": x} for t in TILE_IDS}
        return row


_PLACE = _Moves()
_FALLS = [{"type": "fall", "direction": P.LEFT}, {"type": "fall", "direction": P.RIGHT}]
_SEATS = [frozenset([i]) for i in range(8)]
_NOBODY = frozenset()


class SimState:
    """A game state for simulation (see the module docstring)."""

    __slots__ = ("players", "curse", "die", "rng", "turn", "first", "active", "winner",
                 "hands", "hand_known", "piles", "pile_known", "board", "out", "gone",
                 "cascade", "pending")

    def __repr__(self):  # for test failures
        return f"SimState({to_rules(self)!r})"


def from_rules(state) -> SimState:
    """A SimState equal to the rules state `state` (its log is dropped)."""
    s = SimState()
    s.players = state["players"]
    s.curse = bool(state["options"]["curse"])
    s.die = bool(state["options"]["fire_die"])
    s.rng = state["rng"]
    s.turn = state["turn"]
    s.first = state["first"]
    s.active = state["active"]
    s.winner = state["winner"]
    s.hands = [list(h) for h in state["hands"]]
    s.hand_known = [list(h) for h in state["hand_known"]]
    s.piles = [list(p) for p in state["piles"]]
    s.pile_known = list(state["pile_known"])
    s.board = {(r, x): t for r, x, t in state["board"]}
    s.out = list(state["out"])
    s.gone = tuple(state.get("gone") or ())
    c = state["cascade"]
    s.cascade = None if c is None else [c["curse"], tuple(c["placed"]) if c["placed"] else None]
    p = state["pending"]
    s.pending = None if p is None else (p["r"], p["x"], p["decider"], p["tile"])
    return s


def to_rules(s: SimState) -> dict:
    """The rules state `s` stands for, without the log."""
    state = {
        "players": s.players, "options": {"curse": s.curse, "fire_die": s.die}, "rng": s.rng,
        "turn": s.turn, "first": s.first, "active": s.active, "winner": s.winner,
        "hands": [list(h) for h in s.hands], "hand_known": [list(h) for h in s.hand_known],
        "piles": [list(p) for p in s.piles], "pile_known": list(s.pile_known),
        "board": [[r, x, t] for (r, x), t in sorted(s.board.items())],
        "out": list(s.out),
        "cascade": None if s.cascade is None else {
            "curse": s.cascade[0], "placed": list(s.cascade[1]) if s.cascade[1] else None},
        "pending": None if s.pending is None else {
            "r": s.pending[0], "x": s.pending[1], "decider": s.pending[2], "tile": s.pending[3]},
    }
    if s.gone:
        state["gone"] = list(s.gone)
    return state


def determinize(view, rng: Rng) -> SimState:
    """A SimState consistent with `view`, the unseen tiles dealt at random.

    The same deal as `bot.determinize` (same draws from `rng`, same result), built
    without the intermediate rules dict.
    """
    from .bot import unseen_tiles

    pool = rng.shuffled(unseen_tiles(view))
    me = view["seat"]
    s = SimState()
    hands, piles, hand_known, pile_known = [], [], [], []
    k = 0
    for seat in view["seats"]:
        hk = [t["id"] for t in seat["hand_known"]]
        if seat["seat"] == me:
            hand = [t["id"] for t in view["hand"]]
        else:
            need = seat["hand_size"] - len(hk)
            hand = hk + pool[k:k + need]
            k += need
        known = [t["id"] for t in seat["pile_known"]]
        need = seat["pile_size"] - len(known)
        pile = pool[k:k + need] + known
        k += need
        hand.sort()
        hk.sort()
        hands.append(hand)
        piles.append(pile)
        hand_known.append(hk)
        pile_known.append(len(known))
    assert k == len(pool), "the view does not account for every tile"
    opts = view["options"]
    s.players = view["players"]
    s.curse = bool(opts["curse"])
    s.die = bool(opts["fire_die"])
    s.rng = rng.next64()
    s.turn = view["turn"]
    s.first = view["first"]
    s.active = view["active"]
    s.winner = view["winner"]
    s.hands, s.piles, s.hand_known, s.pile_known = hands, piles, hand_known, pile_known
    s.board = {(t["r"], t["x"]): t["id"] for t in view["pyramid"]}
    s.out = [t["id"] for t in view["out"]]
    s.gone = tuple(view.get("gone") or ())
    c = view["cascade"]
    s.cascade = None if c is None else [c["curse"], tuple(c["placed"]) if c["placed"] else None]
    p = view["pending"]
    s.pending = None if p is None else (p["r"], p["x"], p["decider"], p["tile"]["id"])
    return s


def spots(board):
    """`pyramid.spots` as (r, x) pairs, same order."""
    if not board:
        return [(0, 0)]
    out = []
    lo = hi = None
    for cell in board:
        r, x = cell
        if not r:
            if lo is None or x < lo:
                lo = x
            if hi is None or x > hi:
                hi = x
        if (r + 1, x + 1) not in board and (r, x + 2) in board:
            out.append((r + 1, x + 1))
    for x in range(lo + 2, hi, 2):
        if (0, x) not in board:
            out.append((0, x))
    if not out:
        return [(0, lo - 2), (0, hi + 2)]
    out.sort()
    return out


def _previous(s):
    gone = s.gone
    seat = (s.active - 1) % s.players
    while seat in gone and seat != s.active:
        seat = (seat - 1) % s.players
    return seat


def _next(s, seat):
    gone = s.gone
    nxt = (seat + 1) % s.players
    while nxt in gone and nxt != seat:
        nxt = (nxt + 1) % s.players
    return nxt


def quiet_tiles(board, cell, curse):
    """The tiles that, placed at `cell` on a board with no event, would set nothing off,
    as a bit mask (`_BIT`): `_quiet` for every tile at once. The tile at `cell`, if any,
    is not read. A spot's own supporters must hold the tile soundly without crowning a
    trio; each tile resting on the spot must stand soundly, without a trio, on the tile
    and its other supporter; no touching incendiary may set the tile alight, and an
    incendiary tile must touch no incendiary and nothing it sets alight."""
    r, x = cell
    get = board.get
    ok = _ALL
    if r:
        a, b = get((r - 1, x - 1)), get((r - 1, x + 1))
        if a is None:
            ok = _ON1[b]
        elif b is None:
            ok = _ON1[a]
        else:
            ok = _ON2[(a, b)]
            if curse and _W[a] == _W[b]:
                ok &= ~_OF_WEIGHT[_W[a]]
    for above, other in (((r + 1, x - 1), (r, x - 2)), ((r + 1, x + 1), (r, x + 2))):
        u = get(above)
        if u is not None:
            a = get(other)
            if a is None:
                ok &= _HOLDS1[u]
            else:
                ok &= _HOLDS2[(u, a)]
                if curse and _W[u] == _W[a]:
                    ok &= ~_OF_WEIGHT[_W[u]]
    for c in ((r, x - 2), (r, x + 2), (r - 1, x - 1), (r - 1, x + 1), (r + 1, x - 1), (r + 1, x + 1)):
        n = get(c)
        if n is not None:
            ok &= ~(_INCENDIARY | _LIT_BY[n]) if _INC[n] else ~_LIGHTING[n]
    return ok


def _quiet(board, cell, t, curse, die):
    """Whether placing `t` at `cell` (already on `board`, stable before) sets nothing off."""
    return bool(quiet_tiles(board, cell, curse) & _BIT[t])


def _first_event(board, cell, t, curse, die):
    """`find_event(board, curse=curse, die=die, placed=(*cell, t) if die else None)` just
    after `t` was placed at `cell` on a board that had no event (every turn starts on one),
    from the neighbourhood of `cell` alone: nothing is in free air (a spot has its support
    and the tiles above it gain one); only the tiles above `cell` and `cell` itself can
    have become unsound or crown a trio; only an incendiary at `cell` can touch another
    one; only fire through the placed tile can have started. None: the placement is quiet.
    """
    r, x = cell
    get = board.get
    trio = None
    for c in ((r + 1, x - 1), (r + 1, x + 1), cell):                # scan order
        tc = get(c)
        if tc is None or not c[0]:
            continue
        cr, cx = c
        a, b = get((cr - 1, cx - 1)), get((cr - 1, cx + 1))
        if a is None:
            ok = _ON1[b] & _BIT[tc]
        elif b is None:
            ok = _ON1[a] & _BIT[tc]
        else:
            ok = _ON2[(a, b)] & _BIT[tc]
            if curse and trio is None and _W[tc] == _W[a] == _W[b]:
                trio = c
        if not ok:                                                  # 2. collapses
            return ("collapse", c, [s for s in ((cr - 1, cx - 1), (cr - 1, cx + 1)) if s in board])
    around = ((r, x - 2), (r, x + 2), (r - 1, x - 1), (r - 1, x + 1), (r + 1, x - 1), (r + 1, x + 1))
    if _INC[t]:
        if any(_INC.get(get(c)) for c in around):                  # 3. explosions
            return P.explosion(board, cell)
        if die:                                                     # 4. fire
            cells = P.fire_tiles(board, (r, x, t))
            if cells:
                return ("roll", cells)
        else:
            burned = P.burn_set(board, cell)
            if burned:
                return ("fire", [cell], P.scan(burned))
    else:
        lit = [c for c in around if (n := get(c)) is not None and _INC[n] and _MAT[t] in _IGNITES[n]]
        if lit:
            if die:
                return ("roll", P.scan(lit))
            first = min(lit, key=_scan_key)
            return ("fire", [first], P.scan(P.burn_set(board, first)))
    if trio is not None:                                            # 5. curse
        tr, tx = trio
        return ("curse", [trio, (tr - 1, tx - 1), (tr - 1, tx + 1)])
    return None


def _run(s, event=None):
    """The cascade driver of FlamingPyramidsRules._run, without the log; `event`, when
    given, is the board's first event (`_first_event`'s)."""
    board = s.board
    cascade = s.cascade
    curse_on, die_on = s.curse, s.die
    while True:
        if event is None:
            event = _find_event(board, curse=curse_on, die=die_on, placed=cascade[1])
            if event is None:
                break
        curse_mode = cascade[0]
        to = _previous(s) if curse_mode else s.active
        kind = event[0]
        if kind == "fall":
            cell = event[1]
            decider = _next(s, to) if to in s.gone else to
            s.pending = (cell[0], cell[1], decider, board[cell])
            return
        die_value = None
        if kind == "roll":
            rng = Rng(s.rng)
            die_value = rng.randint(1, 6)
            s.rng = rng.state
            cascade[1] = None
        elif kind == "curse":
            to = _previous(s)
        sent, out, _extra = _apply_event(board, event, die_value=die_value)
        if to in s.gone:
            out = list(out) + list(sent)
            sent, to = [], None
        if sent:
            s.piles[to].extend(t for _c, t in sent)
            s.pile_known[to] += len(sent)
        if out:
            s.out.extend(t for _c, t in out)
        if kind == "curse":
            cascade[0] = True
        event = None
    _end_turn(s)


def _end_turn(s):
    seat = s.active
    s.cascade = None
    if seat not in s.gone:
        hand, pile = s.hands[seat], s.piles[seat]
        if len(hand) < HAND_SIZE and pile:
            known = s.hand_known[seat]
            drew_known = False
            while len(hand) < HAND_SIZE and pile:
                if len(pile) <= s.pile_known[seat]:
                    known.append(pile[0])
                    s.pile_known[seat] -= 1
                    drew_known = True
                hand.append(pile.pop(0))
            hand.sort()
            if drew_known:
                known.sort()
        if not hand and not pile:
            s.winner = seat
            return
    s.active = _next(s, seat)
    s.turn += 1


class Simulator:
    """The simulation interface (see the module docstring)."""

    @staticmethod
    def from_rules(state) -> SimState:
        """A simulator state equal to the rules' `state` (which stays untouched)."""
        return from_rules(state)

    @staticmethod
    def clone(s: SimState) -> SimState:
        c = SimState()
        c.players, c.curse, c.die, c.rng = s.players, s.curse, s.die, s.rng
        c.turn, c.first, c.active, c.winner = s.turn, s.first, s.active, s.winner
        c.hands = [h[:] for h in s.hands]
        c.hand_known = [h[:] for h in s.hand_known]
        c.piles = [p[:] for p in s.piles]
        c.pile_known = s.pile_known[:]
        c.board = s.board.copy()
        c.out = s.out[:]
        c.gone = s.gone
        c.cascade = None if s.cascade is None else s.cascade[:]
        c.pending = s.pending
        return c

    @staticmethod
    def to_move(s: SimState):
        if s.winner is not None:
            return _NOBODY
        if s.pending is not None:
            return _SEATS[s.pending[2]]
        return _SEATS[s.active]

    @staticmethod
    def legal_moves(s: SimState, seat: int) -> list[dict]:
        if s.winner is not None:
            return []
        if s.pending is not None:
            return list(_FALLS) if seat == s.pending[2] else []
        if seat != s.active:
            return []
        rows = [_PLACE[cell] for cell in spots(s.board)]
        # the rules' order: tile by tile, then spot by spot
        return [row[t] for t in s.hands[seat] for row in rows]

    @staticmethod
    def play(s: SimState, seat: int, move: dict) -> None:
        board = s.board
        if move["type"] == "place":
            tile, r, x = move["tile"], move["r"], move["x"]
            s.hands[seat].remove(tile)
            known = s.hand_known[seat]
            if known and tile in known:
                known.remove(tile)
            cell = (r, x)
            board[cell] = tile
            s.cascade = [False, (r, x, tile) if s.die else None]
            event = _first_event(board, cell, tile, s.curse, s.die)
            if event is None:
                _end_turn(s)
            else:
                _run(s, event)
            return
        r, x = s.pending[0], s.pending[1]
        P.fall(board, (r, x), move["direction"])
        s.pending = None
        _run(s)

    @staticmethod
    def outcome(s: SimState):
        if s.winner is None:
            return None
        gone = s.gone
        scores = {str(i): -(len(s.hands[i]) + len(s.piles[i])) for i in range(s.players)}
        for order, seat in enumerate(gone):
            scores[str(seat)] = -(len(TILE_IDS) + len(gone) - order)
        w = s.winner
        won_by_tiles = not s.hands[w] and not s.piles[w]
        result = {"winners": [w], "reason": "no_tiles_left" if won_by_tiles else "others_left",
                  "scores": scores}
        if gone:
            result["left"] = list(gone)
        return result


SIMULATOR = Simulator()
