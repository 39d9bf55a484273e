"""Powerhouse bots: random, fast (greedy) and strong (lookahead with threat awareness).

Pure Python. A bot sees one seat's view and its legal moves, never the state.
Everything at a Powerhouse table is public except the bag's order, and the
bag's contents by type are in the view, so the bot rebuilds an equivalent
state from the view (`state_from_view`, with a generator of its own standing in
for the bag's order) and simulates with the real rules.

- ``random``: a uniformly random legal move (in a very long game it tires into the fast
  bot's moves, so two random bots still finish; see RANDOM_PATIENCE_TURNS; every level tires into
  draws that lead to an end, see PATIENCE_TURNS).
- ``fast``: plans on bare networks, without the rules' state: a whole reaction
  (reactor or battery, discard, give, recipient and take) scored at once, a size
  to draw by the expected best reaction over the colours it may bring, a die by
  a meltdown in which every seat sheds its least useful pieces. It plays toward
  its own clean powerhouse, so its games end (docs/games/powerhouse.md).
- ``strong``: one whole reaction ahead (every give and take of a transform, or
  the battery's discard, give and take, together), draws valued through the
  reactions they set off, meltdowns simulated with every seat shedding its
  worst pieces, and a score that weighs each opponent's chance of winning on
  their next turn (a die that cleans them up, or a draw that completes them).
- ``expert``: determinized Monte Carlo search with the fast policy as rollout
  (games/powerhouse/expert.py, games/engine/search.py).
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from games.engine import Rng
from games.engine.patience import tired

from .rules import game
from .rules.pieces import (
    COLOR_INDEX, COLORS, NC, NS, NTYPES, TYPE_INDEX, TYPE_NAMES, batteries, is_clean, is_protected,
    powerhouse_count, row_min,
)
from .rules.view import state_from_view

LEVELS = ("random", "fast", "strong", "expert")

WIN = 10_000.0
# Weights found by seeded 2-player matches (strong against fast); see docs/games/powerhouse.md.
OPP_WEIGHT = 0.2       # how much the nearest opponent's distance from winning is worth
FAST_OPP_WEIGHT = 0.3  # the same for the fast bot, which sees no threats
THREAT_WEIGHT = 8.0    # an opponent's chance to win before our next turn
CHANCE_WEIGHT = 8.0    # our own chance to win on our next turn
MAX_LEAVES = 4000      # cap on positions the strong bot scores for one reaction


def choose(view: dict, legal: list[dict], *, level: str, rng: Rng,
           max_leaves: int = MAX_LEAVES, iterations: int | None = None) -> dict:
    """Pick one of `legal` for the seat whose view this is."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    if not legal:
        raise ValueError("no legal move to choose from")
    if len(legal) == 1:
        return rng.choice(legal)
    if level == "random" and not _random_tires(view, rng):
        return rng.choice(legal)
    seat = view["you"]["seat"]
    if level == "expert":
        from . import expert

        return expert.choose(view, legal, rng, iterations)
    restless = _restless_draw(view, legal, rng)
    if restless is not None:
        return restless
    state = state_from_view(view, rng.next64())
    if level == "fast":
        return _choose_fast(state, seat, legal)
    return _choose_strong(state, seat, legal, max_leaves)


# -- no endless games ------------------------------------------------------------------------
#
# Two bots can settle into a cycle: each turn the drawer's reactors must fire and hand the
# same pieces back, the networks growing by the piece drawn (one seeded fast-vs-fast game ran
# past 3,000 decisions so). At five players every seat chases the same size, each blocks
# the others and the die sets them all back (five strong bots ran past 3,000 decisions in 4
# of 40 games). A bot sees no history beyond the view, but the view has the turn number:
# past PATIENCE_TURNS turns a bot tires, with a chance growing to 1 over RESTLESS_RAMP_TURNS
# more, into a draw that leads to an end: the die while its network holds more than one
# powerhouse's worth of pieces (a meltdown sheds pieces and breaks the pass-the-pieces
# cycle), else its own size (seat number modulo 3, so the seats stop all chasing one size).
# Most games end before PATIENCE_TURNS, so play there is unchanged;
# bench/bench_bot_lengths.py plays thousands of games to show the bound holds.

