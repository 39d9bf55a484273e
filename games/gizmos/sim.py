"""The fast Gizmos rules for bots' simulations (issue 15); never used by the write path.

`SIMULATOR` offers the interface the search and the bench call for every game:
`clone(state)`, `to_move(state)`, `legal_moves(state, seat)`, `play(state, seat, move)`
(in place, trusting a move taken from `legal_moves`: no validation, no JSON) and
`outcome(state)`. Its states are the rules' own state dicts (`from_rules` makes one)
with one difference: their `log` is a sink that keeps nothing, so a move builds no
history and a copy copies none.

What makes it fast is memoisation of the parts that depend on few inputs:
- the build moves of a card depend only on the card, the energy it needs after
  discounts, the seat's storage and its free converter slots (as effects): one memo
  table per storage and slots, then per card (and per colour for the payment, from
  `payment`'s own memo of a cheapest payment, `payment.cheapest_spend`);
- a seat's limits, forbidden actions, discounts and converter slots depend only on its
  gizmos (built from those of all but the last gizmo);
- the gizmos an action arms depend only on the action (then on which are built, used
  or armed already);
- the payment steps during a payment, and what a whole "pay" move adds up to (spheres
  spent, converters used), depend only on the payment so far, the free storage and the
  free slots.
The moves it returns are shared between calls: read them, never change them.
`tests/gizmos/test_sim.py` checks over thousands of seeded random playouts that it
gives the same states (log aside), legal moves, players to move and outcomes as the
checked rules.
"""

from __future__ import annotations

from functools import lru_cache

from games.engine import Rng

from .rules import payment
from .rules.cards import CARDS, COLORS, SLOTS, discount, forbidden, limits, trigger_matches
from .rules.game import GizmosRules


class _Sink(list):
    """A log that keeps nothing (the simulator never reads history)."""

    __slots__ = ()

    def append(self, _entry):
        pass

    def extend(self, _entries):
        pass


_SINK = _Sink()


def _card_facts(cid: str) -> tuple:
    """What one gizmo adds to a seat's limits, forbidden actions and discounts (only what
    it changes: empty for most gizmos)."""
    one = [cid]
    base = limits([])
    lim = {k: v - base[k] for k, v in limits(one).items() if v != base[k]}
    disc = {(src, lvl): discount(one, source=src, level=lvl)
            for src in ("display", "archive", "research") for lvl in (1, 2, 3)}
    return lim, frozenset(forbidden(one)), {k: v for k, v in disc.items() if v}


_CARD_FACTS = {cid: _card_facts(cid) for cid in CARDS}
_BASE_LIMITS = limits([])
_NO_DISCOUNT = {(src, lvl): 0 for src in ("display", "archive", "research") for lvl in (1, 2, 3)}
_SOURCES = ("display", "archive", "research")


@lru_cache(maxsize=16_384)
def _seat_facts(gizmos: tuple) -> tuple:
    """(limits, forbidden actions, discounts by (source, level), discounts by source as
    (0, level I, level II, level III), every converter slot's effect sorted) of a seat's gizmos.

    Built from the facts of all gizmos but the last (gizmos are added one at a time, so
    those are mostly known already) and the last one's."""
    if not gizmos:
        lim, forb, disc, triples = dict(_BASE_LIMITS), set(), dict(_NO_DISCOUNT), ()
    else:
        last = gizmos[-1]
        base = _seat_facts(gizmos[:-1])
        lim, forb, disc, triples = base[0], base[1], base[2], base[4]
        c_lim, c_forb, c_disc = _CARD_FACTS[last]
        if c_lim:
            lim = dict(lim)
            for k, v in c_lim.items():
                lim[k] += v
        if c_forb:
            forb = forb | c_forb
        if c_disc:
            disc = dict(disc)
            for k, v in c_disc.items():
                disc[k] += v
        slots = SLOTS.get(last)
        if slots:
            triples = tuple(sorted(triples + slots))
        if not (c_lim or c_disc):
            return lim, forb, disc, base[3], triples
    by_source = {src: (0, disc[(src, 1)], disc[(src, 2)], disc[(src, 3)]) for src in _SOURCES}
    return lim, forb, disc, by_source, triples


