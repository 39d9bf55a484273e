"""Bots for Flaming Pyramids. Pure: they read a seat's view and its legal moves only.

Levels:
- "random": any legal move (in a very long game it tires into the fast bot's moves,
            so two random bots still finish: RANDOM_PATIENCE_TURNS). In a very long game
            every other level sometimes plays a random move, which breaks cycles
            (RESTLESS_TURNS).
- "fast":   one ply. Each candidate is run through the real cascade (the rules'
            own `pyramid` functions) with every fall decided by the player who owes
            it; it scores tiles coming back, tiles given away, how hard the shed
            tile is to place later, and how likely the next player is to find no
            sound placement on the pyramid left behind.
- "strong": determinized search. It samples the unseen tiles (other hands, the
            dealt part of every draw pile) consistently with the view, lets the
            next player answer with their best sampled move, then scores its own
            best reply with its real hand and sampled draws; averaged over samples.
- "expert": at two players, determinized alpha-beta over three placements (its
            own, the other player's best answer, its own again) on several deals of
            the unseen tiles; at more players, the fast level's best moves played
            out to the end of the game on many such deals, the move that wins most
            rollouts chosen (games/flaming_pyramids/expert.py).
"""

from __future__ import annotations

from games.engine.patience import tired

from .rules import HAND_SIZE, TILE_IDS
from .rules import pyramid as P
from .sim import _BIT, _ON2
from .sim import find_event as _find_event   # the rules' answer, cheaper (its docstring)

LEVELS = ("random", "fast", "strong", "expert")

STRONG_SAMPLES = 24          # default determinizations for "strong"
STRONG_NODE_BUDGET = 400     # reply searches (`_best_turn` calls) per "strong" decision
STRONG_CANDIDATES = 5        # moves (best by the fast score) searched by "strong"
SHED_WEIGHT = 0.6            # value of shedding a hard-to-place tile (difficulty 0..1)
DANGER_WEIGHT = 0.8          # value of a pyramid where the next player likely collapses


def _difficulty():
    """For each tile: the share of supporter pairs (from all 45 tiles) it is unsound on."""
    ids = [t for t in TILE_IDS]
    out = {}
    for t in ids:
        bad = total = 0
        for i, a in enumerate(ids):
            for b in ids[i + 1:]:
                if t in (a, b):
                    continue
                total += 1
                bad += not P._sound(t, a, b)
        out[t] = bad / total
    return out


DIFFICULTY = _difficulty()


# -- reading the view -------------------------------------------------------------
def unseen_tiles(view):
    """Tiles this seat cannot locate: other hands' secret part and the dealt part of piles."""
    seen = {t["id"] for t in view["pyramid"]} | {t["id"] for t in view["out"]}
    seen |= {t["id"] for t in (view["hand"] or [])}
    for s in view["seats"]:
        seen |= {t["id"] for t in s["pile_known"]} | {t["id"] for t in s["hand_known"]}
    return [t for t in TILE_IDS if t not in seen]


def determinize(view, rng):
    """A full game state consistent with `view`, the unseen tiles dealt at random.

    Used to simulate with the real rules; it never looks at the real state.
    """
    pool = rng.shuffled(unseen_tiles(view))
    me = view["seat"]
    hands, piles, hand_known, pile_known = [], [], [], []
    for s in view["seats"]:
        if s["seat"] == me:
            hand = [t["id"] for t in view["hand"]]
        else:
            hand = [t["id"] for t in s["hand_known"]]
            need = s["hand_size"] - len(hand)
            hand, pool = hand + pool[:need], pool[need:]
        known = [t["id"] for t in s["pile_known"]]
        need = s["pile_size"] - len(known)
        pile, pool = pool[:need] + known, pool[need:]
        hands.append(sorted(hand))
        piles.append(pile)
        hand_known.append(sorted(t["id"] for t in s["hand_known"]))
        pile_known.append(len(known))
    assert not pool, "the view does not account for every tile"
    pending = view["pending"]
    cascade = view["cascade"]
    return {
        "players": view["players"], "options": dict(view["options"]), "rng": rng.next64(),
        "turn": view["turn"], "first": view["first"], "active": view["active"],
        "winner": view["winner"], "hands": hands, "hand_known": hand_known, "piles": piles,
        "pile_known": pile_known,
        "board": sorted([t["r"], t["x"], t["id"]] for t in view["pyramid"]),
        "out": [t["id"] for t in view["out"]],
        "cascade": None if cascade is None else {"curse": cascade["curse"], "placed": cascade["placed"]},
        "pending": None if pending is None else {"r": pending["r"], "x": pending["x"],
                                                 "decider": pending["decider"],
                                                 "tile": pending["tile"]["id"]},
        "log": [],
    }