PATIENCE_TURNS = 40        # turns (all seats together) before a bot starts to tire
RESTLESS_RAMP_TURNS = 60   # turns over which that chance grows to 1


def _network_size(view: dict, seat: int) -> int:
    """Pieces in `seat`'s network, from a view (its grid) or a state (its 15 counts)."""
    net = view["networks"][seat]
    return sum(map(sum, net["grid"])) if isinstance(net, dict) else sum(net)


def _restless_draw(view: dict, legal: list[dict], rng: Rng) -> dict | None:
    """The tired draw (see above) when the game has run too long, else None.

    `view` may be a view or a (simulated) state: only the turn, the phase, the active seat
    and the networks' sizes are read."""
    turns = view["turn"]
    if view["phase"] != "draw" or len(legal) < 2:
        return None
    if not tired(turns, rng, PATIENCE_TURNS, RESTLESS_RAMP_TURNS):
        return None
    seat = view["active"]
    kinds = {m["kind"]: m for m in legal}
    if _network_size(view, seat) > NC and "die" in kinds:
        return kinds["die"]
    own = game.DRAW_KINDS[seat % NS]
    return kinds[own] if own in kinds else rng.choice(legal)


# Uniformly random players almost never build a clean powerhouse (two random bots ran past
# 14,000 decisions), so the random level tires: past RANDOM_PATIENCE_TURNS turns it plays a
# decision like the fast bot (tired draws included) with a chance growing to 1 over
# RANDOM_TIRE_RAMP_TURNS turns, and such games end like fast bots' games do
# (bench/bench_bot_lengths.py, random vs random). In turns, not rounds: five random bots
# counted in rounds played 3,000 decisions before tiring in 3 of 20 games.

RANDOM_PATIENCE_TURNS = 120
RANDOM_TIRE_RAMP_TURNS = 60


def _random_tires(view: dict, rng: Rng) -> bool:
    return tired(view["turn"], rng, RANDOM_PATIENCE_TURNS, RANDOM_TIRE_RAMP_TURNS)


# -- measuring a network -------------------------------------------------------------------

def distance(net) -> int:
    """Pieces to gain or shed before the network is clean, at its best size.

    At size z with `missing` colours absent, the network needs `missing` pieces
    and must lose its other ``total - (5 - missing)`` pieces.
    """
    # the row slices' count(0) runs in C: the fast policy calls this most (rollouts)
    return sum(net) - NC + 2 * min(net[0:5].count(0), net[5:10].count(0), net[10:15].count(0))


def _die_allowed(s: dict, seat: int) -> bool:
    if s["bag_dice"] <= 0:
        return False
    return s["tracking"] is None or s["tracking"][seat] > 0 or sum(s["bag"]) == 0


def win_chance(s: dict, seat: int) -> float:
    """A rough chance that `seat` wins on its own next draw, the position unchanged."""
    net = s["networks"][seat]
    total = sum(net)
    if total == NC + s["centre"] + 1:
        # a meltdown that sheds exactly the extras wins (RULES.md 13.2)
        if any(min(net[z * NC:(z + 1) * NC]) for z in range(NS)) and _die_allowed(s, seat):
            return 1.0
        return 0.0
    if total != NC - 1:
        return 0.0
    best = 0.0
    for z in range(NS):
        row = net[z * NC:(z + 1) * NC]
        if row.count(0) != 1:
            continue
        miss = row.index(0)
        bag = s["bag"][z * NC:(z + 1) * NC]
        in_bag = sum(bag)
        if not in_bag:
            continue
        t = z * NC + miss
        p = bag[miss] / in_bag
        # a duplicate makes a reactor: give it away and take the missing piece back
        if any(o != seat and s["networks"][o][t] and not is_protected(s["networks"][o], t)
               for o in range(s["players"])):
            p += (in_bag - bag[miss]) / in_bag * 0.8
        best = max(best, p)
    return best


