"""Gizmos bots: random, fast (engine-building heuristic) and strong (determinized lookahead).

A bot sees only its seat's view and legal moves. The strong bot samples the
unseen cards (deck orders, removed Level III cards) consistently with the view,
rebuilds a full state from that sample and simulates the rest of its turn with
the real rules, once per candidate and sample; it never reads a hidden state.
"""

from __future__ import annotations


from games.engine import Rng
from games.gizmos.rules import CARDS, COLORS, RULES, score, stored
from games.gizmos.rules.cards import BY_LEVEL, STARTERS

LEVELS = ("random", "fast", "strong", "expert")

# Rough worth of a gizmo's engine effect early in the game, by kind (VP-equivalents).
ENGINE = {
    "file_draw": 0.3, "file_pick": 1.0, "file_draw3": 1.8, "file_vp": 2.0,
    "pick_draw": 1.2, "build_pick": 1.3, "build_vp": 1.6, "build_from_archive_pick2": 1.2,
    "build_vp2": 2.8, "build_level2_pick2": 1.8, "build_from_archive_vp2": 1.6,
    "build_file": 1.0, "build_research": 1.0, "build_free_level1": 1.8,
    "convert_to_any": 1.2, "convert_two_to_any": 1.6, "convert_double": 1.6,
    "convert_double_two_colors": 2.0, "convert_any_to_any": 1.8,
    "upgrade_energy_file": 1.6, "upgrade_energy_research": 1.3, "upgrade_energy_file_research": 2.2,
    "upgrade_energy": 1.5, "forbid_file": -0.5, "forbid_research": -0.3,
    "discount_archive": 0.8, "discount_research": 0.6, "discount_level2": 1.2,
}
USE_ORDER = {"vp_tokens": 0, "draw_random": 1, "pick": 2, "perform_action": 3, "free_build": 4}