_PLAIN_BUILDS = {cid: ({"type": "build", "card": cid},) for cid in CARDS}
_COST_LEVEL = {cid: (c["cost"], c["level"]) for cid, c in CARDS.items()}
_COLOR = {cid: c["color"] for cid, c in CARDS.items()}


@lru_cache(maxsize=8_192)
def _build_table(energy: tuple, triples: tuple) -> tuple:
    """For one storage and one set of free slots' effects: ((card, energy it needs) -> its
    build moves, (colour, energy) -> a cheapest payment's spheres or None), filled as cards
    are asked for (one memo key hashed per listing, not one per card)."""
    return {}, {}


@lru_cache(maxsize=8_192)
def _quick_build_table(energy: tuple, triples: tuple) -> tuple:
    """`_build_table` for the rollouts' simulator (`ROLLOUT_SIMULATOR`), kept apart: its
    payments are `payment.quick_spend`'s, which the rules' legal moves never list."""
    return {}, {}


def _quick_spend_of(color: str, need: int, energy: tuple, triples: tuple) -> tuple | None:
    """`payment.quick_spend` as `payment._spend_of` answers: (colour, count) pairs or None."""
    spend = payment.quick_spend(color, need, energy, triples)
    if spend is None:
        return None
    return tuple((c, n) for c, n in zip(COLORS, spend) if n)


_UNKNOWN = object()


def _card_builds(cid: str, need: int, energy: tuple, triples: tuple, spends: dict,
                 spend_of) -> tuple:
    """The legal build moves of `cid` (as `GizmosRules._build_moves` lists them); `spends`:
    the `_build_table` memo of payments for this storage and these slots; `spend_of`: how a
    payment's spheres are found (the rules' cheapest payment unless the rollouts' simulator)."""
    if need <= 0:
        return _PLAIN_BUILDS[cid]
    color = _COLOR[cid]
    spend = spends.get((color, need), _UNKNOWN)
    if spend is _UNKNOWN:
        spend = spends[(color, need)] = spend_of(color, need, energy, triples)
    if spend is None:  # it cannot be paid (`payment.can_pay`)
        return ()
    return _paid_builds(cid, spend)


@lru_cache(maxsize=5_000)
def _paid_builds(cid: str, spend: tuple) -> tuple:
    """Build `cid` paying `spend` ((colour, count) pairs) at once, or build it and then pay."""
    return ({"type": "build", "card": cid, "spend": dict(spend)}, _PLAIN_BUILDS[cid][0])


@lru_cache(maxsize=10_000)
def _pay_moves(target: str, need: int, pool: tuple, free: tuple, slots: tuple, cancel: bool) -> tuple:
    """The legal moves during a payment (as `GizmosRules._legal_pay` lists them)."""
    spends, steps = payment._pay_listing(target, need, pool, free, slots)
    moves = [{"type": "pay", "spend": spend} for spend in spends]
    moves += steps
    if cancel:
        moves.append({"type": "cancel"})
    return tuple(moves)


@lru_cache(maxsize=10_000)
def _pay_effect(target: str, need: int, pool: tuple, free: tuple, slots: tuple, only: tuple) -> tuple:
    """What the steps of a whole "pay" move (as `GizmosRules._move_pay` finds them with
    `payment.witness`) add up to: the spheres spent (COLORS order) and the converter slots
    used, in order, as (gizmo, slot). The payment completes with its last step."""
    spend = [0] * len(COLORS)
    slots_used = []
    for step in payment._witness_moves(target, need, pool, free, slots, only):
        if step["type"] == "spend":
            spend[COLORS.index(step["color"])] += 1
        else:
            slots_used.append((step["gizmo"], step["slot"]))
    return tuple(spend), tuple(slots_used)