# -- the cascade, played out with every fall decided by its owner -------------------
class _Ctx:
    """Who is active, who receives after a curse, which variants are on."""

    __slots__ = ("active", "previous", "players", "curse_on", "die_on")

    def __init__(self, active, players, curse_on, die_on):
        self.active = active
        self.previous = (active - 1) % players
        self.players = players
        self.curse_on = curse_on
        self.die_on = die_on


FALL_NODES = 12              # fall branch points searched per candidate before going greedy


def _greedy_direction(board, cell):
    """Without search: fall where the tile would be sound, else to the left.

    A landing cell on the ground, or seated on two tiles that hold the falling one soundly
    (§7, the simulator's masks). Read on the board as it stands: the falling tile's own
    cell is a row above its landing, so neither that cell nor one of its supporters, and
    taking it off would change nothing."""
    r, x = cell
    if r == 1:
        return P.LEFT   # both landings are on the ground
    get = board.get
    bit = _BIT[board[cell]]
    for direction, to in ((P.LEFT, x - 1), (P.RIGHT, x + 1)):
        a, b = get((r - 2, to - 1)), get((r - 2, to + 1))
        if a is not None and b is not None and _ON2[(a, b)] & bit:
            return direction
    return P.LEFT


def resolve(board, ctx, me, term, memo, curse_mode=False, placed=None, budget=None, work=None):
    """(value for `me`, expected tiles sent per seat, a final board) of a cascade.

    The value is `_sent_value(sent)` plus `term(final board)`. A fall is decided by
    its owner: `me` maximises the value; anybody else takes the branch sending them
    fewest tiles. A Fire Die roll is averaged over its faces. `memo` caches
    positions already resolved for this (ctx, me, term). Tall pyramids can make
    the tree of falls huge: after `FALL_NODES` branch points, falls go greedy.
    `work` (a one-item list), when given, counts the event scans of the board: the
    expert's rollouts bound their cost with it.
    """
    if budget is None:
        budget = [FALL_NODES]
    key = (frozenset(board.items()), curse_mode, tuple(placed) if placed else None)
    hit = memo.get(key)
    if hit is not None:
        return hit
    sent = {}
    board = dict(board)
    players = ctx.players
    while True:
        if work is not None:
            work[0] += 1
        event = _find_event(board, curse=ctx.curse_on, die=ctx.die_on, placed=placed)
        if event is None:
            result = (_sent_value(sent, me, players) + term(board), sent, board)
            break
        to = ctx.previous if curse_mode else ctx.active
        kind = event[0]
        if kind == "fall":
            if budget[0] <= 0:
                P.fall(board, event[1], _greedy_direction(board, event[1]))
                continue
            budget[0] -= 1
            best = None
            for direction in (P.LEFT, P.RIGHT):
                b = dict(board)
                P.fall(b, event[1], direction)
                value, s2, final = resolve(b, ctx, me, term, memo, curse_mode, placed, budget, work)
                k = value if to == me else (-s2.get(to, 0), -value)
                if best is None or k > best[0]:
                    best = (k, value, s2, final)
            _k, value, s2, final = best
            result = (value + _sent_value(sent, me, players), _merge(sent, s2), final)
            break
        if kind == "roll":
            total, acc, final = 0.0, {}, None
            for result_name, faces in P.DIE_FACES.items():
                b = dict(board)
                got, _gone, _x = P.apply_event(b, event, die_value=faces[0])
                value, s2, fb = resolve(b, ctx, me, term, memo, curse_mode, None, budget, work)
                s2 = _merge({to: len(got)} if got else {}, s2)
                p = len(faces) / 6
                total += p * (value + (_sent_value({to: len(got)}, me, players) if got else 0))
                for k, v in s2.items():
                    acc[k] = acc.get(k, 0) + p * v
                if result_name == "fire_stays":
                    final = fb
            result = (total + _sent_value(sent, me, players), _merge(sent, acc), final)
            break
        if kind == "curse":
            to = ctx.previous
            curse_mode = True
        got, _gone, _x = P.apply_event(board, event)
        if got:
            sent[to] = sent.get(to, 0) + len(got)
    memo[key] = result
    return result


def _merge(a, b):
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
    return out


# -- scoring -----------------------------------------------------------------------
def _sent_value(sent, me, players):
    give = 1.0 if players == 2 else 0.5
    return -sent.get(me, 0) + give * sum(v for k, v in sent.items() if k != me)


def _danger(board, pool, hand_size):
    """Chance that a player holding `hand_size` tiles from `pool` has no sound placement."""
    if not pool or not board:
        return 0.0
    best = 0.0
    for r, x, _kind in P.spots(board):
        if r == 0:
            return 0.0
        a, b = board[(r - 1, x - 1)], board[(r - 1, x + 1)]
        ok = sum(1 for t in pool if P._sound(t, a, b)) / len(pool)
        if ok > best:
            best = ok
    return (1.0 - best) ** max(1, hand_size)


