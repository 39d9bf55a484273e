"""The "expert" Flaming Pyramids bot: determinized alpha-beta search at two players,
Monte Carlo rollouts over deals at three to six.

Two players (the game's usual table): each of ITERATIONS samples deals the unseen tiles
(the other hand's secret part, the dealt part of every pile, its own pile's order
included) consistently with the view (`sim.determinize`), and on that deal every legal
move is searched by minimax with alpha-beta pruning on the simulator (`sim.SIMULATOR`):
our placement, the other player's reply, our next placement (DEPTH placements, every fall
of a cascade in between decided by its owner), then the position is scored. The move
with the best sum over the samples is played; every move is judged on the same deals, so
a lucky deal lifts all of them alike.

The score of a position: the other player's tiles minus ours (hand and pile), less
HAND_WEIGHT times the difficulty of the tiles still in our hand (`bot.DIFFICULTY`, the
share of supporter pairs a tile is unsound on) and plus the same for the other hand; a
win or a loss found by the search is worth ±WIN (sooner ranks higher). Two shortcuts keep
it fast. At the last placement a quiet move (one that sets nothing off) shedding the
hardest tile is the mover's best, since in the base game only the active player can take
tiles back and the score then differs only in the shed tile; this changes nothing the
score can see (tests/flaming_pyramids/test_expert.py compares it with the full search;
with the Curse on every move is searched). And in a cascade only the first FALL_BRANCH
falls of a turn are searched both ways; later ones go where the tile would stand
(`bot._greedy_direction`), an approximation like the fast level's.

Why this and not more of the strong level's search (this module until 2026-12-03): the
strong level looks one reply deep and scores its own next turn with a greedy placement;
ten times its samples, or even the real hidden tiles, won about half the games against it
(docs/games/flaming_pyramids.md). Our reading of what it missed: the minimax itself; with
the other player's best answer to each of our next placements searched, the plans that
leave them only unsound spots are found. This search beat strong in 313 of 400 bench games.

Three to six players: minimax does not fit (every other player moves before our next
turn), so the expert judges the fast level's best moves by whole-game rollouts on many
deals of the unseen tiles, sequential halving sharing out a budget of rollout decisions
(`_choose_many`): the strong level's one-reply search, even at thirty times its samples,
won no more than the fast level at six players, where a whole round of other players
stands between a move and its consequences for us.

Deterministic: the budget is counted work, never a clock, scaled by BOT_EXPERT_BUDGET
through the `iterations` argument: at two players samples and search nodes (NODE_BUDGET
per sample; the search stops sampling once the total is spent, never mid-sample), at more
players tiles on the pyramid summed over the decisions played in rollouts (MULTI_WORK per
iteration); all randomness comes
from the given Rng (seeded from the table, the decision's seq and the seat), so a replayed
turn chooses the same move on any machine and any load. It reads the view only.
"""

from __future__ import annotations

from games.engine import Rng

from . import bot, sim
from .bot import DIFFICULTY
from .rules import HAND_SIZE, TILE_IDS
from .rules import pyramid as P

ITERATIONS = 8        # determinizations per decision at BOT_EXPERT_BUDGET = 1
DEPTH = 3             # placements searched: ours, the other player's, ours again
NODE_BUDGET = 6_000   # search nodes per sample on average: sampling stops past the total
FALL_BRANCH = 1       # falls per turn searched both ways; later ones go greedy
HAND_WEIGHT = 0.3     # value of a hard tile out of the hand (difficulty 0..1)
WIN = 1000.0
# Three to six players: Monte Carlo over deals with whole-game rollouts (`_choose_many`)
MULTI_WORK = 37_500       # rollout work per iteration (`_rollout`): 300,000 at the default
                          # budget (the tiles on the pyramid summed over rollout decisions)
                          # (25,000 until 2026-12-06: 1.43 times the fair share at six
                          # players over 600 bench games, 1.63 at this budget; the docs)