_FILE_MOVES = {cid: {"type": "file", "card": cid} for cid in CARDS}
_PICK_MOVES = {c: {"type": "pick", "color": c} for c in COLORS}
_RESEARCH_MOVES = {lvl: {"type": "research", "level": lvl} for lvl in (1, 2, 3)}


class _SimRules(GizmosRules):
    """The rules with memoised move generation (the same moves, the same effects)."""

    _build_table = staticmethod(_build_table)
    _spend_of = staticmethod(payment._spend_of)

    def _facts(self, s, seat):
        return _seat_facts(tuple(s["seats"][seat]["gizmos"]))

    def _can_file(self, s, seat):
        p = s["seats"][seat]
        facts = self._facts(s, seat)
        return "file" not in facts[1] and len(p["archive"]) < facts[0]["file_limit"]

    def _can_research(self, s, seat):
        return ("research" not in self._facts(s, seat)[1]
                and any(s["decks"][k] for k in ("1", "2", "3")))

    def _can_pick(self, s, seat):
        p = s["seats"][seat]
        if not s["row"]:
            return False
        e = p["energy"]
        return e["red"] + e["yellow"] + e["blue"] + e["black"] < self._facts(s, seat)[0]["energy_limit"]

    def need(self, s, seat, cid, source):
        card = CARDS[cid]
        return max(0, card["cost"] - self._facts(s, seat)[2][(source, card["level"])])

    def _triples(self, s, seat, facts):
        """The effects of the seat's free converter slots, sorted (`payment._triples`)."""
        used = s["used"]
        pend = s["pending"] if s["phase"] == "pay" else None
        if pend and pend["slots_used"]:
            return payment._triples(self.free_slots(s, seat))
        if not used:
            return facts[4]
        out = []
        for cid in s["seats"][seat]["gizmos"]:
            slots = SLOTS.get(cid)
            if slots and cid not in used:
                out.extend(slots)
        out.sort()
        return tuple(out)

    def _energy(self, s, seat):
        e = s["seats"][seat]["energy"]
        return (e["red"], e["yellow"], e["blue"], e["black"])

    def _builds(self, s, seat, cards, source, facts):
        """The build moves of `cards` from `source` (`facts`: the seat's `_seat_facts`)."""
        disc = facts[3][source]
        e = s["seats"][seat]["energy"]
        energy = (e["red"], e["yellow"], e["blue"], e["black"])
        triples = self._triples(s, seat, facts)
        table, spends = self._build_table(energy, triples)
        moves = []
        for cid in cards:
            cost, level = _COST_LEVEL[cid]
            need = cost - disc[level]
            if need < 0:
                need = 0
            key = (cid, need)
            found = table.get(key)
            if found is None:
                found = table[key] = _card_builds(cid, need, energy, triples, spends, self._spend_of)
            moves += found
        return moves

    def _legal_main(self, s, seat):
        moves = []
        p = s["seats"][seat]
        facts = self._facts(s, seat)
        lim, forb = facts[0], facts[1]
        dis = s["display"]
        display = [cid for row in (dis["1"], dis["2"], dis["3"]) for cid in row if cid is not None]
        if "file" not in forb and len(p["archive"]) < lim["file_limit"]:
            moves += [_FILE_MOVES[cid] for cid in display]
        row = s["row"]
        if row:
            e = p["energy"]
            if e["red"] + e["yellow"] + e["blue"] + e["black"] < lim["energy_limit"]:
                moves += [_PICK_MOVES[c] for c in COLORS if c in row]
        moves += self._builds(s, seat, display, "display", facts)
        if p["archive"]:
            moves += self._builds(s, seat, p["archive"], "archive", facts)
        if "research" not in forb:
            decks = s["decks"]
            moves += [_RESEARCH_MOVES[lvl] for lvl in (1, 2, 3) if decks[str(lvl)]]
        if not moves:
            moves.append({"type": "pass"})
        return moves

    def _legal_research(self, s, seat):
        cards = s["research"]["cards"]
        moves = self._builds(s, seat, cards, "research", self._facts(s, seat))
        if self._can_file(s, seat):
            moves += [_FILE_MOVES[cid] for cid in cards]
        moves.append({"type": "decline"})
        return moves

    def _move_pay(self, s, seat, move, rng):
        if move["type"] != "pay":
            return super()._move_pay(s, seat, move, rng)
        pend = s["pending"]
        e = s["seats"][seat]["energy"]
        spent = pend["spent"]
        spend, slots_used = _pay_effect(
            pend["target"], pend["need"], tuple(tuple(u) for u in pend["pool"]),
            tuple(e[c] - spent[c] for c in COLORS), tuple(self.free_slots(s, seat)),
            tuple(move["spend"].get(c, 0) for c in COLORS))
        # The rules' own steps, added up: the payment completes with the last one.
        converters = []
        for g, _si in pend["slots_used"]:
            if g not in converters:
                converters.append(g)
        for g, _si in slots_used:
            if g not in converters:
                converters.append(g)
        for c, n in zip(COLORS, spend):
            spent[c] += n
        s["pending"] = None
        self._finish_build(s, seat, pend["card"], pend["source"], spent, converters, rng)

    def _legal_pay(self, s, seat):
        pend = s["pending"]
        e = s["seats"][seat]["energy"]
        spent = pend["spent"]
        free = tuple(e[c] - spent[c] for c in COLORS)
        return list(_pay_moves(pend["target"], pend["need"], tuple(tuple(u) for u in pend["pool"]),
                               free, tuple(self.free_slots(s, seat)),
                               not pend["pool"] and pend["source"] != "research"))

    def _arm(self, s, seat, event, built=None):
        matching = _armed_by(event["action"], event.get("color"), event.get("card"), event.get("source"))
        armed = []
        if not matching:
            return armed
        used, already = s["used"], s["armed"]
        for cid in s["seats"][seat]["gizmos"]:
            if cid in matching and cid != built and cid not in used and cid not in already:
                already.append(cid)
                armed.append(cid)
        return armed

    def usable(self, s, seat, cid):
        eff = CARDS[cid]["effect"]
        if "draw_random" in eff:
            p = s["seats"][seat]
            return (sum(p["energy"].values()) < self._facts(s, seat)[0]["energy_limit"]
                    and sum(s["supply"].values()) > 0)
        return super().usable(s, seat, cid)


