"""The state machine of Powerhouse: setup, legal moves and their effects.

The state is a plain JSON-able dict (see `new_state`). `legal_moves` lists the
atomic decisions of RULES.md section 13; `play` applies one of them to a state
in place and assumes it is legal (the `Rules` class checks first and copies).
Comments cite the RULES.md section each rule comes from; [INT] marks a reading
of an open question (section 11), listed again in docs/games/powerhouse.md.
"""

from __future__ import annotations

from games.engine import Rng

from .pieces import (
    COLOR_INDEX, COLORS, COPIES, DICE, FULL_BAG, NC, NS, NTYPES, TRACKING_USES, TYPE_INDEX,
    TYPE_NAMES, batteries, color_of, is_clean, is_protected, position_key, powerhouse_count,
    size_of, tidx,
)

DRAW_KINDS = ("S", "M", "L", "die")
LOG_KEEP = 100  # the state keeps the latest entries; the table's event log keeps everything
MOVE_TYPES = ("draw", "fire", "battery", "dump", "end", "give", "take", "vapor",
              "discard", "transform", "stop")


# -- setup -------------------------------------------------------------------------------

def new_state(*, players: int, seed: int, options: dict) -> dict:
    """A fresh game: full bag, each seat draws S, M and L blind, random first player (4)."""
    rng = Rng.from_seed(seed)
    bag = list(FULL_BAG)
    networks = []
    for _seat in range(players):
        net = [0] * NTYPES
        for size in range(NS):
            t = _blind_pick(bag, size, rng)
            bag[t] -= 1
            net[t] += 1
        networks.append(net)
    first = rng.randbelow(players)  # Q13: the translation names no method
    state = {
        "players": players,
        "options": dict(options),
        "rng": rng.state,
        "bag": bag,
        "bag_dice": DICE,
        "centre": 0,
        "networks": networks,
        "tracking": [TRACKING_USES] * players if options.get("meltdown_limit") else None,
        # per seat, index size*3 + level-1: when the row came to hold `level` full sets (6.4)
        "stamps": [[None] * (NS * 3) for _ in range(players)],
        "clock": 0,
        "active": first,
        "turn": 1,
        "phase": "draw",
        "pending": None,
        "positions": [],
        "meltdown": None,
        "winner": None,
        "log": [{"kind": "setup", "networks": [_names(n) for n in networks], "first": first}],
        "log_count": 1,
    }
    return state


def _blind_pick(bag: list[int], size: int, rng: Rng) -> int:
    """A type of `size`, uniform over the bag's pyramids of that size (5.1)."""
    base = size * NC
    return base + rng.weighted(bag[base:base + NC])


def _log(s: dict, entry: dict) -> None:
    """Append a public log entry, dropping the oldest beyond twice LOG_KEEP.

    A state whose log is None (the bots' simulator, games/powerhouse/sim.py) keeps none.
    """
    log = s["log"]
    if log is None:
        return
    log.append(entry)
    s["log_count"] += 1
    if len(log) > 2 * LOG_KEEP:
        del log[:-LOG_KEEP]


def _names(net) -> list[str]:
    return [TYPE_NAMES[t] for t in range(NTYPES) for _ in range(net[t])]


def copy_state(s: dict) -> dict:
    """An independent copy; log entries are shared because they are never changed."""
    out = dict(s)
    out["options"] = dict(s["options"])
    out["bag"] = list(s["bag"])
    out["networks"] = [list(n) for n in s["networks"]]
    out["tracking"] = list(s["tracking"]) if s["tracking"] is not None else None
    out["stamps"] = [list(x) for x in s["stamps"]]
    out["positions"] = list(s["positions"])
    out["log"] = list(s["log"])
    if s["pending"] is not None:
        out["pending"] = dict(s["pending"])
        if "dumped" in out["pending"]:
            out["pending"]["dumped"] = list(out["pending"]["dumped"])
    if s["meltdown"] is not None:
        out["meltdown"] = dict(s["meltdown"])
        out["meltdown"]["owed"] = list(s["meltdown"]["owed"])
    return out


# -- reading the state -------------------------------------------------------------------