MULTI_CANDIDATES = 6      # the fast level's best moves, in its order
ROLLOUT_CAP = 300         # decisions a rollout may take before it is scored unfinished

_S = sim.SIMULATOR
_clone, _play, _legal = _S.clone, _S.play, _S.legal_moves
_quiet = sim._quiet
_quiet_tiles = sim.quiet_tiles
_GREEDY = {d: {"type": "fall", "direction": d} for d in ("left", "right")}


def choose(view: dict, legal: list[dict], rng: Rng, iterations: int | None = None) -> dict:
    """The expert's move; `iterations` samples (default ITERATIONS)."""
    samples = max(1, iterations or ITERATIONS)
    if len(legal) == 1:
        return legal[0]
    if view["players"] != 2 or view.get("gone"):
        return _choose_many(view, legal, rng, samples * MULTI_WORK)
    return _search(view, legal, rng, samples)


def _search(view, legal, rng, samples):
    me = view["seat"]
    count = [0]
    budget = samples * NODE_BUDGET
    totals: dict[tuple, float] = {}
    for n in range(samples):
        if n and count[0] >= budget:
            break
        state = sim.determinize(view, rng)
        seat = state.pending[2] if state.pending is not None else state.active
        for move in _legal(state, seat):
            child = _clone(state)
            _play(child, seat, move)
            place = move["type"] == "place"
            value = _value(child, DEPTH - place, -2 * WIN, 2 * WIN, me,
                           FALL_BRANCH if place else FALL_BRANCH - 1, count)
            key = _key(move)
            totals[key] = totals.get(key, 0.0) + value
    best = None
    for move in legal:   # the rules' order breaks ties
        value = totals.get(_key(move))
        if value is not None and (best is None or value > best[0]):
            best = (value, move)
    return best[1]


def _key(move):
    if move["type"] == "place":
        return ("place", move["tile"], move["r"], move["x"])
    return ("fall", move["direction"])


def _score(s, me):
    other = 1 - me
    value = float(len(s.hands[other]) + len(s.piles[other]) - len(s.hands[me]) - len(s.piles[me]))
    value -= HAND_WEIGHT * sum(DIFFICULTY[t] for t in s.hands[me])
    value += HAND_WEIGHT * sum(DIFFICULTY[t] for t in s.hands[other])
    return value


def _ordered(s, moves):
    """Quiet placements first, the hardest tile first; then the rest."""
    if not moves or moves[0]["type"] != "place":
        return moves
    quiet, loud = [], []
    board = s.board
    for m in moves:
        cell = (m["r"], m["x"])
        board[cell] = m["tile"]
        (quiet if _quiet(board, cell, m["tile"], s.curse, s.die) else loud).append(m)
        del board[cell]
    quiet.sort(key=lambda m: -DIFFICULTY[m["tile"]])
    return quiet + loud


def _value(s, depth, alpha, beta, me, falls, count):
    """Minimax value for `me` of `s` with `depth` placements to go (alpha-beta)."""
    count[0] += 1
    if s.winner is not None:
        return (WIN + depth) if s.winner == me else -(WIN + depth)
    if depth <= 0 and s.pending is None:
        return _score(s, me)
    if s.pending is not None:
        if falls <= 0:
            child = _clone(s)
            while child.pending is not None and child.winner is None:
                cell = (child.pending[0], child.pending[1])
                _play(child, child.pending[2], _GREEDY[bot._greedy_direction(child.board, cell)])
            return _value(child, depth, alpha, beta, me, FALL_BRANCH, count)
        falls -= 1
        seat = s.pending[2]
    else:
        seat = s.active
    moves = _ordered(s, _legal(s, seat))
    if depth == 1 and s.pending is None and not s.curse:
        first = moves[0]
        cell = (first["r"], first["x"])
        s.board[cell] = first["tile"]
        quiet = _quiet(s.board, cell, first["tile"], s.curse, s.die)
        del s.board[cell]
        if quiet:
            child = _clone(s)
            _play(child, seat, first)
            return _value(child, 0, alpha, beta, me, FALL_BRANCH, count)
    maxing = seat == me
    best = -4 * WIN if maxing else 4 * WIN
    for move in moves:
        child = _clone(s)
        _play(child, seat, move)
        place = move["type"] == "place"
        value = _value(child, depth - place, alpha, beta, me, FALL_BRANCH if place else falls, count)
        if maxing:
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
        elif value < best:
            best = value
            if value < beta:
                beta = value
        if alpha >= beta:
            break
    return best


