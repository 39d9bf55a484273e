"""A fast simulation path for the bots' search; never used by the write path.

`SIMULATOR` has the interface every game's simulator offers (games.engine.search,
bench/bench_bots.py): ``clone(state)``, ``to_move(state)``, ``legal_moves(state, seat)``,
``play(state, seat, move)`` and ``outcome(state)``.

A simulated state is the rules' state dict (rules/game.py) with ``"log": None``:
the rules' effects keep no log for it, which is most of what they allocate. Compared
with the checked path (`PowerhouseRules.apply`):

- ``clone`` copies only what a move can change (the networks, the bag, the stamps,
  the reaction's positions and what is pending), never the log;
- ``legal_moves`` returns shared, prebuilt move dicts (never change them), with the
  draw lists looked up by which sizes are left in the bag;
- ``play`` changes the state in place and trusts the move to come from
  ``legal_moves``: no seat check, no move check, no copy;
- ``to_move`` is a tuple instead of a frozenset.

tests/powerhouse/test_sim.py plays thousands of seeded playouts through both paths and
checks they agree at every step (states, legal moves, seats to move, outcomes).
"""

from __future__ import annotations

from .rules import RULES, game
from .rules.pieces import (
    COLOR_INDEX, COLORS, COPIES, NC, NS, NTYPES, TYPE_INDEX, TYPE_NAMES, batteries, is_clean,
    is_protected, position_key, tidx,
)

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15   # games.engine.rng's SplitMix64, inlined for the draws
_LIMIT = [0] + [(1 << 64) - ((1 << 64) % n) for n in range(1, NC * COPIES + 1)]
_KIND_BASE = {k: z * NC for z, k in enumerate(game.DRAW_KINDS[:NS])}

_DRAW = tuple({"type": "draw", "kind": k} for k in game.DRAW_KINDS)
_FIRE = tuple({"type": "fire", "piece": TYPE_NAMES[t]} for t in range(NTYPES))
_BATTERY = tuple({"type": "battery", "color": c} for c in COLORS)
_DUMP = tuple({"type": "dump", "piece": TYPE_NAMES[t]} for t in range(NTYPES))
_DISCARD = tuple({"type": "discard", "piece": TYPE_NAMES[t]} for t in range(NTYPES))
_TRANSFORM = tuple({"type": "transform", "piece": TYPE_NAMES[t]} for t in range(NTYPES))
_TAKE = tuple({"type": "take", "piece": TYPE_NAMES[t]} for t in range(NTYPES))
_GIVE = tuple({"type": "give", "to": p} for p in range(8))
_END = {"type": "end"}
_STOP = {"type": "stop"}
_VAPOR = {"type": "vapor"}

# draw lists by (sizes left in the bag as a 3-bit mask, whether the die may be drawn)
_DRAWS = {}
for _mask in range(8):
    for _die in (False, True):
        _moves = [_DRAW[z] for z in range(NS) if _mask >> z & 1]
        if _die:
            _moves.append(_DRAW[3])
        _DRAWS[_mask, _die] = _moves
_BATTERY_DISCARDS = tuple([_DISCARD[tidx(z, c)] for z in range(NS)] for c in range(NC))