def evaluate(s: dict, me: int, *, threats: bool = True, opp_weight: float | None = None) -> float:
    """How good the position is for `me` (higher is better)."""
    winner = s["winner"]
    if winner is not None:
        return WIN if winner == me else -WIN
    nets = s["networks"]
    players = s["players"]
    score = -float(distance(nets[me]))
    others = [o for o in range(players) if o != me]
    weight = OPP_WEIGHT if opp_weight is None else opp_weight
    score += weight * min(distance(nets[o]) for o in others)
    if threats:
        # the seats that play before our next turn, the nearest first
        order = [(s["active"] + i) % players for i in range(1, players + 1)]
        if s["phase"] == "draw":
            order = [s["active"]] + order[:-1]
        danger = 0.0
        survive = 1.0
        for o in order:
            if o == me:
                break
            p = win_chance(s, o)
            danger += survive * p
            survive *= 1 - p
        score -= THREAT_WEIGHT * danger
        score += CHANCE_WEIGHT * survive * win_chance(s, me)
    return score


# -- fast ----------------------------------------------------------------------------------
#
# The fast bot plans on bare networks (lists of 15 counts) instead of simulating with the
# rules: a whole reaction (which reactor or battery, the discard, the piece given, the
# recipient and the take) is scored at once, a draw by the reaction it sets off, and a die
# by a meltdown in which every seat sheds its least useful pieces. The score is the same
# distance-to-clean as the strong bot's: ours, less a share of the nearest opponent's (so
# a give or a take that keeps an opponent from cleaning up is worth something). Unlike the
# strong bot it weighs no chances of winning on the next turn (tried: the games were no
# shorter and strong's edge over fast shrank from about 66% to 61%).

FAST_MARGIN = 0.05     # an optional reaction must gain at least this much over ending
FAST_TAKE_LIMIT = 12   # after this many reactions in one phase the fast bot takes nothing


def _row_missing(net, z: int) -> int:
    base = z * NC
    return (net[base] == 0) + (net[base + 1] == 0) + (net[base + 2] == 0) \
        + (net[base + 3] == 0) + (net[base + 4] == 0)


def _fast_value(s: dict, nets, me: int, centre: int) -> float:
    """The fast bot's score of networks `nets` at the end of `me`'s turn (no win in them)."""
    return -float(distance(nets[me])) + FAST_OPP_WEIGHT * min(
        distance(nets[o]) for o in range(len(nets)) if o != me)


def _winner_after(nets, causer: int) -> int | None:
    """Who is clean, the causer first (section 8, Q4)."""
    n = len(nets)
    for i in range(n):
        p = (causer + i) % n
        if is_clean(nets[p]):
            return p
    return None


def _outcome_value(s: dict, nets, me: int, centre: int) -> float:
    w = _winner_after(nets, me)
    if w is not None:
        return WIN if w == me else -WIN
    return _fast_value(s, nets, me, centre)