def to_move(s: dict) -> frozenset:
    """Seats owing a decision: the active seat, or every seat owing meltdown discards."""
    phase = s["phase"]
    if phase == "over":
        return frozenset()
    if phase == "meltdown":
        return frozenset(p for p, n in enumerate(s["meltdown"]["owed"]) if n > 0)
    return frozenset((s["active"],))


def second_powerhouse_size(s: dict, seat: int) -> int | None:
    """The size of the most recently completed powerhouse, if the seat holds two (6.4, Q7)."""
    if powerhouse_count(s["networks"][seat]) < 2:
        return None
    stamps = s["stamps"][seat]
    best = max((i for i in range(len(stamps)) if stamps[i] is not None), key=stamps.__getitem__)
    return best // 3


def completion_order(s: dict, seat: int) -> list[list]:
    """The seat's complete (size, level) sets, oldest first: public history, for views."""
    stamps = s["stamps"][seat]
    done = sorted((stamps[i], i) for i in range(len(stamps)) if stamps[i] is not None)
    return [[i // 3, i % 3 + 1] for _, i in done]


def must_react(net) -> bool:
    """True while a reactor or a double powerhouse keeps the Reaction phase open (5.2)."""
    return 2 in net or powerhouse_count(net) >= 2


def find_legal(moves: list[dict], move) -> dict | None:
    """The entry of `moves` equal to `move`, value types included (True is not 1), or None."""
    if not isinstance(move, dict):
        return None
    for cand in moves:
        if len(cand) == len(move) and all(
                k in move and type(move[k]) is type(v) and move[k] == v for k, v in cand.items()):
            return cand
    return None


_MOVE_FIELDS = {"draw": ("kind", str), "fire": ("piece", str), "battery": ("color", str),
                "dump": ("piece", str), "discard": ("piece", str), "transform": ("piece", str),
                "take": ("piece", str), "give": ("to", int), "end": None, "stop": None,
                "vapor": None}


def check_move(s: dict, seat: int, move) -> dict | None:
    """`move` as the legal entry `find_legal(legal_moves(s, seat), move)` would return, or None.

    The same answer without generating every legal move: the move's shape (its keys and
    their exact types, True is not 1) first, then only the rule that could allow it.
    tests/powerhouse/test_sim.py checks the two agree on every move of many positions.
    """
    if not isinstance(move, dict):
        return None
    kind = move.get("type")
    if type(kind) is not str or kind not in _MOVE_FIELDS:
        return None
    field = _MOVE_FIELDS[kind]
    if field is None:
        if len(move) != 1:
            return None
        value = None
    else:
        key, typ = field
        if len(move) != 2 or key not in move or type(move[key]) is not typ:
            return None
        value = move[key]
    if not _allowed(s, seat, kind, value):
        return None
    return {"type": kind} if field is None else {"type": kind, field[0]: value}


def _allowed(s: dict, seat: int, kind: str, value) -> bool:
    """Whether the move of `kind` naming `value` is among legal_moves(s, seat)."""
    phase = s["phase"]
    if phase == "over":
        return False
    if kind in ("fire", "battery", "dump", "discard", "transform", "take"):
        if kind == "battery":
            if value not in COLOR_INDEX:
                return False
        elif value not in TYPE_INDEX:
            return False
    if phase == "meltdown":
        return (kind == "discard" and s["meltdown"]["owed"][seat] > 0
                and s["networks"][seat][TYPE_INDEX[value]] > 0)
    if seat != s["active"]:
        return False
    if phase == "draw":
        return kind == "draw" and {"type": "draw", "kind": value} in _draw_moves(s, seat)
    net = s["networks"][seat]
    pending = s["pending"]
    if pending is None:
        if kind == "fire":
            return net[TYPE_INDEX[value]] >= 2
        if kind == "battery":
            return COLOR_INDEX[value] in batteries(net)
        second = second_powerhouse_size(s, seat)
        if kind == "dump":
            return second is not None and size_of(TYPE_INDEX[value]) == second
        return kind == "end" and second is None and 2 not in net
    action, stage = pending["action"], pending.get("stage")
    if action == "dump":
        if kind == "stop":
            return True
        if kind != "dump":
            return False
        t = TYPE_INDEX[value]
        return size_of(t) == pending["size"] and COLORS[color_of(t)] not in pending["dumped"]
    if stage == "give":
        return (kind == "give" and 0 <= value < s["players"] and value != seat
                and value not in (s.get("gone") or []))
    if stage == "take":
        if kind == "vapor":
            return True
        return kind == "take" and _take_allowed(s, seat, pending, TYPE_INDEX[value])
    t = TYPE_INDEX[value] if kind in ("discard", "transform") else None
    if t is None or color_of(t) != COLOR_INDEX[pending["color"]]:
        return False
    if stage == "discard":
        return kind == "discard"
    return kind == "transform" and size_of(t) != pending["discarded"] and net[t] > 0


def _take_allowed(s: dict, seat: int, pending: dict, t: int) -> bool:
    """The take of `t` is legal (see _take_moves)."""
    theirs = s["networks"][pending["to"]]
    mine = s["networks"][seat]
    if theirs[t] - (1 if t == TYPE_INDEX[pending["piece"]] else 0) <= 0 or is_protected(theirs, t):
        return False
    theirs[t] -= 1
    mine[t] += 1
    repeat = position_key(s["networks"]) in s["positions"]
    theirs[t] += 1
    mine[t] -= 1
    return not repeat


def legal_moves(s: dict, seat: int) -> list[dict]:
    """Every atomic decision `seat` may make now (RULES.md section 13)."""
    phase = s["phase"]
    if phase == "over":
        return []
    if phase == "meltdown":
        if s["meltdown"]["owed"][seat] <= 0:
            return []
        net = s["networks"][seat]
        return [{"type": "discard", "piece": TYPE_NAMES[t]} for t in range(NTYPES) if net[t]]
    if seat != s["active"]:
        return []
    if phase == "draw":
        return _draw_moves(s, seat)
    pending = s["pending"]
    if pending is None:
        return _reaction_moves(s, seat)
    action, stage = pending["action"], pending.get("stage")
    net = s["networks"][seat]
    if action == "dump":
        size = pending["size"]
        moves = [{"type": "dump", "piece": TYPE_NAMES[tidx(size, c)]}
                 for c in range(NC) if COLORS[c] not in pending["dumped"]]
        return moves + [{"type": "stop"}]
    if stage == "give":
        gone = s.get("gone") or []
        return [{"type": "give", "to": p} for p in range(s["players"])
                if p != seat and p not in gone]
    if stage == "take":
        return _take_moves(s, seat, pending)
    color = COLOR_INDEX[pending["color"]]
    if stage == "discard":  # battery: which size goes back to the bag
        return [{"type": "discard", "piece": TYPE_NAMES[tidx(z, color)]} for z in range(NS)]
    # stage == "transform": battery, which of the two other sizes is given away
    gone = pending["discarded"]
    return [{"type": "transform", "piece": TYPE_NAMES[tidx(z, color)]}
            for z in range(NS) if z != gone and net[tidx(z, color)]]


def _draw_moves(s: dict, seat: int) -> list[dict]:
    bag = s["bag"]
    moves = [{"type": "draw", "kind": DRAW_KINDS[z]}
             for z in range(NS) if any(bag[z * NC:(z + 1) * NC])]
    if s["bag_dice"] > 0:
        limited = s["tracking"] is not None and s["tracking"][seat] <= 0
        # 5.1 / Q5: with no pyramid left the die is forced, even past the limit of section 10
        if not limited or not moves:
            moves.append({"type": "draw", "kind": "die"})
    return moves


def _reaction_moves(s: dict, seat: int) -> list[dict]:
    net = s["networks"][seat]
    moves = [{"type": "fire", "piece": TYPE_NAMES[t]} for t in range(NTYPES) if net[t] >= 2]
    moves += [{"type": "battery", "color": COLORS[c]} for c in batteries(net)]
    second = second_powerhouse_size(s, seat)
    if second is not None:
        moves += [{"type": "dump", "piece": TYPE_NAMES[tidx(second, c)]} for c in range(NC)]
    elif 2 not in net:
        moves.append({"type": "end"})
    return moves


def _take_moves(s: dict, seat: int, pending: dict) -> list[dict]:
    """Takes from the recipient (6.1 step 4): held before the give, not protected, no loop."""
    to = pending["to"]
    given = TYPE_INDEX[pending["piece"]]
    theirs = s["networks"][to]
    mine = s["networks"][seat]
    moves = []
    seen = s["positions"]
    for t in range(NTYPES):
        held_before = theirs[t] - (1 if t == given else 0)
        if held_before <= 0 or is_protected(theirs, t):
            continue
        # Q6 safeguard: the take may not bring back a position of this Reaction phase
        theirs[t] -= 1
        mine[t] += 1
        repeat = position_key(s["networks"]) in seen
        theirs[t] += 1
        mine[t] -= 1
        if not repeat:
            moves.append({"type": "take", "piece": TYPE_NAMES[t]})
    moves.append({"type": "vapor"})
    return moves


# -- effects -----------------------------------------------------------------------------

def play(s: dict, seat: int, move: dict) -> None:
    """Apply a legal `move` by `seat` to `s` in place."""
    _HANDLERS[move["type"]](s, seat, move)


def _move_draw(s: dict, seat: int, move: dict) -> None:
    kind = move["kind"]
    if kind == "die":
        _start_meltdown(s, seat)
        return
    rng = Rng(s["rng"])
    t = _blind_pick(s["bag"], DRAW_KINDS.index(kind), rng)
    s["rng"] = rng.state
    s["bag"][t] -= 1
    s["networks"][seat][t] += 1
    _restamp(s, seat, size_of(t))
    _log(s, {"kind": "draw", "seat": seat, "size": kind, "piece": TYPE_NAMES[t]})
    if _check_win(s, seat):
        return
    s["phase"] = "reaction"
    if not _maybe_auto_end(s):
        s["positions"] = [position_key(s["networks"])]


def _start_meltdown(s: dict, drawer: int) -> None:
    """Section 7: the die goes to the centre and every seat owes k discards."""
    s["bag_dice"] -= 1
    s["centre"] += 1
    k = s["centre"]
    owed = [min(k, sum(net)) for net in s["networks"]]
    s["meltdown"] = {"k": k, "drawer": drawer, "owed": owed}
    s["phase"] = "meltdown"
    _log(s, {"kind": "meltdown", "seat": drawer, "dice": k})
    for p in range(s["players"]):
        _auto_discard(s, p)
    _maybe_finish_meltdown(s)


def _auto_discard(s: dict, seat: int) -> None:
    """Make a seat's remaining meltdown discards when they leave no choice (7.2)."""
    md = s["meltdown"]
    net = s["networks"][seat]
    owed = md["owed"][seat]
    if owed <= 0:
        return
    held = [t for t in range(NTYPES) if net[t]]
    if sum(net) > owed and len(held) > 1:
        return
    for t in held:
        n = min(net[t], owed)
        for _ in range(n):
            _discard(s, seat, t, "meltdown", forced=True)
        owed -= n
    md["owed"][seat] = 0


def _discard(s: dict, seat: int, t: int, reason: str, forced: bool = False) -> None:
    """A pyramid goes from the seat's network back into the bag (6.2)."""
    s["networks"][seat][t] -= 1
    s["bag"][t] += 1
    _restamp(s, seat, size_of(t))
    entry = {"kind": "discard", "seat": seat, "piece": TYPE_NAMES[t], "reason": reason}
    if forced:
        entry["forced"] = True
    _log(s, entry)


def _maybe_finish_meltdown(s: dict) -> None:
    md = s["meltdown"]
    if any(md["owed"]):
        return
    drawer = md["drawer"]
    s["meltdown"] = None
    if md["k"] == DICE:  # 7.3: the third die sends every die back to the bag
        s["bag_dice"] += s["centre"]
        s["centre"] = 0
        _log(s, {"kind": "dice_return"})
    if _check_win(s, drawer):  # 7.4: one check, after every discard
        return
    if s["tracking"] is not None and s["tracking"][drawer] > 0:  # section 10
        s["tracking"][drawer] -= 1
    _next_turn(s)


def _move_discard(s: dict, seat: int, move: dict) -> None:
    t = TYPE_INDEX[move["piece"]]
    if s["phase"] == "meltdown":
        _discard(s, seat, t, "meltdown")
        s["meltdown"]["owed"][seat] -= 1
        _auto_discard(s, seat)
        _maybe_finish_meltdown(s)
        return
    pending = s["pending"]  # battery, first step: one piece back to the bag
    _discard(s, seat, t, "battery")
    if _check_win(s, seat):
        return
    pending["stage"] = "transform"
    pending["discarded"] = size_of(t)


def _move_fire(s: dict, seat: int, move: dict) -> None:
    s["pending"] = {"action": "fire", "stage": "give", "piece": move["piece"]}


def _move_battery(s: dict, seat: int, move: dict) -> None:
    s["pending"] = {"action": "battery", "stage": "discard", "color": move["color"]}


def _move_transform(s: dict, seat: int, move: dict) -> None:
    s["pending"]["stage"] = "give"
    s["pending"]["piece"] = move["piece"]


def _move_give(s: dict, seat: int, move: dict) -> None:
    pending = s["pending"]
    t = TYPE_INDEX[pending["piece"]]
    to = move["to"]
    s["networks"][seat][t] -= 1
    s["networks"][to][t] += 1
    _restamp(s, seat, size_of(t))
    _restamp(s, to, size_of(t))
    _log(s, {"kind": "give", "seat": seat, "to": to, "piece": pending["piece"]})
    if _check_win(s, seat):  # 6.1 step 3: the recipient may win now, in our turn
        return
    pending["stage"] = "take"
    pending["to"] = to


def _move_take(s: dict, seat: int, move: dict) -> None:
    t = TYPE_INDEX[move["piece"]]
    frm = s["pending"]["to"]
    s["networks"][frm][t] -= 1
    s["networks"][seat][t] += 1
    _restamp(s, frm, size_of(t))
    _restamp(s, seat, size_of(t))
    _log(s, {"kind": "take", "seat": seat, "from": frm, "piece": move["piece"]})
    if _check_win(s, seat):
        return
    _complete_reaction(s)


def _move_vapor(s: dict, seat: int, move: dict) -> None:
    _log(s, {"kind": "vapor", "seat": seat, "to": s["pending"]["to"]})
    _complete_reaction(s)


def _move_dump(s: dict, seat: int, move: dict) -> None:
    t = TYPE_INDEX[move["piece"]]
    if s["pending"] is None:
        # 6.4: the target is fixed when the dump starts, so later pieces come from it too
        s["pending"] = {"action": "dump", "size": size_of(t), "dumped": []}
        _log(s, {"kind": "major_dump", "seat": seat, "size": DRAW_KINDS[size_of(t)]})
    pending = s["pending"]
    pending["dumped"].append(COLORS[color_of(t)])
    _discard(s, seat, t, "major_dump")
    if _check_win(s, seat):
        return
    if len(pending["dumped"]) == NC:
        _complete_reaction(s)


def _move_stop(s: dict, seat: int, move: dict) -> None:
    _complete_reaction(s)


def _move_end(s: dict, seat: int, move: dict) -> None:
    _next_turn(s)


def _complete_reaction(s: dict) -> None:
    """A reaction is done: remember the position (Q6) and maybe close the phase."""
    s["pending"] = None
    s["positions"].append(position_key(s["networks"]))
    _maybe_auto_end(s)


def _maybe_auto_end(s: dict) -> bool:
    """End the Reaction phase by itself when ending it is the only thing left to do."""
    net = s["networks"][s["active"]]
    if max(net) >= 2 or batteries(net) or powerhouse_count(net) >= 2:
        return False
    _next_turn(s, auto=True)
    return True


def _next_turn(s: dict, auto: bool = False) -> None:
    if s["phase"] == "reaction":
        _log(s, {"kind": "end", "seat": s["active"], "auto": auto})
    s["phase"] = "draw"
    s["pending"] = None
    s["positions"] = []
    s["active"] = next_seat(s, s["active"])
    s["turn"] += 1


def next_seat(s: dict, seat: int) -> int:
    """The next seat after `seat` whose player is still in the game."""
    gone = s.get("gone") or []
    nxt = (seat + 1) % s["players"]
    while nxt in gone and nxt != seat:
        nxt = (nxt + 1) % s["players"]
    return nxt


def resign(s: dict, seat: int) -> None:
    """`seat` leaves the game, in place (resigned, or dropped when their clock ran out).

    Their pyramids go back into the bag (every piece stays in exactly one place,
    9.2); nobody can give to them any more and turns skip them; discards they owed
    in a meltdown are forgiven; if it was their turn, it ends at once, an unfinished
    reaction with it. A reaction that gave them a piece ends in vapor (there is
    nothing left to take). The last player still in wins; whoever left ranks below
    everyone still in, earlier leavers lower.
    """
    gone = list(s.get("gone") or [])
    if s["phase"] == "over" or seat in gone:
        return
    gone.append(seat)
    s["gone"] = gone
    net = s["networks"][seat]
    count = sum(net)
    for t in range(NTYPES):
        s["bag"][t] += net[t]
        net[t] = 0
    _restamp(s, seat)
    _log(s, {"kind": "resign", "seat": seat, "count": count})
    still = [p for p in range(s["players"]) if p not in gone]
    if len(still) == 1:
        s["winner"] = still[0]
        s["phase"] = "over"
        s["pending"] = None
        s["meltdown"] = None
        s["positions"] = []
        _log(s, {"kind": "win", "seat": still[0], "turn_of": s["active"], "reason": "others_left"})
        return
    if s["phase"] == "meltdown":
        s["meltdown"]["owed"][seat] = 0
        _maybe_finish_meltdown(s)
    elif s["active"] == seat:
        s["phase"] = "draw"  # no "ended the turn" line: they left
        _next_turn(s)
    elif s["pending"] is not None and s["pending"].get("to") == seat:
        _log(s, {"kind": "vapor", "seat": s["active"], "to": seat})
        _complete_reaction(s)


def _restamp(s: dict, seat: int, size: int | None = None) -> None:
    """Record when a size came to hold 1, 2 or 3 full sets of colours (6.4).

    A change of one piece can only change its own size's row: pass that size.
    """
    net = s["networks"][seat]
    stamps = s["stamps"][seat]
    for z in (range(NS) if size is None else (size,)):
        base = z * NC
        m = min(net[base], net[base + 1], net[base + 2], net[base + 3], net[base + 4])
        for level in range(3):
            i = z * 3 + level
            if m > level:
                if stamps[i] is None:
                    s["clock"] += 1
                    stamps[i] = s["clock"]
            elif stamps[i] is not None:
                stamps[i] = None


def _check_win(s: dict, causer: int) -> bool:
    """End the game if any network is clean; the causer wins ties (section 8, Q4)."""
    nets = s["networks"]
    n = s["players"]
    gone = s.get("gone") or []
    for offset in range(n):
        p = (causer + offset) % n
        if p not in gone and is_clean(nets[p]):
            s["winner"] = p
            s["phase"] = "over"
            s["pending"] = None
            s["meltdown"] = None
            s["positions"] = []
            _log(s, {"kind": "win", "seat": p, "turn_of": s["active"]})
            return True
    return False


_HANDLERS = {
    "draw": _move_draw, "fire": _move_fire, "battery": _move_battery, "dump": _move_dump,
    "end": _move_end, "give": _move_give, "take": _move_take, "vapor": _move_vapor,
    "discard": _move_discard, "transform": _move_transform, "stop": _move_stop,
}


# -- invariants --------------------------------------------------------------------------

def conservation_errors(s: dict) -> list[str]:
    """What breaks section 9.2 (every pyramid and die in exactly one place), if anything."""
    errors = []
    for t in range(NTYPES):
        where = s["bag"][t] + sum(net[t] for net in s["networks"])
        if where != COPIES or s["bag"][t] < 0 or any(net[t] < 0 for net in s["networks"]):
            errors.append(f"{TYPE_NAMES[t]}: bag {s['bag'][t]}, networks "
                          f"{[net[t] for net in s['networks']]}")
    if s["bag_dice"] + s["centre"] != DICE or s["bag_dice"] < 0 or s["centre"] < 0:
        errors.append(f"dice: bag {s['bag_dice']} centre {s['centre']}")
    if s["phase"] != "meltdown" and s["centre"] >= DICE:
        errors.append("three dice in the centre between turns")
    return errors
