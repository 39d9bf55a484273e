"""The Flaming Pyramids rules engine: setup, turns, the cascade driver, view, outcome.

The state is a plain JSON-able dict:
    players, options, rng, turn (number), first, active, winner,
    hands      [[tile ids]] per seat, sorted (secret),
    hand_known [[tile ids]] per seat: tiles everybody saw go into that hand (public),
    piles      [[tile ids]] per seat, index 0 the top (secret except the known bottom),
    pile_known [n] per seat: the last n tiles of the pile are public (they were sent
               there face up from the pyramid),
    board      [[r, x, tile id]] sorted by (r, x),
    out        [tile ids] removed from the game,
    gone       [seats] that left the game (resigned or dropped), in the order they left
               (absent in games where nobody left),
    cascade    None between turns, else {"curse": bool, "placed": [r, x, id] or None}
               (placed is kept only while the Fire Die may still roll),
    pending    None, or {"r", "x", "decider"}: a fall decision owed by `decider`,
    log        [entries]; an entry may carry "private_to" with secret "tiles".
"""

from __future__ import annotations

import json

from games.engine import (IllegalMove, Rng, Rules, _, check_legal, places_from_keys,
                          require_move_dict)

from . import pyramid as P
from .tiles import TILE_IDS, TILES, tile_info

HAND_SIZE = 5
MOVE_TYPES = ("place", "fall")


def _board_dict(state):
    return {(r, x): t for r, x, t in state["board"]}


def _board_list(board):
    return [[r, x, t] for (r, x), t in sorted(board.items())]


def previous_seat(state):
    """The player who took the turn before the active one (§8.7), among those still in."""
    gone = state.get("gone") or []
    seat = (state["active"] - 1) % state["players"]
    while seat in gone and seat != state["active"]:
        seat = (seat - 1) % state["players"]
    return seat


def next_seat(state, seat):
    """The next player after `seat` in turn order who is still in the game."""
    gone = state.get("gone") or []
    nxt = (seat + 1) % state["players"]
    while nxt in gone and nxt != seat:
        nxt = (nxt + 1) % state["players"]
    return nxt


