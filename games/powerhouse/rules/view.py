"""What a seat may see (RULES.md 9.1), and a state rebuilt from it for bots.

Everything in Powerhouse is public except the order of the bag, and the bag's
contents by type follow from what is on the table, so the view shows them. The
view is an explicit whitelist; it never holds the generator state.
"""

from __future__ import annotations

from .game import LOG_KEEP, completion_order, second_powerhouse_size, to_move
from .pieces import (
    COLORS, NC, NS, SIZES, TRACKING_COLORS, TYPE_NAMES, batteries, grid, is_clean,
    powerhouse_count, protected_types, reactors, stable_reactors,
)

_LOG_KEYS = ("kind", "seat", "to", "from", "piece", "size", "reason", "forced", "dice",
             "auto", "first", "networks", "turn_of", "count")


def _network_view(s: dict, seat: int) -> dict:
    net = s["networks"][seat]
    tracking = s["tracking"]
    return {
        "seat": seat,
        "grid": grid(net),
        "pieces": sum(net),
        "powerhouses": powerhouse_count(net),
        "clean": is_clean(net),
        "reactors": [TYPE_NAMES[t] for t in reactors(net)],
        "stable_reactors": [TYPE_NAMES[t] for t in stable_reactors(net)],
        "batteries": [COLORS[c] for c in batteries(net)],
        "transform_proof": [TYPE_NAMES[t] for t in protected_types(net)],
        "completed": [[SIZES[z], level] for z, level in completion_order(s, seat)],
        "tracking": tracking[seat] if tracking is not None else None,
        "tracking_color": TRACKING_COLORS[seat] if tracking is not None else None,
    }


def _pending_view(s: dict) -> dict | None:
    pending = s["pending"]
    if pending is None:
        return None
    out = {"action": pending["action"]}
    for key in ("stage", "piece", "color", "to"):
        if key in pending:
            out[key] = pending[key]
    if "discarded" in pending:
        out["discarded"] = SIZES[pending["discarded"]]
    if "size" in pending:
        out["size"] = SIZES[pending["size"]]
    if "dumped" in pending:
        out["dumped"] = list(pending["dumped"])
    return out


def _obligations(s: dict, seat: int) -> dict:
    """What `seat` owes now, and what waits for its next Reaction phase (5.2)."""
    net = s["networks"][seat]
    owing = seat in to_move(s)
    phase = s["phase"]
    reacting = phase == "reaction" and s["active"] == seat
    second = second_powerhouse_size(s, seat)
    md = s["meltdown"]
    out = {
        "to_move": owing,
        "draw": owing and phase == "draw",
        "discards_owed": md["owed"][seat] if md else 0,
        "must_fire": [TYPE_NAMES[t] for t in reactors(net)] if reacting else [],
        "major_dump": SIZES[second] if reacting and second is not None else None,
        "can_end": reacting and s["pending"] is None and 2 not in net and second is None,
        "pending": _pending_view(s) if reacting else None,
        # reactions wait for the owner's own turn (5.2, the Spanish "Reacciones Retrasadas")
        "waiting": {
            "reactors": [TYPE_NAMES[t] for t in reactors(net)],
            "major_dump": SIZES[second] if second is not None else None,
        } if not reacting else None,
    }
    return out


def build_view(s: dict, seat: int | None) -> dict:
    """The whitelisted view of `s` for `seat` (None: a spectator)."""
    bag = s["bag"]
    md = s["meltdown"]
    view = {
        "game": "powerhouse",
        "players": s["players"],
        "options": dict(s["options"]),
        "colors": list(COLORS),
        "sizes": list(SIZES),
        "phase": s["phase"],
        "active": s["active"],
        "turn": s["turn"],
        "to_move": sorted(to_move(s)),
        "centre": s["centre"],
        "bag": {
            "dice": s["bag_dice"],
            "pyramids": sum(bag),
            "by_size": {SIZES[z]: sum(bag[z * NC:(z + 1) * NC]) for z in range(NS)},
            "grid": grid(bag),
        },
        "networks": [_network_view(s, p) for p in range(s["players"])],
        "pending": _pending_view(s),
        "meltdown": ({"dice": md["k"], "drawer": md["drawer"], "owed": list(md["owed"])}
                     if md else None),
        # the Q6 safeguard's positions of this Reaction phase; all of them were seen
        "positions": list(s["positions"]),
        "winner": s["winner"],
        "gone": list(s.get("gone") or []),
        # the latest entries, numbered from log_first; all of them are public
        "log": [{k: e[k] for k in _LOG_KEYS if k in e} for e in s["log"][-LOG_KEEP:]],
        "log_first": s["log_count"] - min(LOG_KEEP, len(s["log"])),
    }
    if seat is not None:
        view["you"] = {"seat": seat, **_obligations(s, seat)}
    return view


def state_from_view(view: dict, rng_state: int) -> dict:
    """A state equal to the viewed one in all that matters for play, for a bot's search.

    The bag's order is the only unseen part; a fresh generator stands in for it
    (determinization, ENGINE.md "Bots"). Completion stamps are rebuilt from each
    network's public completion order.
    """
    players = view["players"]
    networks = []
    stamps = []
    clock = 0
    for nv in view["networks"]:
        networks.append([n for row in nv["grid"] for n in row])
        st = [None] * (NS * 3)
        for size, level in nv["completed"]:
            clock += 1
            st[SIZES.index(size) * 3 + level - 1] = clock
        stamps.append(st)
    pending = None
    if view["pending"] is not None:
        pv = view["pending"]
        pending = {k: pv[k] for k in ("action", "stage", "piece", "color", "to") if k in pv}
        if "discarded" in pv:
            pending["discarded"] = SIZES.index(pv["discarded"])
        if "size" in pv:
            pending["size"] = SIZES.index(pv["size"])
        if "dumped" in pv:
            pending["dumped"] = list(pv["dumped"])
    md = view["meltdown"]
    tracking = [nv["tracking"] for nv in view["networks"]]
    return {
        "players": players,
        "options": dict(view["options"]),
        "rng": rng_state,
        "bag": [n for row in view["bag"]["grid"] for n in row],
        "bag_dice": view["bag"]["dice"],
        "centre": view["centre"],
        "networks": networks,
        "tracking": tracking if tracking[0] is not None else None,
        "stamps": stamps,
        "clock": clock,
        "active": view["active"],
        "turn": view["turn"],
        "phase": view["phase"],
        "pending": pending,
        "positions": list(view["positions"]),
        "meltdown": ({"k": md["dice"], "drawer": md["drawer"], "owed": list(md["owed"])}
                     if md else None),
        "winner": view["winner"],
        "gone": list(view.get("gone") or []),
        "log": [],
        "log_count": 0,
    }