class _Eval:
    """Everything a scoring pass needs from the view, computed once."""

    def __init__(self, view):
        self.view = view
        self.me = view["seat"]
        self.players = view["players"]
        self.hand = [t["id"] for t in view["hand"] or []]
        self.pool = unseen_tiles(view)
        opts = view["options"]
        self.ctx = _Ctx(view["active"], self.players, bool(opts["curse"]), bool(opts["fire_die"]))
        nxt = (view["active"] + 1) % self.players
        self.next = nxt
        seat = view["seats"][nxt]
        self.next_pool = self.pool + [t["id"] for t in seat["hand_known"]]
        self.next_hand = seat["hand_size"] + (1 if nxt == view["active"] else 0)

    def fast_term(self, board):
        if self.next == self.me:
            return 0.0
        return DANGER_WEIGHT * 2.0 * _danger(board, self.next_pool, min(HAND_SIZE, self.next_hand))

    def candidates(self, legal):
        """(move, board after it, curse_mode, placed) for each legal move."""
        board = {(t["r"], t["x"]): t["id"] for t in self.view["pyramid"]}
        cascade = self.view["cascade"] or {}
        out = []
        for move in legal:
            b = dict(board)
            if move["type"] == "place":
                b[(move["r"], move["x"])] = move["tile"]
                placed = [move["r"], move["x"], move["tile"]] if self.ctx.die_on else None
                out.append((move, b, False, placed))
            else:
                pending = self.view["pending"]
                P.fall(b, (pending["r"], pending["x"]), move["direction"])
                out.append((move, b, bool(cascade.get("curse")), cascade.get("placed")))
        return out


def _shed_bonus(move):
    return SHED_WEIGHT * DIFFICULTY[move["tile"]] if move["type"] == "place" else 0.0


def _choose_fast(view, legal):
    ev = _Eval(view)
    best = None
    memo = {}
    for move, board, curse_mode, placed in ev.candidates(legal):
        value, _sent, _final = resolve(board, ev.ctx, ev.me, ev.fast_term, memo, curse_mode, placed)
        value += _shed_bonus(move)
        if best is None or value > best[0] + 1e-9:
            best = (value, move)
    return best[1]


def _fast_ranked(view, legal, ev=None):
    """(fast score, move, tiles sent per seat, board after) for every legal move, best
    first (equal scores in the order of `legal`)."""
    ev = ev or _Eval(view)
    scored = []
    memo = {}
    for move, board, curse_mode, placed in ev.candidates(legal):
        value, sent, final = resolve(board, ev.ctx, ev.me, ev.fast_term, memo, curse_mode, placed)
        scored.append((value + _shed_bonus(move), move, sent, final))
    scored.sort(key=lambda s: -s[0])
    return scored


# -- strong: determinized two-reply lookahead ------------------------------------------
def _zero(_board):
    return 0.0


def _best_turn(board, hand, seat, players, opts, memos):
    """The best placement for `seat` holding `hand` on `board`: (value, sent, board).

    Without the Curse nothing can send tiles to anybody but the active player, so
    when a quiet (sound, harmless) placement exists the others need no search.
    """
    ctx = _Ctx(seat, players, opts[0], opts[1])
    memo = memos.setdefault(seat, {})
    spots = P.spots(board)
    best = None
    loud = []
    for tile in sorted(set(hand), key=lambda t: (-DIFFICULTY[t], t)):   # ids break ties
        for r, x, _k in spots:
            b = dict(board)
            b[(r, x)] = tile
            placed = [r, x, tile] if ctx.die_on else None
            if _find_event(b, curse=ctx.curse_on, die=ctx.die_on, placed=placed) is None:
                value = SHED_WEIGHT * DIFFICULTY[tile]
                if best is None or value > best[0]:
                    best = (value, {}, b)
            else:
                loud.append((tile, b, placed))
    if best is not None and not ctx.curse_on:
        return best
    for tile, b, placed in loud:
        value, sent, final = resolve(b, ctx, seat, _zero, memo, False, placed)
        value += SHED_WEIGHT * DIFFICULTY[tile]
        if best is None or value > best[0]:
            best = (value, sent, final)
    return best