def _give_and_take(s: dict, nets, me: int, t: int, to: int, takes: bool,
                   dists=None) -> tuple[float, int | None]:
    """Best (value, take) after `me` gives one `t` to `to` (nets changed and restored);
    `dists`: every network's `distance`, if known (only the others than `me`'s and `to`'s
    are read)."""
    mine, theirs = nets[me], nets[to]
    mine[t] -= 1
    theirs[t] += 1
    try:
        if is_clean(mine):
            return WIN, None
        if is_clean(theirs):
            return -WIN, None
        # the takes below change only `mine` and `theirs`: the other seats' nearest
        # distance is found once
        if dists is None:
            dists = [distance(net) for net in nets]
        rest = [dists[o] for o in range(len(nets)) if o != me and o != to]
        rest = min(rest) if rest else None

        def value_now() -> float:
            """`_fast_value(s, nets, me, centre)`, the same float."""
            d = distance(theirs)
            nearest = d if rest is None or d < rest else rest
            return -float(distance(mine)) + FAST_OPP_WEIGHT * nearest

        best_value = value_now()
        best_take = None
        if not takes:
            return best_value, None
        d_me = distance(mine)
        open_take = distance(theirs) <= 2  # near a win: a take may be worth it to deny them
        for u in range(NTYPES):
            held = theirs[u] - (u == t)
            if held <= 0 or is_protected(theirs, u):
                continue
            if not open_take and (mine[u] or _row_missing(mine, u // NC) * 2 + sum(mine) - NC > d_me):
                continue  # the take would not bring us nearer
            theirs[u] -= 1
            mine[u] += 1
            value = WIN if is_clean(mine) else value_now()
            theirs[u] += 1
            mine[u] -= 1
            if value > best_value:
                best_value, best_take = value, u
        return best_value, best_take
    finally:
        mine[t] += 1
        theirs[t] -= 1


def _best_give(s: dict, nets, me: int, t: int, takes: bool) -> tuple[float, int, int | None]:
    best = None
    dists = [distance(net) for net in nets]   # the receivers' own are not read
    for to in range(len(nets)):
        if to == me:
            continue
        value, take = _give_and_take(s, nets, me, t, to, takes, dists)
        if best is None or value > best[0]:
            best = (value, to, take)
    return best


def _battery_plans(s: dict, nets, me: int, c: int, takes: bool, discard: int | None = None,
                   transform: int | None = None):
    """(value, discarded size, transformed size) of each way to use the battery of `c`."""
    mine = nets[me]
    out = []
    for d in (range(NS) if discard is None else (discard,)):
        td = d * NC + c
        if discard is None:
            mine[td] -= 1
        if is_clean(mine):
            out.append((WIN, d, None))
        else:
            for x in range(NS):
                tx = x * NC + c
                if x == d or not mine[tx] or (transform is not None and x != transform):
                    continue
                out.append((_best_give(s, nets, me, tx, takes)[0], d, x))
        if discard is None:
            mine[td] += 1
    return out


def _reaction_plans(s: dict, nets, me: int, *, can_end: bool, second: int | None,
                    takes: bool) -> list[tuple[float, dict]]:
    """Every first move of a reaction with the value of its best completion."""
    mine = nets[me]
    centre = s["centre"]
    plans = []
    if second is not None:
        for c in range(NC):
            t = second * NC + c
            mine[t] -= 1
            plans.append((_outcome_value(s, nets, me, centre), {"type": "dump", "piece": TYPE_NAMES[t]}))
            mine[t] += 1
    for t in range(NTYPES):
        if mine[t] >= 2:
            plans.append((_best_give(s, nets, me, t, takes)[0], {"type": "fire", "piece": TYPE_NAMES[t]}))
    for c in range(NC):
        if mine[c] and mine[NC + c] and mine[2 * NC + c]:
            value = max(p[0] for p in _battery_plans(s, nets, me, c, takes))
            plans.append((value, {"type": "battery", "color": COLORS[c]}))
    if can_end:
        plans.append((_fast_value(s, nets, me, centre) + FAST_MARGIN, {"type": "end"}))
    return plans


def _second_size(s: dict, seat: int) -> int | None:
    return game.second_powerhouse_size(s, seat)


def _fast_reaction_value(s: dict, nets, me: int) -> float:
    """The value of the best reaction `me` can make with `nets` (just after a draw)."""
    mine = nets[me]
    second = None
    if powerhouse_count(mine) >= 2:
        # the most recent powerhouse is unknown here: take the size with the most sets
        second = max(range(NS), key=lambda z: row_min(mine, z))
    can_end = 2 not in mine and second is None
    if can_end and max(mine) < 3 and not batteries(mine):
        return _fast_value(s, nets, me, s["centre"])
    return max(p[0] for p in _reaction_plans(s, nets, me, can_end=can_end, second=second, takes=True))


def _fast_meltdown(s: dict, me: int) -> float:
    """A die drawn now: every seat sheds its least useful pieces, then the value."""
    nets = [list(n) for n in s["networks"]]
    k = s["centre"] + 1
    for net in nets:
        for _ in range(min(k, sum(net))):
            net[_least_useful(net)] -= 1
    w = _winner_after(nets, me)
    if w is not None:
        return WIN if w == me else -WIN
    return _fast_value(s, nets, me, 0 if k == 3 else k)


def _least_useful(net) -> int:
    """The piece whose discard leaves `net` nearest to clean (ties: the most copies)."""
    best, best_key = None, None
    for t in range(NTYPES):
        if net[t]:
            net[t] -= 1
            key = (distance(net), -net[t])
            net[t] += 1
            if best_key is None or key < best_key:
                best, best_key = t, key
    return best


def _choose_fast(s: dict, seat: int, legal: list[dict]) -> dict:
    phase = s["phase"]
    if phase == "meltdown":
        return {"type": "discard", "piece": TYPE_NAMES[_least_useful(s["networks"][seat])]}
    if phase == "draw":
        return _fast_draw(s, seat, legal)
    return _fast_reaction(s, seat, legal)


# A draw's value is the best reaction to each piece it may bring, and that depends only on
# the networks, the seat and the centre (`_fast_reaction_value` reads nothing else of the
# state). Rollouts meet the same networks again and again: over the expert's decisions of
# the bench's first games, 9 lookups in 10 found a value already computed, and the expert
# took less than half the time. The values are exact (the same floats), so every move is
# the same; the table is emptied when it is full, so a process keeps at most
# REACTION_VALUES_MAX of them (a few MB).
REACTION_VALUES_MAX = 20_000
_reaction_values: dict[tuple, float] = {}


def _reaction_value(s: dict, nets, me: int) -> float:
    """`_fast_reaction_value`, remembered."""
    key = (me, s["centre"], *map(tuple, nets))
    value = _reaction_values.get(key)
    if value is None:
        if len(_reaction_values) >= REACTION_VALUES_MAX:
            _reaction_values.clear()
        value = _reaction_values[key] = _fast_reaction_value(s, nets, me)
    return value


def _fast_draw(s: dict, seat: int, legal: list[dict]) -> dict:
    best, best_value = None, None
    bag = s["bag"]
    nets = [list(n) for n in s["networks"]]
    mine = nets[seat]
    for move in legal:
        if move["kind"] == "die":
            value = _fast_meltdown(s, seat)
        else:
            base = "SML".index(move["kind"]) * NC
            in_bag = sum(bag[base:base + NC])
            value = 0.0
            for t in range(base, base + NC):
                if bag[t]:
                    mine[t] += 1
                    v = WIN if is_clean(mine) else _reaction_value(s, nets, seat)
                    mine[t] -= 1
                    value += bag[t] * v
            value /= in_bag
        if best_value is None or value > best_value:
            best, best_value = move, value
    return best


def _fast_reaction(s: dict, seat: int, legal: list[dict]) -> dict:
    nets = [list(n) for n in s["networks"]]
    mine = nets[seat]
    pending = s["pending"]
    takes = len(s["positions"]) <= FAST_TAKE_LIMIT
    if pending is None:
        second = _second_size(s, seat)
        plans = _reaction_plans(s, nets, seat, can_end={"type": "end"} in legal,
                                second=second, takes=takes)
        return max(plans, key=lambda p: p[0])[1]
    action, stage = pending["action"], pending.get("stage")
    if action == "dump":
        best, best_value = {"type": "stop"}, None
        for move in legal:
            if move["type"] == "dump":
                t = TYPE_INDEX[move["piece"]]
                mine[t] -= 1
                value = _outcome_value(s, nets, seat, s["centre"])
                mine[t] += 1
            else:
                value = _fast_value(s, nets, seat, s["centre"])
            if best_value is None or value > best_value:
                best, best_value = move, value
        return best
    if stage == "take":
        # the rules already applied the give; choose among the legal takes only
        to = pending["to"]
        best, best_value = {"type": "vapor"}, _fast_value(s, nets, seat, s["centre"])
        if not takes:
            return best
        for move in legal:
            if move["type"] != "take":
                continue
            u = TYPE_INDEX[move["piece"]]
            nets[to][u] -= 1
            mine[u] += 1
            value = WIN if is_clean(mine) else _fast_value(s, nets, seat, s["centre"])
            nets[to][u] += 1
            mine[u] -= 1
            if value > best_value:
                best, best_value = move, value
        return best
    if stage == "give":
        _, to, _ = _best_give(s, nets, seat, TYPE_INDEX[pending["piece"]], takes)
        return {"type": "give", "to": to}
    c = COLOR_INDEX[pending["color"]]
    if stage == "discard":
        _, d, _ = max(_battery_plans(s, nets, seat, c, takes), key=lambda p: p[0])
        return {"type": "discard", "piece": TYPE_NAMES[d * NC + c]}
    # stage == "transform": the discard is made already
    plans = _battery_plans(s, nets, seat, c, takes, discard=pending["discarded"])
    _, _, x = max(plans, key=lambda p: p[0])
    return {"type": "transform", "piece": TYPE_NAMES[x * NC + c]}


# -- strong --------------------------------------------------------------------------------

def _after(s: dict, seat: int, move: dict) -> dict:
    out = game.copy_state(s)
    out["log"] = []
    game.play(out, seat, move)
    return out


def _draw_value(s: dict, seat: int, size: int, value) -> float:
    """The expected `value` of the position after drawing a pyramid of `size`."""
    bag = s["bag"]
    base = size * NC
    in_bag = sum(bag[base:base + NC])
    total = 0.0
    for c in range(NC):
        n = bag[base + c]
        if n:
            total += n * value(_forced_draw(s, seat, base + c))
    return total / in_bag


def _forced_draw(s: dict, seat: int, t: int) -> dict:
    """The position after `seat` draws type `t` (the colour fixed instead of drawn)."""
    out = game.copy_state(s)
    out["log"] = []
    out["bag"][t] -= 1
    out["networks"][seat][t] += 1
    game._restamp(out, seat, t // NC)
    if not game._check_win(out, seat):
        out["phase"] = "reaction"
        if not game._maybe_auto_end(out):
            out["positions"] = [game.position_key(out["networks"])]
    return out

def _choose_strong(s: dict, seat: int, legal: list[dict], max_leaves: int) -> dict:
    if s["phase"] == "meltdown":
        return _best_discard_plan(s, seat)
    if s["phase"] == "draw":
        return max(legal, key=lambda m: _strong_draw_value(s, seat, m, max_leaves))
    return _best_reaction(s, seat, max_leaves)[0]


def _strong_draw_value(s: dict, seat: int, move: dict, max_leaves: int) -> float:
    if move["kind"] == "die":
        return _meltdown_value(s, seat)

    def value(x):
        if x["phase"] == "reaction" and x["active"] == seat:
            return _best_reaction(x, seat, max_leaves // 20)[1]
        return evaluate(x, seat)
    return _draw_value(s, seat, "SML".index(move["kind"]), value)


def _meltdown_value(s: dict, seat: int) -> float:
    """The position after drawing a die, every seat shedding its least useful pieces."""
    x = _after(s, seat, {"type": "draw", "kind": "die"})
    while x["phase"] == "meltdown":
        owing = sorted(game.to_move(x))
        p = owing[0]
        game.play(x, p, _best_discard_plan(x, p))
    return evaluate(x, seat)


def _best_discard_plan(s: dict, seat: int) -> dict:
    """The first piece of the best set of discards still owed in this meltdown."""
    net = s["networks"][seat]
    owed = s["meltdown"]["owed"][seat]
    held = [t for t in range(NTYPES) for _ in range(net[t])]
    best_plan, best_value = None, None
    for plan in combinations_with_replacement(sorted(set(held)), owed):
        if any(plan.count(t) > net[t] for t in set(plan)):
            continue
        for t in plan:
            net[t] -= 1
        value = -distance(net) + (100 if is_clean(net) else 0)
        for t in plan:
            net[t] += 1
        if best_value is None or value > best_value:
            best_plan, best_value = plan, value
    return {"type": "discard", "piece": TYPE_NAMES[best_plan[0]]}


def _best_reaction(s: dict, seat: int, max_leaves: int) -> tuple[dict, float]:
    """The best first move of the current reaction, looking to the reaction's end."""
    best_move, best_value = None, None
    budget = [max(max_leaves, 16)]
    for move in game.legal_moves(s, seat):
        if move["type"] == "end":
            value = evaluate(_ended(s), seat) + 0.01
        else:
            value = _finish_reaction(_after(s, seat, move), seat, budget)
        if best_value is None or value > best_value:
            best_move, best_value = move, value
    return best_move, best_value


def _ended(s: dict) -> dict:
    out = game.copy_state(s)
    out["log"] = []
    game._next_turn(out)
    return out


def _finish_reaction(s: dict, seat: int, budget: list[int]) -> float:
    """The best value reachable by completing the reaction under way in `s`."""
    if s["pending"] is None or s["phase"] != "reaction" or s["active"] != seat:
        budget[0] -= 1
        return evaluate(s, seat)
    if budget[0] <= 0:
        return evaluate(s, seat)
    return max(_finish_reaction(_after(s, seat, m), seat, budget)
               for m in game.legal_moves(s, seat))
