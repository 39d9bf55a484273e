"""Powerhouse bots: random, fast (greedy) and strong (lookahead with threat awareness).

Pure Python. A bot sees one seat's view and its legal moves, never the state.
Everything at a Powerhouse table is public except the bag's order, and the
bag's contents by type are in the view, so the bot rebuilds an equivalent
state from the view (`state_from_view`, with a generator of its own standing in
for the bag's order) and simulates with the real rules.

- ``random``: a uniformly random legal move.
- ``fast``: one decision ahead. Each move is scored by the position it leaves;
  a size to draw by the expected position over the colours it may bring; a die
  only when the meltdown wins at once.
- ``strong``: one whole reaction ahead (every give and take of a transform, or
  the battery's discard, give and take, together), draws valued through the
  reactions they set off, meltdowns simulated with every seat shedding its
  worst pieces, and a score that weighs each opponent's chance of winning on
  their next turn (a die that cleans them up, or a draw that completes them).
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from games.engine import Rng

from .rules import game
from .rules.pieces import NC, NS, NTYPES, TYPE_INDEX, TYPE_NAMES, is_clean, is_protected
from .rules.view import state_from_view

LEVELS = ("random", "fast", "strong")

WIN = 10_000.0
# Weights found by seeded 2-player matches (strong against fast); see docs/games/powerhouse.md.
OPP_WEIGHT = 0.2       # how much the nearest opponent's distance from winning is worth
FAST_OPP_WEIGHT = 0.3  # the same for the fast bot, which sees no threats
THREAT_WEIGHT = 8.0    # an opponent's chance to win before our next turn
CHANCE_WEIGHT = 8.0    # our own chance to win on our next turn
MAX_LEAVES = 4000      # cap on positions the strong bot scores for one reaction


def choose(view: dict, legal: list[dict], *, level: str, rng: Rng,
           max_leaves: int = MAX_LEAVES) -> dict:
    """Pick one of `legal` for the seat whose view this is."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    if not legal:
        raise ValueError("no legal move to choose from")
    if level == "random" or len(legal) == 1:
        return rng.choice(legal)
    seat = view["you"]["seat"]
    state = state_from_view(view, rng.next64())
    if level == "fast":
        return _choose_fast(state, seat, legal)
    return _choose_strong(state, seat, legal, max_leaves)


# -- measuring a network -------------------------------------------------------------------

def distance(net) -> int:
    """Pieces to gain or shed before the network is clean, at its best size.

    At size z with `missing` colours absent, the network needs `missing` pieces
    and must lose its other ``total - (5 - missing)`` pieces.
    """
    total = sum(net)
    best_missing = NC
    for z in range(NS):
        base = z * NC
        missing = (net[base] == 0) + (net[base + 1] == 0) + (net[base + 2] == 0) \
            + (net[base + 3] == 0) + (net[base + 4] == 0)
        best_missing = min(best_missing, missing)
    return total - NC + 2 * best_missing


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


def _meltdown_wins(s: dict, seat: int) -> bool:
    """Would a die drawn now leave `seat` clean once it sheds its chosen pieces?"""
    net = s["networks"][seat]
    k = s["centre"] + 1
    return any(min(net[z * NC:(z + 1) * NC]) >= 1 for z in range(NS)) and sum(net) - NC == k


def _choose_fast(s: dict, seat: int, legal: list[dict]) -> dict:
    if s["phase"] == "meltdown":
        return _best_discard_greedy(s, seat, legal)
    if s["phase"] == "draw":
        if {"type": "draw", "kind": "die"} in legal and _meltdown_wins(s, seat):
            return {"type": "draw", "kind": "die"}
        sizes = [m for m in legal if m["kind"] != "die"] or legal
        return max(sizes, key=lambda m: _draw_value(
            s, seat, "SML".index(m["kind"]), lambda x: evaluate(x, seat, threats=False, opp_weight=FAST_OPP_WEIGHT)))
    best, best_value = legal[0], None
    for move in legal:
        value = evaluate(_after(s, seat, move), seat, threats=False, opp_weight=FAST_OPP_WEIGHT)
        if move["type"] == "end":
            value += 0.01  # on a tie, stop rather than stir
        if best_value is None or value > best_value:
            best, best_value = move, value
    return best


def _best_discard_greedy(s: dict, seat: int, legal: list[dict]) -> dict:
    net = s["networks"][seat]

    def after(move):
        t = TYPE_INDEX[move["piece"]]
        net[t] -= 1
        d = distance(net)
        net[t] += 1
        return d
    return min(legal, key=after)


# -- strong --------------------------------------------------------------------------------

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