class PowerhouseSimulator:
    """Unchecked, in-place Powerhouse rules for search (see the module's docstring)."""

    rules = RULES

    def from_rules(self, state: dict) -> dict:
        """A simulator state equal to the rules' `state` (which stays untouched), log aside."""
        return self.clone(state)

    def clone(self, s: dict) -> dict:
        out = dict(s)
        out["bag"] = s["bag"][:]
        out["networks"] = [n[:] for n in s["networks"]]
        out["stamps"] = [x[:] for x in s["stamps"]]
        out["positions"] = s["positions"][:]
        out["log"] = None
        if s["tracking"] is not None:
            out["tracking"] = s["tracking"][:]
        pending = s["pending"]
        if pending is not None:
            pending = out["pending"] = dict(pending)
            if "dumped" in pending:
                pending["dumped"] = pending["dumped"][:]
        md = s["meltdown"]
        if md is not None:
            out["meltdown"] = {"k": md["k"], "drawer": md["drawer"], "owed": md["owed"][:]}
        return out

    def to_move(self, s: dict) -> tuple:
        phase = s["phase"]
        if phase == "over":
            return ()
        if phase == "meltdown":
            return tuple(p for p, n in enumerate(s["meltdown"]["owed"]) if n > 0)
        return (s["active"],)

    def outcome(self, s: dict) -> dict | None:
        if s["winner"] is None:
            return None
        return RULES.outcome(s)

    def winner(self, s: dict) -> int | None:
        """The winning seat once the game is over (cheaper than `outcome`)."""
        return s["winner"]

    def legal_moves(self, s: dict, seat: int) -> list[dict]:
        phase = s["phase"]
        if phase == "over":
            return []
        net = s["networks"][seat]
        if phase == "meltdown":
            if s["meltdown"]["owed"][seat] <= 0:
                return []
            return [_DISCARD[t] for t in range(NTYPES) if net[t]]
        if seat != s["active"]:
            return []
        if phase == "draw":
            bag = s["bag"]
            mask = (any(bag[0:5]) | any(bag[5:10]) << 1 | any(bag[10:15]) << 2)
            die = s["bag_dice"] > 0 and (s["tracking"] is None or s["tracking"][seat] > 0
                                          or not mask)
            return _DRAWS[mask, die]
        pending = s["pending"]
        if pending is None:
            moves = [_FIRE[t] for t in range(NTYPES) if net[t] >= 2]
            for c in batteries(net):
                moves.append(_BATTERY[c])
            second = game.second_powerhouse_size(s, seat)
            if second is not None:
                moves += _DUMP[second * NC:second * NC + NC]
            elif 2 not in net:
                moves.append(_END)
            return moves
        action, stage = pending["action"], pending.get("stage")
        if action == "dump":
            base = pending["size"] * NC
            dumped = pending["dumped"]
            moves = [_DUMP[base + c] for c in range(NC) if COLORS[c] not in dumped]
            moves.append(_STOP)
            return moves
        if stage == "give":
            gone = s.get("gone") or ()
            return [_GIVE[p] for p in range(s["players"]) if p != seat and p not in gone]
        if stage == "take":
            return self._takes(s, seat, pending)
        color = COLOR_INDEX[pending["color"]]
        if stage == "discard":
            return _BATTERY_DISCARDS[color]
        gone = pending["discarded"]
        return [_TRANSFORM[tidx(z, color)] for z in range(NS) if z != gone and net[tidx(z, color)]]

    @staticmethod
    def _takes(s: dict, seat: int, pending: dict) -> list[dict]:
        to = pending["to"]
        given = TYPE_INDEX[pending["piece"]]
        nets = s["networks"]
        theirs = nets[to]
        mine = nets[seat]
        seen = s["positions"]
        moves = []
        for t in range(NTYPES):
            held = theirs[t]
            if held - (t == given) <= 0 or is_protected(theirs, t):
                continue
            theirs[t] = held - 1
            mine[t] += 1
            repeat = position_key(nets) in seen
            theirs[t] = held
            mine[t] -= 1
            if not repeat:
                moves.append(_TAKE[t])
        moves.append(_VAPOR)
        return moves

    def play(self, s: dict, seat: int, move: dict) -> None:
        kind = move["type"]
        if kind == "draw":
            _draw(s, seat, move["kind"])
        elif kind == "end":
            _end(s)
        elif kind == "fire":
            s["pending"] = {"action": "fire", "stage": "give", "piece": move["piece"]}
        else:
            game._HANDLERS[kind](s, seat, move)


def _draw(s: dict, seat: int, kind: str) -> None:
    """game._move_draw without the log, with the generator's draw inlined (same numbers)."""
    if kind == "die":
        game._start_meltdown(s, seat)
        return
    base = _KIND_BASE[kind]
    bag = s["bag"]
    total = bag[base] + bag[base + 1] + bag[base + 2] + bag[base + 3] + bag[base + 4]
    limit = _LIMIT[total]
    state = s["rng"]
    while True:   # Rng.weighted over the size's row: randbelow(total) by rejection
        state = (state + _GAMMA) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        z ^= z >> 31
        if z < limit:
            break
    s["rng"] = state
    r = z % total
    t = base
    while r >= bag[t]:
        r -= bag[t]
        t += 1
    bag[t] -= 1
    net = s["networks"][seat]
    net[t] += 1
    game._restamp(s, seat, base // NC)
    if is_clean(net) or any(is_clean(n) for n in s["networks"]):
        if game._check_win(s, seat):
            return
    s["phase"] = "reaction"
    if not game._maybe_auto_end(s):
        s["positions"] = [position_key(s["networks"])]


def _end(s: dict) -> None:
    """game._next_turn after an `end` move, without the log."""
    s["phase"] = "draw"
    s["pending"] = None
    s["positions"] = []
    s["active"] = game.next_seat(s, s["active"])
    s["turn"] += 1


SIMULATOR = PowerhouseSimulator()


def from_rules(state: dict) -> dict:
    """A simulator state from a rules state (the same dict, without the log)."""
    return SIMULATOR.clone(state)
