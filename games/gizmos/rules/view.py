"""What one seat may see (RULES.md §13): an explicit whitelist.

Never in a view: deck order, the removed Level III cards, another player's
research draws or the order they were put back, the generator state.
"""

from __future__ import annotations

from . import payment
from .cards import CARDS, COLORS, TYPES, converter_slots, forbidden, limits, public_card
from .game import score, stored


def _log_for(log: list, seat: int | None) -> list:
    out = []
    for entry in log:
        if "private_to" in entry:
            if entry["private_to"] != seat:
                continue
            entry = {k: v for k, v in entry.items() if k != "private_to"}
        out.append(entry)
    return out


def build_view(rules, s: dict, seat: int | None) -> dict:
    """The whitelisted view of `s` for `seat` (None: a spectator)."""
    n = s["players"]
    shown: set[str] = set()
    display = {}
    for lvl in ("1", "2", "3"):
        display[lvl] = list(s["display"][lvl])
        shown.update(c for c in s["display"][lvl] if c)
    players = []
    for q in range(n):
        p = s["seats"][q]
        lim = limits(p["gizmos"])
        by_type = {t: [c for c in p["gizmos"] if CARDS[c]["type"] == t] for t in TYPES}
        shown.update(p["gizmos"])
        shown.update(p["archive"])
        players.append({
            "seat": q, "energy": dict(p["energy"]), "stored": stored(p),
            "energy_limit": lim["energy_limit"], "archive": list(p["archive"]),
            "file_limit": lim["file_limit"], "research": lim["research"],
            "gizmos": by_type, "gizmo_count": len(p["gizmos"]),
            "level3_count": sum(1 for c in p["gizmos"] if CARDS[c]["level"] == 3),
            "tokens": p["tokens"], "vp": score(p), "forbidden": sorted(forbidden(p["gizmos"])),
            "order": (q - s["first"]) % n, "auto": q in s.get("auto", ()),
        })
    current = s["current"]
    turn = {
        "seat": None if s["over"] else current, "phase": s["phase"], "round": s["round"],
        "armed": list(s["armed"]), "used": list(s["used"]),
        "usable": [g for g in s["armed"] if not s["over"] and rules.usable(s, current, g)],
    }
    # Converters of the player to move, so a page can draw a payment helper.
    converters = []
    if not s["over"]:
        free = {(g, si) for g, si, _slot in rules.free_slots(s, current)}
        for cid in s["seats"][current]["gizmos"]:
            slots = converter_slots(cid)
            if slots:
                converters.append({
                    "gizmo": cid, "used": cid in s["used"],
                    "slots": [{"index": i, "from": sl["from"], "to": sl["to"], "count": sl["to_count"],
                               "available": (cid, i) in free} for i, sl in enumerate(slots)],
                })
    turn["converters"] = converters
    if seat is not None and seat == current and not s["over"]:
        turn["plans"] = _plans(rules, s, seat)
    if s["phase"] == "pay":
        pend = s["pending"]
        shown.add(pend["card"])
        turn["payment"] = {
            "card": pend["card"], "source": pend["source"], "need": pend["need"],
            "target": pend["target"], "pool": [list(u) for u in pend["pool"]],
            "spent": dict(pend["spent"]), "slots_used": [list(x) for x in pend["slots_used"]],
            "paid_units": sum(1 for u in pend["pool"] if pend["target"] in ("any", u[0])),
        }
        if seat == current:
            turn["payment"]["plans"] = [_public_plan(plan) for plan in rules.pay_plans(s, seat)]
    elif s["pending"]:
        turn["effect"] = {k: v for k, v in s["pending"].items()}
    research = None
    if s["research"] is not None:
        research = {"seat": current, "level": s["research"]["level"],
                    "count": len(s["research"]["cards"])}
        if seat == current:
            research["cards"] = list(s["research"]["cards"])
            shown.update(s["research"]["cards"])
    view = {
        "players": n, "first": s["first"], "last": rules.last_seat(s), "you": seat,
        "row": list(s["row"]), "supply": sum(s["supply"].values()),
        "supply_by_color": {c: s["supply"][c] for c in COLORS},
        "display": display, "decks": {lvl: len(s["decks"][lvl]) for lvl in ("1", "2", "3")},
        "seats": players, "turn": turn, "research": research,
        "ending": s["ending"], "over": s["over"], "gone": list(s.get("gone") or []),
        "outcome": rules.outcome(s), "log": _log_for(s["log"], seat),
    }
    # Every card named in the log is on the table now, except the viewer's own earlier
    # research draws (the static card data has those).
    view["cards"] = {cid: public_card(cid) for cid in sorted(shown)}
    return view


# -- the payment helper -------------------------------------------------------------------
# One cheapest way to pay each build open to the player to move (fewest spheres, then
# fewest converter steps), so a page can show which converters cover a cost and what
# energy is left afterwards. payment.witness finds it with the search the legal moves use.

def _plans(rules, s: dict, seat: int) -> dict:
    """cid -> a cheapest payment plan, for the builds the seat to move may start now."""
    p = s["seats"][seat]
    phase = s["phase"]
    if phase == "pay":
        pend = s["pending"]
        storage = {c: p["energy"][c] - pend["spent"][c] for c in COLORS}
        plan = _plan(pend["target"], pend["need"], pend["pool"], storage, rules.free_slots(s, seat))
        if plan:
            plan["spent_before"] = {c: n for c, n in pend["spent"].items() if n}
        return {pend["card"]: plan} if plan else {}
    if phase == "main":
        cards = [(cid, "display") for lvl in ("1", "2", "3") for cid in s["display"][lvl] if cid]
        cards += [(cid, "archive") for cid in p["archive"]]
    elif phase == "research":
        cards = [(cid, "research") for cid in s["research"]["cards"]]
    else:
        return {}
    slots = rules.free_slots(s, seat)
    plans = {}
    for cid, source in cards:
        need = rules.need(s, seat, cid, source)
        plan = _plan(CARDS[cid]["color"], need, [], dict(p["energy"]), slots)
        if plan is not None:
            # How many payments differ in the spheres kept (the page offers the others after
            # a plain build).
            plan["ways"] = len(payment.spend_options(target=CARDS[cid]["color"], need=need, pool=[],
                                                     storage=dict(p["energy"]), slots=slots))
            plans[cid] = plan
    return plans


def _public_plan(plan: dict) -> dict:
    return {k: plan[k] for k in ("need", "spend", "converters", "conversions", "left")}


def _plan(target: str, need: int, pool: list, storage: dict, slots: list) -> dict | None:
    """The spheres to spend, converters to use and energy left, or None if it cannot be paid."""
    plan = payment.witness(target=target, need=need, pool=pool, storage=storage, slots=slots)
    return None if plan is None else _public_plan(plan)