# -- three to six players: Monte Carlo over deals with whole-game rollouts ---------------
def _choose_many(view, legal, rng, work):
    """The candidate that wins most rollouts on deals of the unseen tiles.

    The candidates are the fast level's MULTI_CANDIDATES best moves, only the quiet
    placements among them where there are any (`_many_candidates`). A deal
    (`sim.determinize`, from the view) is played once per candidate still in: the
    candidate, then the game rolled out to its end with `_rollout_move` for every seat. A
    win counts 1; anything else loses a hundredth of a point per tile we still hold (so
    among losing moves the one that keeps us nearer the end is preferred).

    The budget is `work` units of rollout work (`_rollout`: counted, never a clock). The
    first deal tells how dear a rollout is here, so how many rollouts the budget buys; those are
    spent by sequential halving: in each of ceil(log2(candidates)) rounds an equal share
    goes to the candidates still in, on the same deals, and the better half goes on, so
    the last two are compared on more deals than a flat search could give them. No deal
    is started once the work is spent. Ties go to the fast level's order. A quiet
    placement that ends the game with our win is played at once.
    """
    me = view["seat"]
    cands, quiet = _many_candidates(view, legal)
    if len(cands) == 1:
        return cands[0]
    totals = [0.0] * len(cands)
    alive = list(range(len(cands)))
    rounds = (len(cands) - 1).bit_length()
    rollouts = None
    spent = 0
    for rnd in range(rounds):
        share = 1 if rollouts is None else max(1, rollouts // (rounds * len(alive)))
        done = 0
        while done < share or rollouts is None:
            if spent and spent >= work:
                break
            deal = sim.determinize(view, rng)   # every candidate still in plays this deal
            for i in alive:
                s = _clone(deal)
                _play(s, me, cands[i])
                if s.winner == me and rollouts is None and quiet:
                    return cands[i]   # a quiet placement that wins now wins on every deal
                # a rollout costs at least the candidate's own play, if the game ended there
                spent += _rollout(s, ROLLOUT_CAP) or len(s.board) + 1
                if s.winner == me:
                    totals[i] += 1.0
                else:
                    totals[i] -= 0.01 * (len(s.hands[me]) + len(s.piles[me]))
            done += 1
            if rollouts is None:   # what the budget buys at this deal's rollout length
                rollouts = work * len(cands) // max(1, spent)
                share = max(1, rollouts // (rounds * len(alive)))
        alive.sort(key=lambda i: (-totals[i], i))
        if rnd < rounds - 1:
            alive = sorted(alive[:(len(alive) + 1) // 2])
    return cands[alive[0]]


def _many_candidates(view, legal):
    """The fast level's MULTI_CANDIDATES best moves, best first, and whether they are
    quiet placements (sound, setting nothing off): where some of them are, only those."""
    cands = [move for _v, move, _s, _f in bot._fast_ranked(view, legal)[:MULTI_CANDIDATES]]
    if cands[0]["type"] != "place":
        return cands, False
    board = {(t["r"], t["x"]): t["id"] for t in view["pyramid"]}
    curse, die = bool(view["options"]["curse"]), bool(view["options"]["fire_die"])
    quiet = []
    for move in cands:
        cell = (move["r"], move["x"])
        board[cell] = move["tile"]
        if _quiet(board, cell, move["tile"], curse, die):
            quiet.append(move)
        del board[cell]
    return (quiet, True) if quiet else (cands, False)


def _rollout(s, cap):
    """Play `_rollout_move` for every seat, in place, until somebody wins or `cap`
    decisions; the work done: the tiles on the pyramid summed over the decisions (plus
    one each). A decision's cost grows with the pyramid (its scans and cascades), so this
    follows the time a rollout takes at every player count, where a count of decisions
    does not: with fewer players the pyramid grows larger and each decision costs more."""
    n = work = 0
    while s.winner is None and n < cap:
        seat = s.pending[2] if s.pending is not None else s.active
        work += len(s.board) + 1
        _play(s, seat, _rollout_move(s, seat))
        n += 1
    return work


# The rollouts' policy: the fast level's choice where a quiet placement exists (its
# score, computed on bit masks of tiles), the fast level's cascade search with every
# fall decided greedily where none does, greedy falls: the fast level searches every
# move's falls both ways and copies the board per move, which costs most of its time. It
# reads the sampled state as the seat would see it (its own hand, the tiles it cannot
# locate) and never another hand.
_BIT = sim._BIT
_ALL = sim._ALL
# the tiles sound on a and b (the simulator's mask), less a and b themselves
_SOUND_ON = {(a, b): m & ~(_BIT[a] | _BIT[b]) for (a, b), m in sim._ON2.items()}
_SHED = {t: bot.SHED_WEIGHT * DIFFICULTY[t] for t in TILE_IDS}
_DANGER2 = bot.DANGER_WEIGHT * 2.0
_spots = sim.spots
_PLACE = sim._PLACE
_FALL = {P.LEFT: sim._FALLS[0], P.RIGHT: sim._FALLS[1]}


def _danger(board, pool, size, hand_size):
    """`bot._danger` with the pool as a bit mask of `size` tiles."""
    if not size or not board:
        return 0.0
    best = 0
    for r, x in _spots(board):
        if not r:
            return 0.0
        ok = (_SOUND_ON[(board[(r - 1, x - 1)], board[(r - 1, x + 1)])] & pool).bit_count()
        if ok > best:
            best = ok
    return (1.0 - best / size) ** max(1, hand_size)


def _danger_above(board, cell, ok, pool, size, hand_size):
    """`_danger(board, ...)` after a placement at `cell` above the ground, where no spot on
    the ground was free before it; `ok` holds the sound tiles' counts of the spots before.
    The same value: the spots now are those before less `cell`, plus the cells above it
    that it completes a pair of supporters for (and where none is left, the two ends of
    the ground row, which give 0)."""
    best = found = 0
    for spot, n in ok.items():
        if spot != cell:
            found = 1
            if n > best:
                best = n
    r, x = cell
    for side in (-2, 2):
        above = (r + 1, x + side // 2)
        if above not in board and (r, x + side) in board:
            found = 1
            n = (_SOUND_ON[(board[(r, min(x, x + side))], board[(r, max(x, x + side))])]
                 & pool).bit_count()
            if n > best:
                best = n
    if not found:
        return 0.0
    return (1.0 - best / size) ** max(1, hand_size)


def _rollout_move(s, seat):
    if s.pending is not None:
        return _FALL[bot._greedy_direction(s.board, (s.pending[0], s.pending[1]))]
    spots = _spots(s.board)
    rows = [_PLACE[cell] for cell in spots]
    hand = s.hands[seat]
    moves = [row[t] for t in hand for row in rows]
    if len(moves) == 1:
        return moves[0]
    board = s.board
    seen = 0
    for t in board.values():
        seen |= _BIT[t]
    for t in s.out:
        seen |= _BIT[t]
    for t in hand:
        seen |= _BIT[t]
    for i in range(s.players):
        for t in s.hand_known[i]:
            seen |= _BIT[t]
        k = s.pile_known[i]
        if k:
            for t in s.piles[i][-k:]:
                seen |= _BIT[t]
    nxt = sim._next(s, seat)
    pool = _ALL & ~seen
    for t in s.hand_known[nxt]:
        pool |= _BIT[t]
    size = pool.bit_count()
    hand_size = min(HAND_SIZE, len(s.hands[nxt]))
    best = None
    curse, die = s.curse, s.die
    # `_danger` after a placement above the ground, from the spots before it: the row 0 is
    # unchanged, the placed cell is no spot any more, the two above it may become spots,
    # and every other spot keeps its supporters, so its count of sound tiles (`ok`) is
    # worked out once here (`_danger_above`)
    ground = not spots[0][0]   # spots come sorted: a free spot on the ground comes first
    ok = {} if ground or not size else {
        (r, x): (_SOUND_ON[(board[(r - 1, x - 1)], board[(r - 1, x + 1)])] & pool).bit_count()
        for r, x in spots}
    # the quiet moves, in the moves' order (tile by tile, then spot by spot); the board is
    # changed and put back: no copies
    quiet_here = [_quiet_tiles(board, cell, curse) for cell in spots]
    for tile in hand:
        bit = _BIT[tile]
        for cell, row, quiet in zip(spots, rows, quiet_here):
            if not quiet & bit:
                continue
            board[cell] = tile
            if not cell[0] or not size:
                danger = _danger(board, pool, size, hand_size)
            elif ground:
                danger = 0.0
            else:
                danger = _danger_above(board, cell, ok, pool, size, hand_size)
            del board[cell]
            value = _DANGER2 * danger + _SHED[tile]
            if best is None or value > best[0] + 1e-9:
                best = (value, row[tile])
    if best is not None:
        return best[1]
    ctx = bot._Ctx(s.active, s.players, curse, die)

    def term(b):
        return _DANGER2 * _danger(b, pool, size, hand_size)

    base = _Watch.on_stable(board, curse)   # a turn's start: no event on the board
    for move in moves:   # none is quiet: every cascade, its falls greedy
        tile, cell = move["tile"], (move["r"], move["x"])
        w = base.copy()
        w.put(cell, tile)
        placed = [cell[0], cell[1], tile] if die else None
        value = _cascade_value(w, ctx, seat, term, False, placed) + _SHED[tile]
        if best is None or value > best[0] + 1e-9:
            best = (value, move)
    return best[1]


# The rollouts' cascades: `bot.resolve` with every fall greedy (its budget of fall searches
# spent), whose event scans were most of a rollout's time. A cascade changes a few cells
# at a time, and whether a tile stands in free air, is unsound or crowns a trio depends
# only on it and its two supporters, so `_Watch` keeps those cells in sets as the board
# changes and the next event is read from them (`sim.find_event`'s answer, without a scan
# of the board per step; tests/flaming_pyramids/test_expert.py compares the values).
_ON1, _ON2, _W, _INC = sim._ON1, sim._ON2, sim._W, sim._INC
_scan_key = P._scan_key


class _Watch:
    """A board and its cells in free air, unsound, crowning a trio (with the Curse) and
    incendiary, kept up to date by `put`, `move` and `removed`."""

    __slots__ = ("board", "free", "unsound", "trio", "inc", "curse")

    def __init__(self, board, curse):
        self.board = dict(board)
        self.curse = curse
        self.free, self.unsound, self.trio = set(), set(), set()
        self.inc = {c for c, t in board.items() if _INC[t]}
        for cell in board:
            self._check(cell)

    @classmethod
    def on_stable(cls, board, curse):
        """The watch of a board with no event (every turn starts on one): nothing in free
        air, unsound or crowning a trio, so only the incendiaries need finding."""
        w = cls.__new__(cls)
        w.board, w.curse = dict(board), curse
        w.free, w.unsound, w.trio = set(), set(), set()
        w.inc = {c for c, t in board.items() if _INC[t]}
        return w

    def copy(self):
        w = _Watch.__new__(_Watch)
        w.board, w.curse = dict(self.board), self.curse
        w.free, w.unsound, w.trio, w.inc = set(self.free), set(self.unsound), set(self.trio), set(self.inc)
        return w

    def _check(self, cell):
        free, unsound, trio = self.free, self.unsound, self.trio
        free.discard(cell)
        unsound.discard(cell)
        trio.discard(cell)
        r, x = cell
        if not r:
            return
        get = self.board.get
        t = get(cell)
        if t is None:
            return
        a, b = get((r - 1, x - 1)), get((r - 1, x + 1))
        if a is None:
            if b is None:
                free.add(cell)
                return
            ok = _ON1[b] & _BIT[t]
        elif b is None:
            ok = _ON1[a] & _BIT[t]
        else:
            ok = _ON2[(a, b)] & _BIT[t]
            if self.curse and _W[t] == _W[a] == _W[b]:
                trio.add(cell)
        if not ok:
            unsound.add(cell)

    def _changed(self, cell):
        """`cell` got or lost its tile: it and the two cells resting on it (an empty cell
        is in no set: a cell is emptied only here, and checked when it is)."""
        r, x = cell
        self._check(cell)
        board = self.board
        for above in ((r + 1, x - 1), (r + 1, x + 1)):
            if above in board:
                self._check(above)

    def put(self, cell, tile):
        self.board[cell] = tile
        if _INC[tile]:
            self.inc.add(cell)
        self._changed(cell)

    def move(self, cell, to):
        tile = self.board.pop(cell)
        self.board[to] = tile
        if _INC[tile]:
            self.inc.discard(cell)
            self.inc.add(to)
        self._changed(cell)
        self._changed(to)

    def removed(self, pairs):
        """(cell, tile) pairs an event took off the board."""
        for cell, _t in pairs:
            self.inc.discard(cell)
            self._changed(cell)

    def event(self, die, placed):
        """`sim.find_event(self.board, curse=self.curse, die=die, placed=placed)`."""
        if self.free:
            return ("fall", min(self.free, key=_scan_key))
        if self.unsound:
            cell = min(self.unsound, key=_scan_key)
            r, x = cell
            return ("collapse", cell, [c for c in ((r - 1, x - 1), (r - 1, x + 1)) if c in self.board])
        trio = min(self.trio, key=_scan_key) if self.trio else None
        return P.later_events(self.board, sorted(self.inc, key=_scan_key), trio, die, placed)


def _cascade_value(w, ctx, me, term, curse_mode, placed):
    """`bot.resolve(w.board, ctx, me, term, {}, curse_mode, placed, [0])[0]`: the value for
    `me` of the cascade on `w`, every fall greedy, the Fire Die averaged over its faces
    (the same sums in the same order, so the same float). Changes `w`."""
    sent = {}
    board = w.board
    players = ctx.players
    while True:
        event = w.event(ctx.die_on, placed)
        if event is None:
            return bot._sent_value(sent, me, players) + term(board)
        to = ctx.previous if curse_mode else ctx.active
        kind = event[0]
        if kind == "fall":
            cell = event[1]
            w.move(cell, P.landing(cell, bot._greedy_direction(board, cell)))
            continue
        if kind == "roll":
            total = 0.0
            for _result, faces in P.DIE_FACES.items():
                w2 = w.copy()
                got, gone, _x = P.apply_event(w2.board, event, die_value=faces[0])
                w2.removed(got)
                w2.removed(gone)
                value = _cascade_value(w2, ctx, me, term, curse_mode, None)
                p = len(faces) / 6
                total += p * (value + (bot._sent_value({to: len(got)}, me, players) if got else 0))
            return total + bot._sent_value(sent, me, players)
        if kind == "curse":
            to = ctx.previous
            curse_mode = True
        got, gone, _x = P.apply_event(board, event)
        w.removed(got)
        w.removed(gone)
        if got:
            sent[to] = sent.get(to, 0) + len(got)