def choose(view: dict, legal: list[dict], *, level: str, rng: Rng, samples: int = 6,
           candidates: int = 8, iterations: int | None = None) -> dict:
    """Pick one of `legal` for the seat whose view this is."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    if len(legal) == 1 or level == "random":
        return legal[0] if len(legal) == 1 else rng.choice(legal)
    if level == "expert":
        from . import expert

        return expert.choose(view, legal, rng, iterations)
    if level == "fast" or view["turn"]["phase"] not in ("main", "research", "free_build", "file"):
        return fast_move(view, legal)
    return _search(view, legal, rng, samples=samples, candidates=candidates)


# -- fast: a greedy engine-building heuristic ----------------------------------------------------

def _progress(view: dict) -> float:
    """How much future an engine still has (1 early, towards 0.25 near the end)."""
    cached = view.get("_progress")   # the expert's rollout views carry it worked out
    if cached is not None:
        return cached
    most = max(p["gizmo_count"] for p in view["seats"])
    l3 = max(p["level3_count"] for p in view["seats"])
    left = min(16 - most, 2 * (4 - l3) + 2)
    if view["ending"]:
        return 0.1
    return max(0.25, min(1.0, left / 10))


def _static_worth(card: dict) -> tuple[float, str | None, float]:
    """What of a card's worth does not depend on the game: its VP, its end-game award
    and its engine worth (a build trigger's by how many colours fire it)."""
    engine = ENGINE.get(card["kind"], 0.0)
    trig = card["trigger"]
    if trig and "colors" in trig and card["type"] == "build":
        engine *= 0.8 + 0.1 * len(trig["colors"])
    return float(card["vp"]), card["effect"].get("endgame_vp"), engine


# Worked out once: card_value runs over a million times in one expert game's rollouts.
_WORTH = {cid: _static_worth(card) for cid, card in CARDS.items()}


def card_value(view: dict, seat: int, cid: str) -> float:
    """VP now plus engine worth scaled by how much game is left."""
    value, award, engine = _WORTH[cid]
    if award == "energy_in_storage":
        value += min(view["seats"][seat]["energy_limit"], 6)
    elif award == "vp_token_total":
        value += view["seats"][seat]["tokens"] + 3
    progress = view.get("_progress")
    return value + engine * (_progress(view) if progress is None else progress) * 3


def _colour_demand(view: dict, seat: int) -> dict:
    """How much each colour is wanted: costs of good cards in reach, pick triggers owned."""
    memo = view.get("_demand")       # the expert's rollout views remember it per seat
    if memo is None:
        return _demand(view, seat)
    want = memo.get(seat)
    if want is None:
        want = memo[seat] = _demand(view, seat)
    return want


def _demand(view: dict, seat: int) -> dict:
    me = view["seats"][seat]
    want = {c: 0.2 for c in COLORS}
    cards = [c for row in view["display"].values() for c in row if c] + list(me["archive"])
    for cid in cards:
        card = CARDS[cid]
        if card["color"] in want:
            short = max(0, card["cost"] - me["energy"][card["color"]])
            if short:
                want[card["color"]] += card_value(view, seat, cid) / (card["cost"] + 1) / (1 + short)
    for cid in me["gizmos"]["pick"]:
        for c in CARDS[cid]["trigger"]["colors"]:
            want[c] += 0.6
    return want


def _move_value(view: dict, seat: int, move: dict) -> float:
    me = view["seats"][seat]
    kind = move["type"]
    if kind == "build":
        card = CARDS[move["card"]]
        pay = view["turn"].get("payment")
        free = view["turn"]["phase"] == "free_build"
        cost = 0 if free else card["cost"]
        bonus = 0.6 if move["card"] in me["archive"] else 0.0
        return 2.0 + card_value(view, seat, move["card"]) - 0.45 * cost + bonus + (0 if pay else 0)
    if kind == "pick":
        if me["stored"] >= me["energy_limit"]:
            return -1
        return 1.0 + _colour_demand(view, seat)[move["color"]]
    if kind == "file":
        room = me["file_limit"] - len(me["archive"])
        files = len(me["gizmos"]["file"])
        return 0.4 + 0.3 * files + 0.15 * card_value(view, seat, move["card"]) - (0.5 if room <= 1 and files < 2 else 0)
    if kind == "research":
        p = _progress(view)
        return 0.3 + {1: 0.3 * p, 2: 0.3, 3: 0.3 * (1 - p) + 0.1}[move["level"]]
    if kind == "use_all":
        return 10.5  # VP tokens and random draws together: what the bot would use first anyway
    if kind == "use":
        value = 10 - USE_ORDER[next(iter(CARDS[move["gizmo"]]["effect"]))]
        if "color" in move:  # the use and its first pick in one move: the pick's worth decides
            value += 0.01 * _move_value(view, seat, {"type": "pick", "color": move["color"]})
        return value
    if kind in ("auto", "cancel"):
        return -10
    if kind == "end_turn":
        return -5
    if kind in ("decline", "stop"):
        return 0.0
    if kind == "pass":
        return 0.0
    if kind == "bottom":
        return 0.0
    return 0.0


def fast_move(view: dict, legal: list[dict]) -> dict:
    """The greedy heuristic's move."""
    seat = view["you"]
    phase = view["turn"]["phase"]
    if phase == "pay":
        return _pay_step(view, legal)
    best, best_value = legal[0], float("-inf")
    for move in _one_click(legal):
        value = _move_value(view, seat, move)
        if value > best_value:
            best, best_value = move, value
    return best


def _one_click(legal: list[dict]) -> list[dict]:
    """The moves without a plain build whose card can be built and paid in one move."""
    paid = {m["card"] for m in legal if m["type"] == "build" and "spend" in m}
    return [m for m in legal if not (m["type"] == "build" and "spend" not in m and m["card"] in paid)]


def _pay_step(view: dict, legal: list[dict]) -> dict:
    """A whole payment at once: the fewest spheres, keeping the most wanted colours.

    (Step by step, as before the engine offered whole payments: doublers first, then the
    target colour, then the rest.)
    """
    pay = view["turn"]["payment"]
    demand = _colour_demand(view, view["you"])
    whole = [m for m in legal if m["type"] == "pay"]
    if whole:
        return min(whole, key=lambda m: (sum(m["spend"].values()),
                                         sum(demand[c] * n for c, n in m["spend"].items())))
    legal = [m for m in legal if m["type"] in ("spend", "convert")]

    def rank(move):
        if move["type"] == "convert":
            return 0 if "to" not in move else (1 if move["to"] == pay["target"] else 3)
        if move["color"] == pay["target"]:
            return 2
        return 4 + demand[move["color"]]
    return min(legal, key=rank)


# -- strong: sample the unseen cards, simulate the rest of the turn, evaluate ------------------

def evaluate(s: dict, seat: int) -> float:
    """Own position minus the best opponent's."""
    vals = []
    for q, p in enumerate(s["seats"]):
        vals.append(_worth(s, p))
    mine = vals[seat]
    others = max(v for q, v in enumerate(vals) if q != seat)
    return mine - others


def _worth(s: dict, p: dict) -> float:
    most = max(len(q["gizmos"]) for q in s["seats"])
    l3 = max(sum(1 for g in q["gizmos"] if CARDS[g]["level"] == 3) for q in s["seats"])
    left = 0.1 if s["ending"] or s["over"] else max(0.25, min(1.0, min(16 - most, 2 * (4 - l3) + 2) / 10))
    engine = sum(ENGINE.get(CARDS[g]["kind"], 0.0) for g in p["gizmos"])
    energy = stored(p)
    return score(p) + engine * left * 3 + energy * (0.35 + 0.3 * left) + 0.3 * len(p["archive"]) * left


def determinize(view: dict, rng: Rng) -> dict:
    """A full state consistent with `view`; unseen cards dealt at random."""
    n = view["players"]
    seen = set(STARTERS[n:])
    display = {lvl: list(row) for lvl, row in view["display"].items()}
    for row in display.values():
        seen.update(c for c in row if c)
    seats = []
    for p in view["seats"]:
        gizmos = [c for t in ("upgrade", "converter", "file", "pick", "build") for c in p["gizmos"][t]]
        seats.append({"energy": dict(p["energy"]), "archive": list(p["archive"]), "gizmos": gizmos,
                      "tokens": p["tokens"]})
        seen.update(gizmos)
        seen.update(p["archive"])
    research = None
    if view["research"] is not None:
        research = {"level": view["research"]["level"], "cards": list(view["research"].get("cards", []))}
        seen.update(research["cards"])
    turn = view["turn"]
    pending = None
    if turn["phase"] == "pay":
        pay = turn["payment"]
        seen.add(pay["card"])
        pending = {"card": pay["card"], "source": pay["source"], "need": pay["need"],
                   "target": pay["target"], "pool": [list(u) for u in pay["pool"]],
                   "spent": dict(pay["spent"]), "slots_used": [list(x) for x in pay["slots_used"]]}
        if research is not None and pay["source"] == "research" and pay["card"] not in research["cards"]:
            research["cards"].append(pay["card"])
    elif "effect" in turn:
        pending = dict(turn["effect"])
    decks, removed = {}, []
    for lvl in ("1", "2", "3"):
        pool = rng.shuffled([c for c in BY_LEVEL[int(lvl)] if c not in seen])
        if research is not None and not research["cards"] and str(research["level"]) == lvl:
            pass
        size = view["decks"][lvl]
        # An opponent's secret research draws are unseen too: they come out of the pool.
        decks[lvl] = pool[:size]
        rest = pool[size:]
        if research is not None and str(research["level"]) == lvl and "cards" not in view["research"]:
            research["cards"] = rest[:view["research"]["count"]]
            rest = rest[view["research"]["count"]:]
        if lvl == "3":
            removed = sorted(rest)
    return {
        "players": n, "options": {}, "first": view["first"],
        "supply": dict(view["supply_by_color"]), "row": list(view["row"]),
        "decks": decks, "removed": removed, "box": STARTERS[n:], "display": display,
        "seats": seats, "current": turn["seat"], "round": turn["round"], "phase": turn["phase"],
        "pending": pending, "research": research, "used": list(turn["used"]), "armed": list(turn["armed"]),
        "ending": view["ending"], "over": view["over"], "reason": None, "passes": 0, "log": [],
        "rng": rng.next64(), "auto": [p["seat"] for p in view["seats"] if p.get("auto")],
    }


def _finish_turn(s: dict, seat: int, limit: int = 60) -> None:
    """Play the rest of `seat`'s turn in place with the fast policy."""
    for _ in range(limit):
        if s["over"] or s["current"] != seat:
            return
        legal = RULES.legal_moves(s, seat)
        if s["phase"] == "pay":
            move = legal[0] if len(legal) == 1 else _pay_quick(s, legal)
        else:
            move = fast_move(RULES.view(s, seat), legal) if len(legal) > 1 else legal[0]
        RULES.apply_unchecked(s, seat, move)


def _pay_quick(s: dict, legal: list[dict]) -> dict:
    whole = [m for m in legal if m["type"] == "pay"]
    if whole:
        return whole[0]  # a cheapest payment comes first
    target = s["pending"]["target"]
    legal = [m for m in legal if m["type"] in ("spend", "convert")]

    def rank(move):
        if move["type"] == "convert":
            return 0 if "to" not in move else (1 if move["to"] == target else 3)
        return 2 if move["color"] == target else 4
    return min(legal, key=rank)


def _search(view: dict, legal: list[dict], rng: Rng, *, samples: int, candidates: int) -> dict:
    """A fixed number of samples (no wall-clock cut-off: the same seed, the same move)."""
    seat = view["you"]
    ranked = sorted(_one_click(legal), key=lambda m: -_move_value(view, seat, m))[:candidates]
    if len(ranked) == 1:
        return ranked[0]
    totals = [0.0] * len(ranked)
    done = 0
    for _k in range(samples):
        base = determinize(view, rng)
        for i, move in enumerate(ranked):
            s = RULES.load(base) if i < len(ranked) - 1 else base
            s["rng"] = base["rng"] if i == len(ranked) - 1 else s["rng"]
            RULES.apply_unchecked(s, seat, move)
            _finish_turn(s, seat)
            totals[i] += evaluate(s, seat)
        done += 1
    best = max(range(len(ranked)), key=lambda i: (totals[i], -i))
    return ranked[best]