def _choose_strong(view, legal, rng, samples, node_budget=STRONG_NODE_BUDGET, deal=None):
    """Search `samples` determinizations, stopping early once `node_budget` reply
    searches were spent: a budget in work, never in seconds, so the same seed gives
    the same move whatever the machine's load. `deal(view, rng)` makes the
    samples (default `determinize`); only a bench passes another one (the real state,
    to measure what seeing the hidden tiles would be worth)."""
    deal = deal or determinize
    ev = _Eval(view)
    # First score every candidate with the fast evaluation; keep the serious ones.
    top = _fast_ranked(view, legal, ev)[:STRONG_CANDIDATES]
    if len(top) == 1:
        return top[0][1]
    me, players = ev.me, ev.players
    opts = (ev.ctx.curse_on, ev.ctx.die_on)
    my_hand = list(ev.hand)
    opp = ev.next if ev.next != me else (me + 1) % players
    totals = [0.0] * len(top)
    done = 0
    cache, memos = {}, {}
    nodes = 0
    for _ in range(samples):
        if done and nodes >= node_budget:
            break
        state = deal(view, rng)
        opp_hand = state["hands"][opp]
        my_pile = state["piles"][me]
        for i, (_v, move, sent, final) in enumerate(top):
            hand = list(my_hand)
            if move["type"] == "place":
                hand.remove(move["tile"])
            immediate = _sent_value(sent, me, players) + _shed_bonus(move)
            back = sent.get(me, 0)
            # my refill at the end of this turn (only if I am the active player)
            if view["active"] == me:
                pile = my_pile + ["?"] * int(round(back))
                hand = hand + [t for t in pile[:HAND_SIZE - len(hand)] if t != "?"]
            key = (frozenset(final.items()), tuple(sorted(opp_hand)))
            reply = cache.get(key)
            if reply is None:
                reply = _best_turn(final, opp_hand, opp, players, opts, memos) if final is not None else None
                cache[key] = reply
                nodes += 1
            value = immediate
            after = final
            if reply is not None:
                _rv, rsent, after = reply
                value += (1.0 if players == 2 else 0.5) * rsent.get(opp, 0) - rsent.get(me, 0)
            if hand and after is not None:
                key = (frozenset(after.items()), tuple(sorted(hand)))
                mine = cache.get(key)
                if mine is None:
                    mine = cache[key] = _best_turn(after, hand, me, players, opts, memos)
                    nodes += 1
                value += 0.8 * mine[0]
            totals[i] += value
        done += 1
    best = max(range(len(top)), key=lambda i: (totals[i], top[i][0]))
    return top[best][1]


# Two random bots can keep a pyramid collapsing for ever: 16 of 2,000 seeded
# random-vs-random games ran to the 1,500-decision bound (bench/bench_bot_lengths.py,
# seeds 100,000 on). So, as in Powerhouse, the random level tires: past
# RANDOM_PATIENCE_TURNS turns (all seats together) it plays the fast bot's move with a
# chance growing to 1 over RANDOM_TIRE_RAMP_TURNS turns, and such games end as games
# against the fast bot do. Before that turn it draws exactly as it always did.
RANDOM_PATIENCE_TURNS = 300
RANDOM_TIRE_RAMP_TURNS = 100


def _random_tires(view, rng):
    return tired(view["turn"], rng, RANDOM_PATIENCE_TURNS, RANDOM_TIRE_RAMP_TURNS)


# The searching levels are deterministic given the position, and late in a game two of
# them can repeat one cycle of placements and falls for ever (1 of 100 seeded
# fast-vs-fast games ran to the bound; the tired random bots above, playing fast's moves,
# too). So past RESTLESS_TURNS turns every level but random plays a uniformly random
# legal move with a chance growing to RESTLESS_MAX over RESTLESS_RAMP_TURNS turns, which
# breaks any cycle; games that end before then are played as they always were.
RESTLESS_TURNS = 300
RESTLESS_RAMP_TURNS = 100
RESTLESS_MAX = 0.1


def _restless(view, rng):
    return tired(view["turn"], rng, RESTLESS_TURNS, RESTLESS_RAMP_TURNS, RESTLESS_MAX)


def choose(view, legal, *, level="fast", rng, samples=None, node_budget=None, iterations=None):
    """Pick one of `legal` for the seat whose `view` this is."""
    if not legal:
        raise ValueError("no legal move to choose from")
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    if level == "random" and not _random_tires(view, rng):
        return legal[rng.randbelow(len(legal))]
    if len(legal) == 1:
        return legal[0]
    if _restless(view, rng):
        return legal[rng.randbelow(len(legal))]
    if level in ("fast", "random"):
        return _choose_fast(view, legal)
    if level == "expert":
        from . import expert

        return expert.choose(view, legal, rng, iterations)
    if level == "strong":
        return _choose_strong(view, legal, rng, samples or STRONG_SAMPLES,
                              STRONG_NODE_BUDGET if node_budget is None else node_budget)
    raise AssertionError("unreachable")
