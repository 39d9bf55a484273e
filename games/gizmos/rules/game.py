"""Gizmos: the turn, the four actions, triggers and chain reactions (RULES.md §5-§12).

The state is a plain JSON-able dict. A turn is a small state machine whose
`phase` says which decision the player to move owes:

    main          choose an action: file/pick/build (with the card, and optionally the
                  payment as "spend") or research (a level)
    pay           pay a chosen build: at once with a proposed plan ("pay"), or one step at a
                  time (spend a sphere, use a converter slot); "cancel" while nothing is paid
                  (back to "main"; not for a build out of a Research)
    research      after drawing: build or file one drawn card, or decline
    return        put the remaining drawn cards under the deck, one at a time
    triggers      use one armed gizmo (a Pick gizmo with its first colour, if wished), all
                  automatic ones at once ("use_all"), or end the turn;
                  "auto" turns on or off firing automatic gizmos by themselves for this seat
    pick          a gizmo's Pick action(s): pick a colour, or stop
    file          a gizmo's File action: file a display card, or stop
    research_level a gizmo's Research action: choose the level, or stop
    free_build    a gizmo's free Level I build: choose the card, or stop
    over          the game has ended
"""

from __future__ import annotations

from games.engine import Rng, Rules, check_legal, require_move_dict

from . import payment
from .cards import (
    BY_LEVEL, CARDS, COLORS, DISPLAY_SIZE, LEVEL3_USED, SLOTS, SPHERES_PER_COLOR, STARTERS,
    discount, forbidden, limits, trigger_matches,
)

MOVE_TYPES = ("file", "pick", "build", "research", "pass", "spend", "convert", "decline", "bottom",
              "use", "end_turn", "stop", "pay", "cancel", "use_all", "auto")
# Gizmos whose use involves no choice: gaining VP tokens, drawing random energy.
AUTOMATIC = ("vp_tokens", "draw_random")
ROW_SIZE = 6
END_LEVEL3 = 4
END_GIZMOS = 16


# -- small helpers on the state ----------------------------------------------------------

def copy_state(s: dict) -> dict:
    """A copy deep enough that the engine may mutate it (log entries are never mutated)."""
    t = dict(s)
    t["supply"] = dict(s["supply"])
    t["row"] = list(s["row"])
    t["decks"] = {k: list(v) for k, v in s["decks"].items()}
    t["display"] = {k: list(v) for k, v in s["display"].items()}
    t["seats"] = [{"energy": dict(p["energy"]), "archive": list(p["archive"]),
                   "gizmos": list(p["gizmos"]), "tokens": p["tokens"]} for p in s["seats"]]
    t["pending"] = _deep(s["pending"])
    t["research"] = _deep(s["research"])
    t["used"] = list(s["used"])
    t["armed"] = list(s["armed"])
    t["log"] = list(s["log"])
    if "auto" in s:
        t["auto"] = list(s["auto"])
    return t