_RULES = _SimRules(slug="gizmos", name="Gizmos", min_players=2, max_players=4)
_PHASES = ("main", "pay", "research", "return", "triggers", "pick", "file", "research_level",
           "free_build", "over")
_LEGAL = {phase: getattr(_RULES, "_legal_" + phase) for phase in _PHASES}
_MOVE = {phase: getattr(_RULES, "_move_" + phase) for phase in _PHASES if phase != "over"}


@lru_cache(maxsize=None)
def _armed_by(action: str, color, card, source) -> frozenset:
    """The gizmos whose trigger an action event (as `GizmosRules._arm` gets it) meets."""
    event = {"action": action}
    if color is not None:
        event["color"] = color
    if card is not None:
        event["card"] = card
    if source is not None:
        event["source"] = source
    return frozenset(cid for cid in CARDS if trigger_matches(cid, event))


def _copy_pending(pend):
    if pend is None:
        return None
    if "pool" in pend:
        return {"card": pend["card"], "source": pend["source"], "need": pend["need"],
                "target": pend["target"], "pool": [list(u) for u in pend["pool"]],
                "spent": dict(pend["spent"]), "slots_used": [list(x) for x in pend["slots_used"]]}
    return dict(pend)


class Simulator:
    """Fast, unchecked Gizmos rules on (log-less) state dicts."""

    rules = _RULES
    _legal = _LEGAL
    _move = _MOVE

    def from_rules(self, state: dict) -> dict:
        """A simulator state equal to the rules' `state` (which stays untouched), log aside."""
        return self.clone(state)

    def clone(self, s: dict) -> dict:
        t = dict(s)
        t["supply"] = dict(s["supply"])
        t["row"] = list(s["row"])
        decks = s["decks"]
        t["decks"] = {"1": list(decks["1"]), "2": list(decks["2"]), "3": list(decks["3"])}
        display = s["display"]
        t["display"] = {"1": list(display["1"]), "2": list(display["2"]), "3": list(display["3"])}
        t["seats"] = [{"energy": dict(p["energy"]), "archive": list(p["archive"]),
                       "gizmos": list(p["gizmos"]), "tokens": p["tokens"]} for p in s["seats"]]
        t["pending"] = _copy_pending(s["pending"])
        r = s["research"]
        if r is not None:
            r = dict(r)
            r["cards"] = list(r["cards"])
        t["research"] = r
        t["used"] = list(s["used"])
        t["armed"] = list(s["armed"])
        t["log"] = _SINK
        if "auto" in s:
            t["auto"] = list(s["auto"])
        return t

    def to_move(self, s: dict) -> frozenset:
        return frozenset() if s["over"] else frozenset((s["current"],))

    def current(self, s: dict) -> int | None:
        """The one seat to move (Gizmos has no simultaneous decisions), or None at the end."""
        return None if s["over"] else s["current"]

    def legal_moves(self, s: dict, seat: int) -> list[dict]:
        if s["over"] or seat != s["current"]:
            return []
        return self._legal[s["phase"]](s, seat)

    def play(self, s: dict, seat: int, move: dict) -> dict:
        """Apply a move taken from `legal_moves` to `s` in place (and return `s`)."""
        if s["log"] is not _SINK:
            s["log"] = _SINK
        rng = Rng(s["rng"])
        self._move[s["phase"]](s, seat, move, rng)
        s["rng"] = rng.state
        return s

    def outcome(self, s: dict) -> dict | None:
        return _RULES.outcome(s)