class FlamingPyramidsRules(Rules):
    """The rules of Flaming Pyramids (RULES.md)."""

    # -- setup -------------------------------------------------------------------
    def new_game(self, *, players, seed, options=None):
        """Deal 45 tiles evenly; leftovers start the bottom row (§3)."""
        self.check_players(players)
        options = self.clean_options(options)
        rng = Rng.from_seed(seed)
        deck = rng.shuffled(list(TILE_IDS))
        each = len(deck) // players
        piles = [deck[i * each:(i + 1) * each] for i in range(players)]
        leftovers = deck[players * each:]
        out = [t for t in leftovers if TILES[t].incendiary]
        # §3.2 [REC]: the other leftovers go contiguously from (0,0) in dealt order.
        kept = [t for t in leftovers if not TILES[t].incendiary]
        board = [[0, 2 * i, t] for i, t in enumerate(kept)]
        hands = [sorted(p[:HAND_SIZE]) for p in piles]
        piles = [p[HAND_SIZE:] for p in piles]
        first = rng.randbelow(players)  # §3.4 [REC]: seeded random first player
        log = [{"kind": "start", "players": players, "first": first,
                "board": [list(c) for c in board], "removed": list(out),
                "hand_sizes": [len(h) for h in hands], "pile_sizes": [len(p) for p in piles]},
               {"kind": "turn", "seat": first, "turn": 1}]
        return {
            "players": players, "options": options, "rng": rng.state, "turn": 1,
            "first": first, "active": first, "winner": None,
            "hands": hands, "hand_known": [[] for _ in range(players)],
            "piles": piles, "pile_known": [0] * players,
            "board": board, "out": out, "cascade": None, "pending": None, "log": log,
        }

    # -- who decides ---------------------------------------------------------------
    def to_move(self, state):
        if state["winner"] is not None:
            return frozenset()
        pending = state["pending"]
        if pending is not None:
            return frozenset([pending["decider"]])
        return frozenset([state["active"]])

    def legal_moves(self, state, seat):
        if state["winner"] is not None:
            return []
        pending = state["pending"]
        if pending is not None:
            if seat != pending["decider"]:
                return []
            return [{"type": "fall", "direction": P.LEFT}, {"type": "fall", "direction": P.RIGHT}]
        if seat != state["active"]:
            return []
        cells = P.spots(_board_dict(state))
        return [{"type": "place", "tile": t, "r": r, "x": x}
                for t in state["hands"][seat] for (r, x, _k) in cells]

    # -- moves -----------------------------------------------------------------------
    def apply(self, state, seat, move):
        self.require_seat(state, seat, state["players"])
        kind = require_move_dict(move, MOVE_TYPES)
        board = _board_dict(state)
        move = self._check_move(state, board, seat, kind, move)
        s = self._copy(state)
        if kind == "place":
            self._move_place(s, board, seat, move)
        else:
            self._move_fall(s, board, seat, move, state["pending"])
        self._run(s, board)
        s["board"] = _board_list(board)
        return s

    @staticmethod
    def _check_move(state, board, seat, kind, move):
        """The move, validated field by field; exactly the moves of legal_moves pass.

        Equivalent to check_legal against the generated list, without building it.
        """
        pending = state["pending"]
        if kind == "fall":
            if pending is not None and set(move) == {"type", "direction"} \
                    and move["direction"] in (P.LEFT, P.RIGHT) and type(move["direction"]) is str:
                return {"type": "fall", "direction": move["direction"]}
        elif pending is None and set(move) == {"type", "tile", "r", "x"}:
            tile, r, x = move["tile"], move["r"], move["x"]
            if type(tile) is str and type(r) is int and type(x) is int \
                    and tile in state["hands"][seat] and (r, x) in {(a, b) for a, b, _k in P.spots(board)}:
                return {"type": "place", "tile": tile, "r": r, "x": x}
        raise IllegalMove(_("That move is not allowed now."), code="illegal")

    @staticmethod
    def _copy(state):
        s = dict(state)
        for key in ("hands", "hand_known", "piles"):
            s[key] = [list(v) for v in state[key]]
        s["pile_known"] = list(state["pile_known"])
        s["out"] = list(state["out"])
        s["log"] = list(state["log"])
        s["cascade"] = dict(state["cascade"]) if state["cascade"] else None
        s["pending"] = None
        return s

    def _move_place(self, s, board, seat, move):
        tile, r, x = move["tile"], move["r"], move["x"]
        s["hands"][seat].remove(tile)
        if tile in s["hand_known"][seat]:
            s["hand_known"][seat].remove(tile)
        sound = P.is_sound(board, (r, x), tile) and P.cell_state(board, (r, x)) in ("ground", "seated")
        board[(r, x)] = tile
        s["log"].append({"kind": "place", "seat": seat, "tile": tile, "r": r, "x": x, "sound": sound})
        die = s["options"]["fire_die"]
        s["cascade"] = {"curse": False, "placed": [r, x, tile] if die else None}

    def _move_fall(self, s, board, seat, move, pending):
        cell = (pending["r"], pending["x"])
        tile = board[cell]
        to = P.fall(board, cell, move["direction"])
        s["log"].append({"kind": "fall", "seat": seat, "tile": tile, "from": list(cell),
                         "to": list(to), "direction": move["direction"]})

    # -- the cascade driver (§8) -------------------------------------------------------
    def _run(self, s, board):
        """Resolve events until a fall decision is owed or the pyramid is stable."""
        cascade = s["cascade"]
        opts = s["options"]
        while True:
            placed = cascade["placed"]
            event = P.find_event(board, curse=opts["curse"], die=opts["fire_die"],
                                 placed=placed)
            if event is None:
                break
            curse_mode = cascade["curse"]
            to = previous_seat(s) if curse_mode else s["active"]
            kind = event[0]
            if kind == "fall":
                cell = event[1]
                # A player who left decides nothing: the next player still in does.
                decider = next_seat(s, to) if to in (s.get("gone") or []) else to
                s["pending"] = {"r": cell[0], "x": cell[1], "decider": decider,
                                "tile": board[cell]}
                return
            die_value = None
            if kind == "roll":
                rng = Rng(s["rng"])
                die_value = rng.randint(1, 6)
                s["rng"] = rng.state
                cascade["placed"] = None  # §10.2: at most one roll per turn
            if kind == "curse":
                to = previous_seat(s)
            sources = {"collapse": [event[1]], "explosion": event[1], "fire": event[1],
                       "roll": event[1], "curse": []}[kind]
            sources = [{"tile": board[c], "r": c[0], "x": c[1]} for c in sources]
            sent, out, extra = P.apply_event(board, event, die_value=die_value)
            if to in (s.get("gone") or []):
                # Tiles for a player who left leave the game, face up (to: None).
                out = list(out) + list(sent)
                sent, to = [], None
            entry = {"kind": kind, "to": to,
                     "sent": [{"tile": t, "r": c[0], "x": c[1]} for c, t in sent],
                     "out": [t for _c, t in out]}
            if kind == "collapse":
                entry["tile"] = sources[0]
            elif kind in ("explosion", "fire", "roll"):
                entry["incendiaries"] = sources
            if kind == "roll":
                entry["value"] = die_value
                entry["result"] = extra["result"]
            s["log"].append(entry)
            self._send(s, to, [t for _c, t in sent])
            s["out"].extend(entry["out"])
            if kind == "curse":
                cascade["curse"] = True
        self._end_turn(s, board)

    @staticmethod
    def _send(s, seat, tiles):
        """Put `tiles` one by one under `seat`'s draw pile, face up (§8.7)."""
        if tiles:
            s["piles"][seat].extend(tiles)
            s["pile_known"][seat] += len(tiles)

    def _end_turn(self, s, board):
        """Refill, check the win, pass the turn (§4, §9)."""
        seat = s["active"]
        s["cascade"] = None
        if seat in (s.get("gone") or []):  # the turn of a player who left ends here
            self._pass_turn(s, seat)
            return
        hand, pile = s["hands"][seat], s["piles"][seat]
        drawn, known = [], []
        while len(hand) < HAND_SIZE and pile:
            public = len(pile) <= s["pile_known"][seat]
            tile = pile.pop(0)
            if public:
                known.append(tile)
                s["hand_known"][seat].append(tile)
                s["pile_known"][seat] -= 1
            drawn.append(tile)
            hand.append(tile)
        hand.sort()
        s["hand_known"][seat].sort()
        if drawn:
            s["log"].append({"kind": "draw", "seat": seat, "count": len(drawn), "known": known,
                             "private_to": seat, "tiles": drawn})
        if not hand and not pile:
            s["winner"] = seat
            s["log"].append({"kind": "win", "seat": seat, "turn": s["turn"]})
            return
        self._pass_turn(s, seat)

    @staticmethod
    def _pass_turn(s, seat):
        s["active"] = next_seat(s, seat)
        s["turn"] += 1
        s["log"].append({"kind": "turn", "seat": s["active"], "turn": s["turn"]})

    # -- leaving the game ----------------------------------------------------------------
    def resign(self, state, seat):
        """`seat` leaves the game (resigned, or dropped when their clock ran out).

        With two players the other wins at once. With more, the others play on: the
        leaver's hand and draw pile leave the game face down (only their number is
        told), turns skip them, the "previous player" of §8.7 is the one before them
        still in, and tiles the rest of a cascade would send them leave the game face
        up. A fall decision they owed passes to the next player still in; if it was
        their turn, it ends once the cascade does. The last player still in wins. In
        the final ranking whoever left ranks below everyone still in, earlier leavers
        lower.
        """
        s = self._copy(state)
        s["pending"] = dict(state["pending"]) if state["pending"] else None
        gone = list(state.get("gone") or [])
        if s["winner"] is not None or seat in gone or type(seat) is not int \
                or not 0 <= seat < s["players"]:
            return s
        gone.append(seat)
        s["gone"] = gone
        count = len(s["hands"][seat]) + len(s["piles"][seat])
        s["hands"][seat], s["piles"][seat] = [], []
        s["hand_known"][seat], s["pile_known"][seat] = [], 0
        s["log"].append({"kind": "resign", "seat": seat, "tiles": count})
        still = [p for p in range(s["players"]) if p not in gone]
        if len(still) == 1:
            s["winner"] = still[0]
            s["pending"] = None
            s["cascade"] = None
            s["log"].append({"kind": "win", "seat": still[0], "turn": s["turn"],
                             "reason": "others_left"})
            return s
        pending = s["pending"]
        if pending is not None and pending["decider"] == seat:
            curse = bool(s["cascade"] and s["cascade"]["curse"])
            pending["decider"] = previous_seat(s) if curse else next_seat(s, seat)
        if pending is None and s["active"] == seat:
            s["cascade"] = None
            self._pass_turn(s, seat)
        return s

    # -- reading -------------------------------------------------------------------------
    def view(self, state, seat):
        """Everything `seat` may see (None: a spectator), as an explicit whitelist (§11)."""
        players = state["players"]
        if type(seat) is not int or not 0 <= seat < players:
            seat = None
        board = _board_dict(state)
        pyramid = [dict(tile_info(t), r=r, x=x, state=P.cell_state(board, (r, x)))
                   for (r, x), t in sorted(board.items(), key=lambda kv: P.scan_key(kv[0]))]
        over = state["winner"] is not None
        pending = state["pending"]
        pending_view = None
        if pending is not None:
            cell = (pending["r"], pending["x"])
            left, right = P.landing(cell, P.LEFT), P.landing(cell, P.RIGHT)
            pending_view = {"tile": tile_info(pending["tile"]), "r": cell[0], "x": cell[1],
                            "decider": pending["decider"],
                            "left": {"r": left[0], "x": left[1]},
                            "right": {"r": right[0], "x": right[1]},
                            "curse": bool(state["cascade"] and state["cascade"]["curse"])}
        spots = []
        if not over and pending is None:
            spots = [{"r": r, "x": x, "kind": k} for r, x, k in P.spots(board)]
        seats = []
        for i in range(players):
            pile = state["piles"][i]
            known = state["pile_known"][i]
            seats.append({
                "seat": i, "hand_size": len(state["hands"][i]), "pile_size": len(pile),
                "tiles": len(state["hands"][i]) + len(pile),
                "pile_known": [tile_info(t) for t in pile[len(pile) - known:]] if known else [],
                "hand_known": [tile_info(t) for t in state["hand_known"][i]],
            })
        cascade = state["cascade"]
        return {
            "players": players, "seat": seat, "options": dict(state["options"]),
            "turn": state["turn"], "first": state["first"], "active": state["active"],
            "previous": previous_seat(state), "winner": state["winner"], "over": over,
            "gone": list(state.get("gone") or []),
            "phase": "over" if over else ("fall" if pending is not None else "place"),
            "to_move": sorted(self.to_move(state)),
            "pyramid": pyramid, "spots": spots, "pending": pending_view,
            "cascade": None if cascade is None else {
                "curse": cascade["curse"],
                "placed": list(cascade["placed"]) if cascade["placed"] else None},
            "hand": [tile_info(t) for t in state["hands"][seat]] if seat is not None else None,
            "seats": seats,
            "out": [tile_info(t) for t in state["out"]],
            "log": self._log_for(state["log"], seat),
        }

    @staticmethod
    def _log_for(log, seat):
        out = []
        for entry in log:
            if "private_to" in entry:
                entry = dict(entry)
                if entry.pop("private_to") != seat:
                    entry.pop("tiles", None)
            out.append(entry)
        return out

    def outcome(self, state):
        """The winner; scores are minus the tiles each player still owns (§13.14 [REC]).

        A player who left scores below anyone still in (earlier leavers lower); when
        the others left, the reason is "others_left".
        """
        if state["winner"] is None:
            return None
        gone = state.get("gone") or []
        scores = {str(i): -(len(state["hands"][i]) + len(state["piles"][i]))
                  for i in range(state["players"])}
        for order, seat in enumerate(gone):
            scores[str(seat)] = -(len(TILE_IDS) + len(gone) - order)
        won_by_tiles = not state["hands"][state["winner"]] and not state["piles"][state["winner"]]
        result = {"winners": [state["winner"]],
                  "reason": "no_tiles_left" if won_by_tiles else "others_left", "scores": scores}
        if gone:
            result["left"] = list(gone)
        return result

    def result(self, state):
        """The winner first, then the others by tiles they still own (fewer is better)."""
        if state["winner"] is None:
            return None
        n = state["players"]
        scores = [-(len(state["hands"][i]) + len(state["piles"][i])) for i in range(n)]
        keys = [(int(i == state["winner"]), scores[i]) for i in range(n)]
        return {"places": places_from_keys(keys), "scores": scores, "winners": [state["winner"]]}

    def dump(self, state):
        return json.loads(json.dumps(state))

    def load(self, data):
        return json.loads(json.dumps(data))

    def preview(self, state, seat, move):
        """What a move will do, from what `seat` may know (see preview.preview_view)."""
        from .preview import preview_view
        self.require_seat(state, seat, state["players"])
        require_move_dict(move, MOVE_TYPES)
        check_legal(self.legal_moves(state, seat), move)
        return preview_view(self.view(state, seat), move)