def _deep(x):
    if isinstance(x, dict):
        return {k: _deep(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_deep(v) for v in x]
    return x


def stored(p: dict) -> int:
    """Spheres in a player's storage."""
    return sum(p["energy"].values())


def score(p: dict) -> int:
    """A player's VP now: printed VP, tokens and generic awards (§12)."""
    total = p["tokens"]
    for cid in p["gizmos"]:
        card = CARDS[cid]
        total += card["vp"]
        award = card["effect"].get("endgame_vp")
        if award == "energy_in_storage":
            total += stored(p)
        elif award == "vp_token_total":
            total += p["tokens"]
    return total


def _draw_sphere(s: dict, rng: Rng) -> str | None:
    """One random sphere from the supply (None if it is empty, §15 Q1)."""
    weights = [s["supply"][c] for c in COLORS]
    if not sum(weights):
        return None
    color = COLORS[rng.weighted(weights)]
    s["supply"][color] -= 1
    return color


def _refill_row(s: dict, rng: Rng) -> list[str]:
    added = []
    while len(s["row"]) < ROW_SIZE:
        color = _draw_sphere(s, rng)
        if color is None:
            break
        s["row"].append(color)
        added.append(color)
    return added


class GizmosRules(Rules):
    """The rules of Gizmos (base game, 2-4 players)."""

    # -- setup ---------------------------------------------------------------------------
    def new_game(self, *, players, seed, options=None):
        self.check_players(players)
        options = self.clean_options(options)
        rng = Rng.from_seed(seed)
        first = rng.randbelow(players)  # §4.1: the First Player dashboard is dealt at random
        decks = {str(lvl): rng.shuffled(BY_LEVEL[lvl]) for lvl in (1, 2, 3)}
        removed = sorted(decks["3"][LEVEL3_USED:])  # §4.4: 20 Level III cards out, unseen
        decks["3"] = decks["3"][:LEVEL3_USED]
        display = {}
        for lvl, size in DISPLAY_SIZE.items():
            display[str(lvl)] = [decks[str(lvl)].pop(0) for _ in range(size)]
        s = {
            "players": players, "options": options, "first": first,
            "supply": {c: SPHERES_PER_COLOR for c in COLORS}, "row": [],
            "decks": decks, "removed": removed, "box": STARTERS[players:], "display": display,
            "seats": [{"energy": {c: 0 for c in COLORS}, "archive": [], "gizmos": [STARTERS[i]],
                       "tokens": 0} for i in range(players)],
            "current": first, "round": 1, "phase": "main", "pending": None, "research": None,
            "used": [], "armed": [], "ending": False, "over": False, "reason": None, "passes": 0,
            "log": [],
        }
        _refill_row(s, rng)
        s["rng"] = rng.state
        s["log"].append({"kind": "start", "players": players, "first": first, "row": list(s["row"]),
                         "display": {k: list(v) for k, v in display.items()}})
        s["log"].append({"kind": "turn", "seat": first, "round": 1})
        return s

    # -- who decides ---------------------------------------------------------------------
    def to_move(self, state):
        if state["over"]:
            return frozenset()
        return frozenset([state["current"]])

    def last_seat(self, s: dict) -> int:
        """The seat to the right of the first player: the last in turn order (§11);
        once players left, the last of those still in."""
        gone = s.get("gone") or []
        n = s["players"]
        for k in range(n - 1, -1, -1):
            seat = (s["first"] + k) % n
            if seat not in gone:
                return seat
        return (s["first"] - 1) % n

    def next_seat(self, s: dict, seat: int) -> int:
        """The next seat in turn order whose player is still in the game."""
        gone = s.get("gone") or []
        n = s["players"]
        nxt = (seat + 1) % n
        while nxt in gone and nxt != seat:
            nxt = (nxt + 1) % n
        return nxt

    # -- leaving the game ------------------------------------------------------------------
    def resign(self, state, seat):
        """`seat` leaves the game (resigned, or dropped when their clock ran out).

        With two players the other wins at once. With more, the others play on: the
        leaver's energy goes back into the dispenser, their gizmos and archive stay
        where they are but do nothing any more, and turns skip them. If it was their
        turn it ends at once (cards they were researching go back under their deck,
        as after any research). The end of the game still comes after the last seat
        of the round (§11), now the last one still in. In the final ranking whoever
        left ranks below everyone still in, earlier leavers lower.
        """
        s = copy_state(state)
        gone = list(s.get("gone") or [])
        if s["over"] or seat in gone or type(seat) is not int or not 0 <= seat < s["players"]:
            return s
        was_last = seat == self.last_seat(s)
        gone.append(seat)
        s["gone"] = gone
        p = s["seats"][seat]
        energy = stored(p)
        for color, count in p["energy"].items():
            s["supply"][color] += count
            p["energy"][color] = 0
        s["log"].append({"kind": "resign", "seat": seat, "energy": energy})
        still = [q for q in range(s["players"]) if q not in gone]
        if len(still) == 1:
            self._game_over(s, "others_left")
            return s
        if s["current"] == seat:
            rng = Rng(s["rng"])
            if s["research"] is not None:
                research = s["research"]
                s["decks"][str(research["level"])].extend(research["cards"])
                s["log"].append({"kind": "research_end", "seat": seat, "level": research["level"],
                                 "returned": research.get("returned", 0) + len(research["cards"])})
                s["research"] = None
            s["used"], s["armed"], s["pending"], s["phase"] = [], [], None, "main"
            if s["ending"] and was_last:
                self._game_over(s, "end_condition")
            else:
                self._pass_turn(s, seat)
            s["rng"] = rng.state
        return s

    def _pass_turn(self, s, seat):
        """The turn goes to the next player still in; a new round when it passes the first."""
        nxt = self.next_seat(s, seat)
        n = s["players"]
        if (nxt - s["first"]) % n <= (seat - s["first"]) % n:
            s["round"] += 1
        s["current"] = nxt
        s["log"].append({"kind": "turn", "seat": s["current"], "round": s["round"]})

    # -- questions about the position --------------------------------------------------
    def _can_file(self, s, seat) -> bool:
        p = s["seats"][seat]
        return "file" not in forbidden(p["gizmos"]) and len(p["archive"]) < limits(p["gizmos"])["file_limit"]

    def _can_research(self, s, seat) -> bool:
        return ("research" not in forbidden(s["seats"][seat]["gizmos"])
                and any(s["decks"][k] for k in ("1", "2", "3")))

    def _can_pick(self, s, seat) -> bool:
        p = s["seats"][seat]
        return bool(s["row"]) and stored(p) < limits(p["gizmos"])["energy_limit"]

    def free_slots(self, s, seat) -> list[tuple]:
        """Unused converter slots: (gizmo, slot index, (from, to, count))."""
        pend = s["pending"] if s["phase"] == "pay" else None
        taken = {tuple(x) for x in pend["slots_used"]} if pend else set()
        out = []
        used = s["used"]
        for cid in s["seats"][seat]["gizmos"]:
            slots = SLOTS.get(cid)
            if not slots or cid in used:
                continue
            for si, slot in enumerate(slots):
                if (cid, si) not in taken:
                    out.append((cid, si, slot))
        return out

    def need(self, s, seat, cid, source) -> int:
        """The energy count to pay for `cid` from `source`, discounts applied (§7.1, §15 Q8)."""
        card = CARDS[cid]
        return max(0, card["cost"] - discount(s["seats"][seat]["gizmos"], source=source,
                                              level=card["level"]))

    def affordable(self, s, seat, cid, source, slots=None) -> bool:
        """Whether the seat can pay for `cid` now (converters included)."""
        need = self.need(s, seat, cid, source)
        return payment.can_pay(target=CARDS[cid]["color"], need=need,
                               storage=s["seats"][seat]["energy"],
                               slots=self.free_slots(s, seat) if slots is None else slots)

    def usable(self, s, seat, cid) -> bool:
        """Whether an armed gizmo's effect can do anything now (void effects are not offered)."""
        eff = CARDS[cid]["effect"]
        p = s["seats"][seat]
        if "draw_random" in eff:
            return stored(p) < limits(p["gizmos"])["energy_limit"] and sum(s["supply"].values()) > 0
        if "pick" in eff:
            return self._can_pick(s, seat)
        if "vp_tokens" in eff:
            return True
        if "perform_action" in eff:
            if eff["perform_action"] == "file":
                return self._can_file(s, seat) and any(self._display_cards(s))
            return self._can_research(s, seat)
        if "free_build" in eff:
            return bool(self._free_build_cards(s, seat))
        return False

    def automatic(self, s, seat) -> list[str]:
        """Armed gizmos, usable now, whose use involves no choice (VP tokens, random draws)."""
        return [g for g in s["armed"] if next(iter(CARDS[g]["effect"])) in AUTOMATIC
                and self.usable(s, seat, g)]

    def auto_fires(self, s, seat) -> bool:
        """Whether the seat has asked for its automatic gizmos to fire by themselves."""
        return seat in s.get("auto", ())

    def pay_plans(self, s, seat) -> list[dict]:
        """The whole payments open now, one per set of spheres spent, a cheapest first."""
        pend = s["pending"]
        p = s["seats"][seat]
        free = {c: p["energy"][c] - pend["spent"][c] for c in COLORS}
        return payment.plans(target=pend["target"], need=pend["need"], pool=pend["pool"],
                             storage=free, slots=self.free_slots(s, seat))

    def _display_cards(self, s):
        return [(lvl, i, cid) for lvl in ("1", "2", "3") for i, cid in enumerate(s["display"][lvl])
                if cid is not None]

    def _free_build_cards(self, s, seat):
        # §15 Q3: the free Level I build may take from the display or the Archive.
        level = 1
        out = [{"type": "build", "card": cid} for _l, _i, cid in self._display_cards(s)
               if CARDS[cid]["level"] == level]
        out += [{"type": "build", "card": cid} for cid in s["seats"][seat]["archive"]
                if CARDS[cid]["level"] == level]
        return out

    # -- legal moves ---------------------------------------------------------------------
    def legal_moves(self, state, seat):
        if state["over"] or seat != state["current"]:
            return []
        phase = state["phase"]
        return getattr(self, "_legal_" + phase)(state, seat)

    def _legal_main(self, s, seat):
        moves = []
        p = s["seats"][seat]
        if self._can_file(s, seat):
            moves += [{"type": "file", "card": cid} for _l, _i, cid in self._display_cards(s)]
        if self._can_pick(s, seat):
            moves += [{"type": "pick", "color": c} for c in COLORS if c in s["row"]]
        slots = self.free_slots(s, seat)
        pay = self._pay_context(s, seat, slots)
        for _l, _i, cid in self._display_cards(s):
            moves += self._build_moves(s, seat, cid, "display", slots, pay)
        for cid in p["archive"]:
            moves += self._build_moves(s, seat, cid, "archive", slots, pay)
        if "research" not in forbidden(p["gizmos"]):
            moves += [{"type": "research", "level": lvl} for lvl in (1, 2, 3) if s["decks"][str(lvl)]]
        if not moves:
            moves.append({"type": "pass"})  # §15 Q4: only when no action is possible
        return moves

    def _pay_context(self, s, seat, slots) -> tuple:
        """The seat's storage (COLORS order), its free `slots`' effects and a memo of its
        discounts by (source, level), for `_build_moves` listing several cards."""
        e = s["seats"][seat]["energy"]
        return tuple(e[c] for c in COLORS), payment._triples(slots), {}

    def _build_moves(self, s, seat, cid, source, slots, pay=None) -> list[dict]:
        """Build `cid` and then pay ("build"), or build it paying a cheapest way at once
        ("build" with that "spend"; the other ways are "pay" moves after a plain build).
        `pay`: `_pay_context` of the same `slots`, when several cards are listed."""
        if pay is None:
            need = self.need(s, seat, cid, source)
        else:  # `need`, each discount computed once per listing
            card = CARDS[cid]
            key = (source, card["level"])
            off = pay[2].get(key)
            if off is None:
                off = pay[2][key] = discount(s["seats"][seat]["gizmos"], source=source, level=card["level"])
            need = max(0, card["cost"] - off)
        if not need:
            return [{"type": "build", "card": cid}]
        # A cheapest payment's spheres (`payment.witness`), None where `affordable` is false.
        counts, triples, _discounts = pay or self._pay_context(s, seat, slots)
        spend = payment.spend_from(CARDS[cid]["color"], need, counts, triples)
        if spend is None:
            return []
        return [{"type": "build", "card": cid, "spend": spend}, {"type": "build", "card": cid}]

    def _legal_pay(self, s, seat):
        pend = s["pending"]
        p = s["seats"][seat]
        spends, steps = self._pay_listing(s, seat)
        moves = [{"type": "pay", "spend": dict(spend)} for spend in spends]
        moves += [dict(step) for step in steps]
        if not pend["pool"] and pend["source"] != "research":
            # Nothing paid yet: the build may be called off. Not a build out of a Research:
            # the card was shown to everyone to be paid for, and must stay a secret draw.
            moves.append({"type": "cancel"})
        return moves

    def _pay_listing(self, s, seat) -> tuple:
        """The whole payments' spheres and the steps open during a payment
        (`payment.spend_options`, `payment.options`), shared: copy what is handed out."""
        pend = s["pending"]
        p = s["seats"][seat]
        free = {c: p["energy"][c] - pend["spent"][c] for c in COLORS}
        return payment.pay_listing(target=pend["target"], need=pend["need"], pool=pend["pool"],
                                   storage=free, slots=self.free_slots(s, seat))

    def _legal_research(self, s, seat):
        moves = []
        cards = s["research"]["cards"]
        slots = self.free_slots(s, seat)
        pay = self._pay_context(s, seat, slots)
        for cid in cards:
            moves += self._build_moves(s, seat, cid, "research", slots, pay)
        if self._can_file(s, seat):
            moves += [{"type": "file", "card": cid} for cid in cards]
        moves.append({"type": "decline"})
        return moves

    def _legal_return(self, s, seat):
        return [{"type": "bottom", "card": cid} for cid in s["research"]["cards"]]

    def _legal_triggers(self, s, seat):
        moves = []
        for g in s["armed"]:
            if self.usable(s, seat, g):
                moves.append({"type": "use", "gizmo": g})
                if "pick" in CARDS[g]["effect"]:
                    # Use a Pick gizmo and make its first pick in one move.
                    moves += [{"type": "use", "gizmo": g, "color": c} for c in COLORS if c in s["row"]]
        if self.automatic(s, seat):
            moves.append({"type": "use_all"})
            if not self.auto_fires(s, seat):
                moves.append({"type": "auto", "on": True})
        if self.auto_fires(s, seat):
            moves.append({"type": "auto", "on": False})
        moves.append({"type": "end_turn"})
        return moves

    def _legal_pick(self, s, seat):
        return [{"type": "pick", "color": c} for c in COLORS if c in s["row"]] + [{"type": "stop"}]

    def _legal_file(self, s, seat):
        return [{"type": "file", "card": cid} for _l, _i, cid in self._display_cards(s)] + [{"type": "stop"}]

    def _legal_research_level(self, s, seat):
        return ([{"type": "research", "level": lvl} for lvl in (1, 2, 3) if s["decks"][str(lvl)]]
                + [{"type": "stop"}])

    def _legal_free_build(self, s, seat):
        return self._free_build_cards(s, seat) + [{"type": "stop"}]

    def _legal_over(self, s, seat):
        return []

    # -- applying ------------------------------------------------------------------------
    def apply(self, state, seat, move):
        self.require_seat(state, seat, state["players"])
        require_move_dict(move, MOVE_TYPES)
        move = check_legal(self.candidate_moves(state, seat, move), move)
        s = copy_state(state)
        self.apply_unchecked(s, seat, move)
        return s

    def candidate_moves(self, state, seat, move: dict) -> list[dict]:
        """The legal moves that could equal `move`: those of its type (and card) only.

        Every legal move equal to `move` is among them, so checking `move` against
        this short list accepts and refuses exactly what checking it against all of
        `legal_moves` would, without generating (and JSON-encoding) every other
        move, whose payments are the dear part."""
        if state["over"] or seat != state["current"]:
            return []
        s, phase, kind = state, state["phase"], move["type"]
        if phase == "main":
            if kind == "build":
                cid = move.get("card")
                if type(cid) is not str or cid not in CARDS:
                    return []
                if cid in s["seats"][seat]["archive"]:
                    source = "archive"
                elif any(cid == c for _l, _i, c in self._display_cards(s)):
                    source = "display"
                else:
                    return []
                return self._build_moves(s, seat, cid, source, self.free_slots(s, seat))
            if kind == "file":
                return ([{"type": "file", "card": c} for _l, _i, c in self._display_cards(s)]
                        if self._can_file(s, seat) else [])
            if kind == "pick":
                return ([{"type": "pick", "color": c} for c in COLORS if c in s["row"]]
                        if self._can_pick(s, seat) else [])
            if kind == "research":
                return ([{"type": "research", "level": lvl} for lvl in (1, 2, 3) if s["decks"][str(lvl)]]
                        if "research" not in forbidden(s["seats"][seat]["gizmos"]) else [])
            if kind != "pass":
                return []
        elif phase == "pay":
            pend = s["pending"]
            if kind == "cancel":
                return [{"type": "cancel"}] if not pend["pool"] and pend["source"] != "research" else []
            if kind == "pay":
                return [{"type": "pay", "spend": dict(spend)} for spend in self._pay_listing(s, seat)[0]]
            if kind in ("spend", "convert"):
                return [dict(step) for step in self._pay_listing(s, seat)[1]]
            return []
        elif phase == "research":
            cards = s["research"]["cards"]
            if kind == "build":
                cid = move.get("card")
                if type(cid) is not str or cid not in cards:
                    return []
                return self._build_moves(s, seat, cid, "research", self.free_slots(s, seat))
            if kind == "file":
                return [{"type": "file", "card": c} for c in cards] if self._can_file(s, seat) else []
            return [{"type": "decline"}] if kind == "decline" else []
        return self.legal_moves(state, seat)

    def apply_unchecked(self, s: dict, seat: int, move: dict) -> None:
        """Apply a move known to be legal, mutating `s` (bots simulate with this)."""
        rng = Rng(s["rng"])
        getattr(self, "_move_" + s["phase"])(s, seat, move, rng)
        s["rng"] = rng.state

    # main action ---------------------------------------------------------------------------
    def _move_main(self, s, seat, move, rng):
        kind = move["type"]
        if kind == "pass":
            s["passes"] += 1
            s["log"].append({"kind": "pass", "seat": seat})
            self._end_turn(s, rng)
            return
        s["passes"] = 0
        if kind == "file":
            self._do_file_display(s, seat, move["card"], rng)
            self._resume(s, rng)
        elif kind == "pick":
            self._do_pick(s, seat, move["color"], rng)
            self._resume(s, rng)
        elif kind == "build":
            source = "archive" if move["card"] in s["seats"][seat]["archive"] else "display"
            self._start_build(s, seat, move["card"], source, rng)
            if "spend" in move:
                self._move_pay(s, seat, {"type": "pay", "spend": move["spend"]}, rng)
        else:
            self._start_research(s, seat, move["level"])

    # the four actions ----------------------------------------------------------------------
    def _arm(self, s, seat, event, built=None) -> list[str]:
        """Arm every matching gizmo not used this turn, never the one just built (§8)."""
        armed = []
        for cid in s["seats"][seat]["gizmos"]:
            if cid == built or cid in s["used"] or cid in s["armed"]:
                continue
            if trigger_matches(cid, event):
                s["armed"].append(cid)
                armed.append(cid)
        return armed

    def _take_from_display(self, s, cid) -> tuple[str, str | None]:
        lvl = str(CARDS[cid]["level"])
        row = s["display"][lvl]
        i = row.index(cid)
        refill = s["decks"][lvl].pop(0) if s["decks"][lvl] else None
        row[i] = refill  # §10: refill from the same level's deck, or leave the slot empty
        return lvl, refill

    def _do_file_display(self, s, seat, cid, rng):
        _lvl, refill = self._take_from_display(s, cid)
        s["seats"][seat]["archive"].append(cid)
        armed = self._arm(s, seat, {"action": "file"})
        s["log"].append({"kind": "file", "seat": seat, "card": cid, "source": "display",
                         "refill": refill, "armed": armed})

    def _do_pick(self, s, seat, color, rng, gizmo=None):
        s["row"].remove(color)
        s["seats"][seat]["energy"][color] += 1
        added = _refill_row(s, rng)
        armed = self._arm(s, seat, {"action": "pick", "color": color})
        entry = {"kind": "pick", "seat": seat, "color": color, "refill": added}
        if armed:
            entry["armed"] = armed
        if gizmo:
            entry["gizmo"] = gizmo
        s["log"].append(entry)

    def _start_build(self, s, seat, cid, source, rng, free=False):
        need = 0 if free else self.need(s, seat, cid, source)
        if need == 0:
            self._finish_build(s, seat, cid, source, {c: 0 for c in COLORS}, [], rng, free=free)
            return
        s["phase"] = "pay"
        s["pending"] = {"card": cid, "source": source, "need": need, "target": CARDS[cid]["color"],
                        "pool": [], "spent": {c: 0 for c in COLORS}, "slots_used": []}

    def _finish_build(self, s, seat, cid, source, spent, converters, rng, free=False):
        p = s["seats"][seat]
        refill = None
        if source == "display":
            _lvl, refill = self._take_from_display(s, cid)
        elif source == "archive":
            p["archive"].remove(cid)
        else:
            s["research"]["cards"].remove(cid)
        for c in COLORS:
            p["energy"][c] -= spent[c]
            s["supply"][c] += spent[c]  # §6.3: spent energy goes back into the dispenser
        for g in converters:
            if g not in s["used"]:
                s["used"].append(g)
        p["gizmos"].append(cid)
        armed = self._arm(s, seat, {"action": "build", "card": cid, "source": source}, built=cid)
        entry = {"kind": "build", "seat": seat, "card": cid, "source": source,
                 "paid": {c: n for c, n in spent.items() if n}, "converters": list(converters),
                 "refill": refill, "armed": armed}
        if free:
            entry["free"] = True
        s["log"].append(entry)
        row_added = _refill_row(s, rng)
        if row_added:
            s["log"].append({"kind": "row_refill", "colors": row_added})
        level3 = sum(1 for g in p["gizmos"] if CARDS[g]["level"] == 3)
        if not s["ending"] and (level3 >= END_LEVEL3 or len(p["gizmos"]) >= END_GIZMOS):
            s["ending"] = True
            s["log"].append({"kind": "end_triggered", "seat": seat, "level3": level3,
                             "gizmos": len(p["gizmos"])})
        if source == "research":
            self._after_research_choice(s, seat, rng)
        else:
            self._resume(s, rng)

    def _start_research(self, s, seat, level):
        p = s["seats"][seat]
        deck = s["decks"][str(level)]
        n = min(limits(p["gizmos"])["research"], len(deck))
        cards = deck[:n]
        del deck[:n]
        s["research"] = {"level": level, "cards": cards}
        s["phase"] = "research"
        s["pending"] = None
        s["log"].append({"kind": "research", "seat": seat, "level": level, "count": n})
        s["log"].append({"kind": "research_draw", "seat": seat, "level": level, "cards": list(cards),
                         "private_to": seat})

    def _after_research_choice(self, s, seat, rng):
        if len(s["research"]["cards"]) >= 2:
            s["phase"] = "return"
            s["pending"] = None
            return
        self._end_research(s, seat, rng)

    def _end_research(self, s, seat, rng):
        research = s["research"]
        s["decks"][str(research["level"])].extend(research["cards"])
        s["log"].append({"kind": "research_end", "seat": seat, "level": research["level"],
                         "returned": research.get("returned", 0) + len(research["cards"])})
        s["research"] = None
        self._resume(s, rng)

    # pay -----------------------------------------------------------------------------------
    def _move_pay(self, s, seat, move, rng):
        pend = s["pending"]
        if move["type"] == "cancel":
            s["pending"] = None
            s["phase"] = "main"
            s["log"].append({"kind": "cancel", "seat": seat, "card": pend["card"]})
            return
        if move["type"] == "pay":
            p = s["seats"][seat]
            steps = payment.witness_moves(
                target=pend["target"], need=pend["need"], pool=pend["pool"],
                storage={c: p["energy"][c] - pend["spent"][c] for c in COLORS},
                slots=self.free_slots(s, seat), only=move["spend"])
            for step in steps:
                self._move_pay(s, seat, step, rng)
            return
        if move["type"] == "spend":
            origin = max((u[1] for u in pend["pool"]), default=-1) + 1
            pend["pool"].append([move["color"], origin])
            pend["spent"][move["color"]] += 1
        else:
            unit = pend["pool"][move["unit"]]
            pend["slots_used"].append([move["gizmo"], move["slot"]])
            if "to" in move:
                unit[0] = move["to"]
            else:
                pend["pool"].append([unit[0], unit[1]])
        if payment.complete(pend["target"], pend["need"], pend["pool"]):
            converters = []
            for g, _si in pend["slots_used"]:
                if g not in converters:
                    converters.append(g)
            s["pending"] = None
            self._finish_build(s, seat, pend["card"], pend["source"], pend["spent"], converters, rng)

    # research ------------------------------------------------------------------------------
    def _move_research(self, s, seat, move, rng):
        kind = move["type"]
        if kind == "build":
            self._start_build(s, seat, move["card"], "research", rng)
            if "spend" in move:
                self._move_pay(s, seat, {"type": "pay", "spend": move["spend"]}, rng)
            return
        if kind == "file":
            s["research"]["cards"].remove(move["card"])
            s["seats"][seat]["archive"].append(move["card"])
            armed = self._arm(s, seat, {"action": "file"})
            s["log"].append({"kind": "file", "seat": seat, "card": move["card"], "source": "research",
                             "refill": None, "armed": armed})
        else:
            s["log"].append({"kind": "decline", "seat": seat})
        self._after_research_choice(s, seat, rng)

    def _move_return(self, s, seat, move, rng):
        research = s["research"]
        research["cards"].remove(move["card"])
        s["decks"][str(research["level"])].append(move["card"])
        research["returned"] = research.get("returned", 0) + 1
        if len(research["cards"]) <= 1:
            self._end_research(s, seat, rng)

    # triggers ------------------------------------------------------------------------------
    def _resume(self, s, rng):
        """Back to the chain reaction after an action completes; end the turn if nothing is usable.

        A seat that asked for it has its automatic gizmos fired here: VP tokens at once,
        random draws once no other usable gizmo is armed (a draw could fill the storage
        a Pick would want, so while there is a choice the order stays the player's)."""
        seat = s["current"]
        s["pending"] = None
        if self.auto_fires(s, seat):
            self._fire_automatic(s, seat, rng, all_kinds=False)
        if any(self.usable(s, seat, g) for g in s["armed"]):
            s["phase"] = "triggers"
        else:
            self._end_turn(s, rng)

    def _fire_automatic(self, s, seat, rng, *, all_kinds: bool) -> None:
        """Use the automatic gizmos one after another (see `_resume` for `all_kinds`)."""
        while True:
            autos = self.automatic(s, seat)
            if not all_kinds and any(g not in autos and self.usable(s, seat, g) for g in s["armed"]):
                autos = [g for g in autos if "vp_tokens" in CARDS[g]["effect"]]
            if not autos:
                return
            self._use_automatic(s, seat, autos[0], rng)

    def _use_automatic(self, s, seat, g, rng) -> None:
        s["armed"].remove(g)
        s["used"].append(g)
        eff = CARDS[g]["effect"]
        p = s["seats"][seat]
        if "draw_random" in eff:
            drawn = []
            cap = limits(p["gizmos"])["energy_limit"]
            for _ in range(eff["draw_random"]):
                if stored(p) >= cap:
                    break  # a full storage blocks random draws (§7.6)
                color = _draw_sphere(s, rng)
                if color is None:
                    break
                p["energy"][color] += 1
                drawn.append(color)
            s["log"].append({"kind": "use", "seat": seat, "gizmo": g, "effect": "draw", "colors": drawn})
        else:
            p["tokens"] += eff["vp_tokens"]
            s["log"].append({"kind": "use", "seat": seat, "gizmo": g, "effect": "vp",
                             "vp": eff["vp_tokens"]})

    def _move_triggers(self, s, seat, move, rng):
        if move["type"] == "end_turn":
            self._end_turn(s, rng)
            return
        if move["type"] == "use_all":
            self._fire_automatic(s, seat, rng, all_kinds=True)
            self._resume(s, rng)
            return
        if move["type"] == "auto":
            auto = set(s.get("auto", ()))
            auto.add(seat) if move["on"] else auto.discard(seat)
            s["auto"] = sorted(auto)
            s["log"].append({"kind": "auto", "seat": seat, "on": move["on"]})
            if move["on"]:
                self._fire_automatic(s, seat, rng, all_kinds=True)
            self._resume(s, rng)
            return
        g = move["gizmo"]
        eff = CARDS[g]["effect"]
        if next(iter(eff)) in AUTOMATIC:
            self._use_automatic(s, seat, g, rng)
            self._resume(s, rng)
            return
        s["armed"].remove(g)
        s["used"].append(g)
        if "pick" in eff:
            s["log"].append({"kind": "use", "seat": seat, "gizmo": g, "effect": "pick",
                             "count": eff["pick"]})
            s["phase"] = "pick"
            s["pending"] = {"gizmo": g, "left": eff["pick"]}
            if "color" in move:
                self._move_pick(s, seat, {"type": "pick", "color": move["color"]}, rng)
        elif "perform_action" in eff:
            action = eff["perform_action"]
            s["log"].append({"kind": "use", "seat": seat, "gizmo": g, "effect": action})
            s["phase"] = "file" if action == "file" else "research_level"
            s["pending"] = {"gizmo": g}
        else:
            s["log"].append({"kind": "use", "seat": seat, "gizmo": g, "effect": "free_build"})
            s["phase"] = "free_build"
            s["pending"] = {"gizmo": g}

    def _move_pick(self, s, seat, move, rng):
        pend = s["pending"]
        if move["type"] == "stop":
            s["log"].append({"kind": "stop", "seat": seat, "gizmo": pend["gizmo"]})
            self._resume(s, rng)
            return
        self._do_pick(s, seat, move["color"], rng, gizmo=pend["gizmo"])
        pend["left"] -= 1
        # §8 rule 6: the rest of the effect is void when it cannot be carried out.
        if pend["left"] <= 0 or not self._can_pick(s, seat):
            self._resume(s, rng)

    def _move_file(self, s, seat, move, rng):
        if move["type"] == "stop":
            s["log"].append({"kind": "stop", "seat": seat, "gizmo": s["pending"]["gizmo"]})
            self._resume(s, rng)
            return
        self._do_file_display(s, seat, move["card"], rng)
        self._resume(s, rng)

    def _move_research_level(self, s, seat, move, rng):
        if move["type"] == "stop":
            s["log"].append({"kind": "stop", "seat": seat, "gizmo": s["pending"]["gizmo"]})
            self._resume(s, rng)
            return
        self._start_research(s, seat, move["level"])

    def _move_free_build(self, s, seat, move, rng):
        if move["type"] == "stop":
            s["log"].append({"kind": "stop", "seat": seat, "gizmo": s["pending"]["gizmo"]})
            self._resume(s, rng)
            return
        cid = move["card"]
        source = "archive" if cid in s["seats"][seat]["archive"] else "display"
        s["pending"] = None
        self._start_build(s, seat, cid, source, rng, free=True)

    # end of turn / game --------------------------------------------------------------------
    def _end_turn(self, s, rng):
        seat = s["current"]
        s["log"].append({"kind": "end_turn", "seat": seat})
        s["used"] = []
        s["armed"] = []
        s["pending"] = None
        s["phase"] = "main"
        if s["ending"] and seat == self.last_seat(s):
            self._game_over(s, "end_condition")
            return
        if s["passes"] >= s["players"] - len(s.get("gone") or []):
            # Engine safeguard: a whole round in which nobody could act would repeat forever.
            self._game_over(s, "stalemate")
            return
        self._pass_turn(s, seat)

    def _game_over(self, s, reason):
        s["over"] = True
        s["phase"] = "over"
        s["reason"] = reason
        out = self.outcome(s)
        s["log"].append({"kind": "game_end", "reason": reason, "scores": out["scores"],
                         "winners": out["winners"], "tiebreak": out["tiebreak"]})

    def ranking(self, s) -> list[int]:
        """Seats best first: VP, then active gizmos, then energy, then later in turn order (§12)."""
        n = s["players"]
        gone = s.get("gone") or []

        def key(seat):
            p = s["seats"][seat]
            # Whoever left ranks below everyone still in, earlier leavers lower.
            left = gone.index(seat) - len(gone) if seat in gone else 0
            return (left, score(p), len(p["gizmos"]), stored(p), (seat - s["first"]) % n)
        return sorted(range(n), key=key, reverse=True)

    def outcome(self, state):
        if not state["over"]:
            return None
        order = self.ranking(state)
        seats = state["seats"]
        best, second = order[0], order[1]
        gone = state.get("gone") or []
        keys = [
            ("vp", lambda q: score(seats[q])),
            ("gizmos", lambda q: len(seats[q]["gizmos"])),
            ("energy", lambda q: stored(seats[q])),
        ]
        tiebreak = "turn_order"
        if second in gone:  # the winner is ahead of every leaver whatever the points
            keys = []
            tiebreak = None
        for name, fn in keys:
            if fn(best) != fn(second):
                tiebreak = None if name == "vp" else name
                break
        return {
            "winners": [best],
            "scores": {str(q): score(seats[q]) for q in range(state["players"])},
            "ranking": order, "tiebreak": tiebreak, "reason": state["reason"],
            **({"left": list(gone)} if gone else {}),
        }

    def result(self, state):
        """Places from the full ranking (VP, then gizmos, energy, turn order: no ties)."""
        if not state["over"]:
            return None
        order = self.ranking(state)
        places = [0] * state["players"]
        for place, seat in enumerate(order, start=1):
            places[seat] = place
        return {"places": places, "winners": [order[0]],
                "scores": [score(state["seats"][q]) for q in range(state["players"])]}

    # -- storage -------------------------------------------------------------------------
    def dump(self, state):
        return _deep(state)

    def load(self, data):
        return _deep(data)

    def seat_names(self, state):
        return None