SIMULATOR = Simulator()


class _RolloutRules(_SimRules):
    """The simulator's rules with a build's payment found by `payment.quick_spend` (as few
    spheres as any payment, by the order-free search) instead of the rules' cheapest one,
    whose search grows steeply with a player's converters (late in a game it cost the expert
    seconds a decision). The same cards are buildable (`quick_spend` is None exactly where
    the cheapest payment is), and every payment it lists is one `play` carries out; only
    which spheres pay may differ. For the expert's rollouts only: never the legal moves a
    player is offered or a move is checked against."""

    _build_table = staticmethod(_quick_build_table)
    _spend_of = staticmethod(_quick_spend_of)

    def _move_pay(self, s, seat, move, rng):
        """A whole payment from scratch takes its converter slots from the order-free search
        (`payment.quick_slots`), not from the cheapest payment's steps."""
        pend = s["pending"]
        if move["type"] != "pay" or pend["pool"] or pend["slots_used"]:
            return super()._move_pay(s, seat, move, rng)
        spend = tuple(move["spend"].get(c, 0) for c in COLORS)
        free = self.free_slots(s, seat)
        path = payment.quick_slots(pend["target"], pend["need"], spend, payment._triples(free))
        if path is None:  # not from this simulator's listing: the rules' own way
            return super()._move_pay(s, seat, move, rng)
        converters = []
        unused = list(free)
        for effect in path:
            payment.take_slot(unused, effect, converters)
        spent = pend["spent"]
        for c, n in zip(COLORS, spend):
            spent[c] += n
        s["pending"] = None
        self._finish_build(s, seat, pend["card"], pend["source"], spent, converters, rng)


_ROLLOUT_RULES = _RolloutRules(slug="gizmos", name="Gizmos", min_players=2, max_players=4)


class RolloutSimulator(Simulator):
    """`Simulator` on `_RolloutRules`: the expert bot's rollouts (games.gizmos.expert)."""

    rules = _ROLLOUT_RULES
    _legal = {phase: getattr(_ROLLOUT_RULES, "_legal_" + phase) for phase in _PHASES}
    _move = {phase: getattr(_ROLLOUT_RULES, "_move_" + phase) for phase in _PHASES if phase != "over"}


ROLLOUT_SIMULATOR = RolloutSimulator()
