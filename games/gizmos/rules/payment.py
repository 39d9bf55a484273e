"""Paying for a Build one sphere or converter step at a time (RULES.md §6.3, §7.2).

A payment is a pool of *units*. Spending a sphere from storage adds one unit of
its colour (a new *origin*); a converter slot turns one unit into another colour
(1 -> 1) or doubles it (1 X -> 2 X). The build completes as soon as the pool
holds `need` units of the target colour (any colour for generic gizmos).

Every spent sphere must pay for something (§15 Q6): a sphere may only be spent
once the previous sphere's units include at least one of the target colour, and
converter steps apply to the units of the sphere spent last. This "one sphere at
a time" order loses no payment (any valid payment can be reordered sphere by
sphere); surplus from a doubler is lost.

Converters chain in any order (§7.2), also for a generic cost: there a plain
colour change pays nothing more (§6.3), but it may feed a doubler of the new
colour (a yellow→any converter and a red doubler make 1 yellow pay 2 of the 7).

One memoised search, `cheapest`, decides everything: whether a cost can be paid,
which steps keep a payment completable (the legal steps), and a cheapest way to
finish (fewest spheres, then fewest converter steps) as a witness that the
page proposes and the "pay" move carries out.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from .cards import COLORS

# A slot is (from, to, to_count); "any" as from accepts every colour.
#
# Every memo below is bounded: a bot worker lists millions of payments a day, and with
# caps ten times these (or none) a process grew by ~500 MB over 400,000 random simulator
# decisions and kept growing; with these it levels off near +170 MB, at about a third
# less speed once the caps are reached (a short run never reaches them).


def _match(color: str, target: str) -> bool:
    return target == "any" or color == target


@lru_cache(maxsize=16_384)
def _useful(target: str, rest: tuple) -> frozenset:
    """Colours worth converting a unit into, with the slots `rest` still free.

    For a coloured cost: the target and whatever a further converter takes. For a
    generic cost every colour already pays, so only a doubler's colour is worth it.
    """
    if target == "any":
        return frozenset(s[0] for s in rest if s[2] == 2 and s[0] != "any")
    return frozenset({target} | {s[0] for s in rest if s[0] != "any"})


@lru_cache(maxsize=16_384)
def _outs(slot: tuple, color: str, target: str, rest: tuple) -> tuple:
    """Useful outcomes of applying `slot` to a unit of `color`: None means doubled."""
    src, _dst, count = slot
    if src != "any" and src != color:
        return ()
    if count == 2:
        return (None,)
    useful = _useful(target, rest)
    return tuple(t for t in COLORS if t in useful and t != color)


def _cap(counts, most: int) -> tuple:
    """Counts above what can still be spent are irrelevant (better memo hits)."""
    return tuple(min(n, most) for n in counts)


def _hits(group: tuple, target: str) -> int:
    return len(group) if target == "any" else group.count(target)


@lru_cache(maxsize=16_384)
def _slot_facts(target: str, slots: tuple) -> tuple:
    """(the colours a sphere of which can pay or feed a slot, as COLORS-order flags; doublers).

    A sphere of another colour is never spent (it would pay nothing): `_steps` skips it."""
    takes = {s[0] for s in slots}
    if target == "any" or "any" in takes:
        paying = (True,) * len(COLORS)
    else:
        paying = tuple(c == target or c in takes for c in COLORS)
    return paying, sum(1 for s in slots if s[2] == 2)


def _canon(target: str, left: int, group: tuple, storage: tuple, slots: tuple) -> tuple:
    """The storage as the search from this point can tell it apart (its memo key).

    With `left` target units still to pay, a payment spends at most `left` spheres more,
    `left` - 1 once a sphere is spent (every sphere but the last pays at least one unit,
    and the last one is spent only while the sphere before it has paid one): more of a
    colour changes nothing. A colour `_slot_facts` does not flag is never spent. So
    every answer of the search is the same for the storage and for this."""
    most = left - 1 if group else left
    if most < 0:
        most = 0
    paying = _slot_facts(target, slots)[0]
    return tuple((n if n < most else most) if ok else 0 for n, ok in zip(storage, paying))


def _bound(target: str, done: int, group: tuple, storage: tuple, slots: tuple) -> int:
    """An upper bound of the target units this payment can reach (search pruning)."""
    doublers = _slot_facts(target, slots)[1]
    if target == "any":
        return done + len(group) + sum(storage) + doublers
    hits = group.count(target)
    ti = COLORS.index(target)
    others = len(group) - hits + sum(storage) - storage[ti]
    return done + hits + storage[ti] + doublers + min(len(slots) - doublers, others)


def _terminal(target: str, left: int, group: tuple, storage: tuple, slots: tuple):
    """The answer of `cheapest` where no search is needed, else False (`left`: need - done)."""
    hits = _hits(group, target)
    if hits >= left and (hits or not group):
        return (0, 0), None
    if _bound(target, 0, group, storage, slots) < left:
        return None
    if not slots:
        # Without converters each sphere pays one unit, if it is of the target colour.
        if group and not hits:
            return None
        first = next(c for i, c in enumerate(COLORS) if storage[i]) if target == "any" else target
        return (left - hits, 0), ("spend", first)
    return False


@lru_cache(maxsize=10_000)
def _conversions(target: str, group: tuple, slots: tuple) -> tuple:
    """The useful converter steps on the units `group` of the sphere spent last:
    (step, the units after it, the slots left), the same whatever is paid or stored."""
    out = []
    seen = set()
    for si, slot in enumerate(slots):
        if slot in seen:
            continue
        seen.add(slot)
        rest = slots[:si] + slots[si + 1:]
        for ui, u in enumerate(group):
            if u in group[:ui]:
                continue
            for to in _outs(slot, u, target, rest):
                g = list(group)
                g.remove(u)
                g += [u, u] if to is None else [to]
                out.append((("convert", slot, u, to), tuple(sorted(g)), rest))
    return tuple(out)


def _steps(target: str, left: int, group: tuple, storage: tuple, slots: tuple):
    """Every useful next step and the payment after it: the one step machine of the search.

    Yields (step, spheres added, conversions added, (left, group, storage, slots)) with the
    storage after it in `_canon` form: first a sphere of each colour (COLORS order, only
    after the last sphere's units pay something), then each converter step.
    """
    hits = _hits(group, target)
    if hits or not group:
        after_left = left - hits
        most = after_left - 1
        if most < 0:
            most = 0
        paying = _slot_facts(target, slots)[0]
        for i, c in enumerate(COLORS):
            # A sphere that is not of the target colour pays only through a converter.
            if storage[i] and paying[i]:
                after = tuple((min(n - (j == i), most)) if paying[j] else 0
                              for j, n in enumerate(storage))
                yield ("spend", c), 1, 0, (after_left, (c,), after, slots)
    for step, g, rest in _conversions(target, group, slots):
        yield step, 0, 1, (left, g, _canon(target, left, g, storage, rest), rest)


@lru_cache(maxsize=20_000)
def reach(target: str, need: int, counts: tuple, slots: tuple) -> bool:
    """Whether units `counts` (COLORS order) and `slots` can make `need` target units.

    The order-free form of `feasible` for spheres not spent yet (any payment can be
    reordered sphere by sphere): a much smaller search, for `can_pay` and as a shortcut.
    """
    if need <= 0:
        return True
    return _reach(target, need, _reach_canon(target, need, counts, slots), slots)


def _reach_canon(target: str, need: int, counts: tuple, slots: tuple) -> tuple:
    """`counts` as `_reach` can tell them apart: no more than `need` of a colour counts, and
    a colour that neither pays nor feeds a slot counts for nothing."""
    paying = _slot_facts(target, slots)[0]
    return tuple((n if n < need else need) if ok else 0 for n, ok in zip(counts, paying))


def _reach(target: str, need: int, counts: tuple, slots: tuple) -> bool:
    return _reach_path(target, need, counts, slots) is not None


@lru_cache(maxsize=20_000)
def _reach_path(target: str, need: int, counts: tuple, slots: tuple) -> tuple | None:
    """The converter slots (effects, in order) of a way `_reach` finds, or None if none.

    Order-free: which units each slot takes is not kept, only that the slots so used make
    `need` target units of `counts` (in `_reach_canon` form)."""
    have = sum(counts) if target == "any" else counts[COLORS.index(target)]
    if have >= need:
        return ()
    if not slots or _bound(target, 0, (), counts, slots) < need:
        return None
    seen = set()
    for si, slot in enumerate(slots):
        if slot in seen:
            continue
        seen.add(slot)
        rest = slots[:si] + slots[si + 1:]
        for xi, x in enumerate(COLORS):
            if not counts[xi]:
                continue
            for to in _outs(slot, x, target, rest):
                new = list(counts)
                if to is None:
                    new[xi] += 1
                else:
                    new[xi] -= 1
                    new[COLORS.index(to)] += 1
                path = _reach_path(target, need, _reach_canon(target, need, new, rest), rest)
                if path is not None:
                    return (slot,) + path
    return None


@lru_cache(maxsize=20_000)
def feasible(target: str, need: int, done: int, group: tuple, storage: tuple, slots: tuple) -> bool:
    """Whether a payment can still complete from this point (see `cheapest` for the arguments)."""
    left = need - done
    return _feasible(target, left, group, _canon(target, left, group, storage, slots), slots)


@lru_cache(maxsize=40_000)
def _feasible(target: str, left: int, group: tuple, storage: tuple, slots: tuple) -> bool:
    end = _terminal(target, left, group, storage, slots)
    if end is not False:
        return end is not None
    hits = _hits(group, target)
    if (hits or not group) and reach(target, left - hits, storage, slots):
        return True
    return any(_feasible(target, *after) for _step, _s, _c, after in
               _steps(target, left, group, storage, slots))


@lru_cache(maxsize=20_000)
def cheapest(target: str, need: int, done: int, group: tuple, storage: tuple, slots: tuple):
    """(cost, first step) of a cheapest completion, or None if the payment cannot complete.

    `done`: target units of the spheres spent before the last one; `group`: the units
    (sorted colours) of the sphere spent last; `storage`: spheres still free (COLORS
    order, capped at `need`); `slots`: free converter slots (sorted triples).
    cost = (spheres, converter steps); a step is ("spend", colour) or
    ("convert", slot, unit colour, new colour or None for doubled); among steps as cheap,
    the first `_steps` lists. It walks the same steps as `feasible`, only the branches that
    can still complete. Only what is left to pay (need - done) and the storage as
    `_canon` sees it matter: the search is memoised on those.
    """
    left = need - done
    return _cheapest(target, left, group, _canon(target, left, group, storage, slots), slots)


@lru_cache(maxsize=40_000)
def _cheapest(target: str, left: int, group: tuple, storage: tuple, slots: tuple):
    end = _terminal(target, left, group, storage, slots)
    if end is not False:
        return end
    best = None
    for step, spheres, convs, after in _steps(target, left, group, storage, slots):
        sub = _cheapest(target, *after)
        if sub is None:  # the same branches `feasible` rules out
            continue
        cost = (sub[0][0] + spheres, sub[0][1] + convs)
        if best is None or cost < best[0]:
            best = (cost, step)
    return best


def _split(target: str, pool: list) -> tuple[int, int, tuple]:
    """(target units of earlier spheres, last origin, units of the last sphere)."""
    if not pool:
        return 0, -1, ()
    last = max(u[1] for u in pool)
    done = sum(1 for c, o in pool if o != last and _match(c, target))
    group = tuple(sorted(c for c, o in pool if o == last))
    return done, last, group


def _triples(slots: list) -> tuple:
    return tuple(sorted(s[2] for s in slots))


def options(*, target: str, need: int, pool: list, storage: dict, slots: list) -> list[dict]:
    """Every legal payment step now.

    `pool`: list of [colour, origin] units; `storage`: colour -> spheres still
    free; `slots`: list of (gizmo, slot_index, (from, to, count)) unused.
    """
    moves = []
    done, last, group = _split(target, pool)
    hits = _hits(group, target)
    st = tuple(storage.get(c, 0) for c in COLORS)
    all_slots = _triples(slots)
    if hits or not group:
        for i, c in enumerate(COLORS):
            if st[i] > 0:
                after = st[:i] + (st[i] - 1,) + st[i + 1:]
                if feasible(target, need, done + hits, (c,), _cap(after, need), all_slots):
                    moves.append({"type": "spend", "color": c})
    seen = set()
    for gizmo, si, slot in slots:
        rest = _triples([s for s in slots if not (s[0] == gizmo and s[1] == si)])
        for ui, (color, origin) in enumerate(pool):
            if origin != last or (gizmo, si, color) in seen:
                continue
            seen.add((gizmo, si, color))
            if target == "any" or slot[2] == 2:
                outs = _outs(slot, color, target, rest)
            elif slot[0] in ("any", color):
                outs = [t for t in COLORS if t != color]  # pruned below by feasibility
            else:
                outs = []
            for to in outs:
                g = list(group)
                g.remove(color)
                g += [color, color] if to is None else [to]
                if feasible(target, need, done, tuple(sorted(g)), _cap(st, need), rest):
                    move = {"type": "convert", "gizmo": gizmo, "slot": si, "unit": ui}
                    if to is not None:
                        move["to"] = to
                    moves.append(move)
    return moves


def complete(target: str, need: int, pool: list) -> bool:
    """Whether the pool pays the cost now."""
    return sum(1 for u in pool if _match(u[0], target)) >= need


def can_pay(*, target: str, need: int, storage: dict, slots: list) -> bool:
    """Whether a cost can be paid at all from `storage` with `slots`."""
    if need <= 0:
        return True
    have = sum(storage.values()) if target == "any" else storage.get(target, 0)
    if have >= need:
        return True
    if not slots:
        return False
    counts = _cap(tuple(storage.get(c, 0) for c in COLORS), need)
    return reach(target, need, counts, _triples(slots))


# -- whole payments ----------------------------------------------------------------------------

def witness(*, target: str, need: int, pool: list, storage: dict, slots: list,
            only: dict | None = None) -> dict | None:
    """A cheapest way to finish this payment as the engine's own steps, or None.

    With `only` (colour -> count) exactly those spheres are spent, or None if they
    cannot finish it without a sphere that pays nothing. The answer: "spend" (the
    spheres), "moves" (spend/convert moves, each legal when its turn comes, as listed
    by `options`), "converters" (gizmos used, in order), "conversions" (what each
    converter step did), "left" (storage afterwards) and "cost".
    """
    free = {c: storage.get(c, 0) for c in COLORS}
    if only is not None:
        if any(only.get(c, 0) > free[c] or only.get(c, 0) < 0 for c in COLORS):
            return None
        free = {c: only.get(c, 0) for c in COLORS}
    done, _last, group = _split(target, pool)
    st = _cap(tuple(free[c] for c in COLORS), need)
    triples = _triples(slots)
    first = cheapest(target, need, done, group, st, triples)
    if first is None:
        return None
    if only is not None and first[0][0] != sum(free.values()):
        return None
    pool = [list(u) for u in pool]
    unused = list(slots)
    taken: list[str] = []
    moves, conversions = [], []
    spend = {c: 0 for c in COLORS}
    while True:
        _cost, step = cheapest(target, need, done, group, st, triples)
        if step is None:
            break
        if step[0] == "spend":
            c = step[1]
            spend[c] += 1
            done += _hits(group, target)
            group = (c,)
            i = COLORS.index(c)
            st = st[:i] + (st[i] - 1,) + st[i + 1:]
            origin = max((u[1] for u in pool), default=-1) + 1
            pool.append([c, origin])
            moves.append({"type": "spend", "color": c})
            continue
        _kind, slot, unit, to = step
        rest = list(triples)
        rest.remove(slot)
        triples = tuple(rest)
        g = list(group)
        g.remove(unit)
        g += [unit, unit] if to is None else [to]
        group = tuple(sorted(g))
        pick = take_slot(unused, slot, taken)
        last = max(u[1] for u in pool)
        ui = next(i for i, u in enumerate(pool) if u[1] == last and u[0] == unit)
        move = {"type": "convert", "gizmo": pick[0], "slot": pick[1], "unit": ui}
        if to is None:
            pool.append([unit, last])
        else:
            pool[ui][0] = to
            move["to"] = to
        moves.append(move)
        conversions.append({"gizmo": pick[0], "from": unit, "to": to or unit, "double": to is None})
    left = {c: storage.get(c, 0) - spend[c] for c in COLORS}
    return {
        "need": need, "spend": {c: n for c, n in spend.items() if n}, "moves": moves,
        "converters": taken, "conversions": conversions,
        "left": {c: n for c, n in left.items() if n}, "cost": list(first[0]),
    }


def take_slot(unused: list, effect: tuple, taken: list) -> tuple:
    """A concrete free slot (gizmo, slot index, effect) with `effect`, a card already used in
    this payment (`taken`) first; removed from `unused`, its gizmo added to `taken`."""
    pick = next((f for f in unused if f[2] == effect and f[0] in taken), None) or next(
        f for f in unused if f[2] == effect)
    unused.remove(pick)
    if pick[0] not in taken:
        taken.append(pick[0])
    return pick


def _payable(target: str, need: int, counts: tuple, triples: tuple) -> tuple:
    """`counts` (COLORS order) as far as a payment from scratch can tell: each colour capped
    at `need` (no payment spends more spheres than it needs units), and 0 for a colour that
    neither pays a coloured cost nor feeds one of the slots `triples` (the search never
    spends such a sphere). `can_pay`, `reach`, `cheapest` and so `witness` give the same
    answers for a payment not begun from either."""
    return _reach_canon(target, need, counts, triples)


@lru_cache(maxsize=10_000)
def _first_spend(target: str, need: int, counts: tuple, triples: tuple) -> tuple | None:
    if need > 0 and not (sum(counts) if target == "any" else counts[COLORS.index(target)]) >= need:
        if not triples or not reach(target, need, counts, triples):
            return None
    plan = witness(target=target, need=need, pool=[], storage=dict(zip(COLORS, counts)),
                   slots=[("?", i, t) for i, t in enumerate(triples)])
    return None if plan is None else tuple(plan["spend"].items())


def cheapest_spend(*, target: str, need: int, storage: dict, slots: list) -> dict | None:
    """The spheres a cheapest payment from scratch spends (`witness(...)["spend"]` with an
    empty pool), or None if the cost cannot be paid (`can_pay` false); memoised on what it
    depends on: the cost, the storage as `_payable` sees it and the slots' effects."""
    return spend_from(target, need, tuple(storage.get(c, 0) for c in COLORS), _triples(slots))


def spend_from(target: str, need: int, counts: tuple, triples: tuple) -> dict | None:
    """`cheapest_spend` for a storage as counts (COLORS order) and slots as sorted effects."""
    spend = _spend_of(target, need, counts, triples)
    return None if spend is None else dict(spend)


@lru_cache(maxsize=10_000)
def _spend_of(target: str, need: int, counts: tuple, triples: tuple) -> tuple | None:
    return _first_spend(target, need, _payable(target, need, counts, triples), triples)


def pay_listing(*, target: str, need: int, pool: list, storage: dict, slots: list) -> tuple:
    """(`spend_options(...)`, `options(...)`) as tuples, memoised on the payment so far, the
    free storage and the free slots. Shared between calls: copy what is handed out."""
    return _pay_listing(target, need, tuple(tuple(u) for u in pool),
                        tuple(storage.get(c, 0) for c in COLORS), tuple(slots))


@lru_cache(maxsize=10_000)
def _pay_listing(target: str, need: int, pool: tuple, free: tuple, slots: tuple) -> tuple:
    pool_l = [list(u) for u in pool]
    storage = dict(zip(COLORS, free))
    slots_l = list(slots)
    return (tuple(spend_options(target=target, need=need, pool=pool_l, storage=storage, slots=slots_l)),
            tuple(options(target=target, need=need, pool=pool_l, storage=storage, slots=slots_l)))


def witness_moves(*, target: str, need: int, pool: list, storage: dict, slots: list,
                  only: dict) -> tuple | None:
    """`witness(..., only=only)["moves"]` (None where `witness` gives None), memoised on the
    payment so far, the free storage and slots and the spheres to spend. The moves are
    shared between calls: read them, never change them."""
    return _witness_moves(target, need, tuple(tuple(u) for u in pool),
                          tuple(storage.get(c, 0) for c in COLORS), tuple(slots),
                          tuple(only.get(c, 0) for c in COLORS))


@lru_cache(maxsize=10_000)
def _witness_moves(target: str, need: int, pool: tuple, free: tuple, slots: tuple,
                   only: tuple) -> tuple | None:
    plan = witness(target=target, need=need, pool=[list(u) for u in pool],
                   storage=dict(zip(COLORS, free)), slots=list(slots), only=dict(zip(COLORS, only)))
    return None if plan is None else tuple(plan["moves"])


@lru_cache(maxsize=10_000)
def _spend_sets(target: str, need: int, done: int, group: tuple, free: tuple, triples: tuple) -> tuple:
    """The minimal sets of spheres (COLORS-order counts) that finish a payment, cheapest first."""
    if not feasible(target, need, done, group, free, triples):
        return ()
    found = []
    left = need - done - _hits(group, target)
    doublers = sum(1 for s in triples if s[2] == 2)
    for counts in product(*(range(n + 1) for n in free)):
        # Each sphere pays at least one unit and a doubler adds one: fewer cannot pay,
        # more would spend a sphere that pays nothing.
        if not left - doublers - len(group) <= sum(counts) <= left:
            continue
        if not feasible(target, need, done, group, counts, triples):
            continue
        # Minimal: no sphere of it can be left out (feasibility only grows with storage).
        if any(counts[i] and feasible(target, need, done, group,
                                      counts[:i] + (counts[i] - 1,) + counts[i + 1:], triples)
               for i in range(len(COLORS))):
            continue
        cost = cheapest(target, need, done, group, counts, triples)[0]
        found.append((cost, tuple(-n for n in counts), counts))
    return tuple(counts for _cost, _key, counts in sorted(found))


def spend_options(*, target: str, need: int, pool: list, storage: dict, slots: list) -> list[dict]:
    """Every set of spheres that finishes this payment (colour -> count), a cheapest first:
    one per way to pay that differs in the spheres kept."""
    done, _last, group = _split(target, pool)
    triples = _triples(slots)
    takes = {s[0] for s in triples}
    # A sphere that is not of the target colour pays only through a converter.
    free = tuple(min(storage.get(c, 0), need) if target in ("any", c) or c in takes or "any" in takes
                 else 0 for c in COLORS)
    return [{c: n for c, n in zip(COLORS, counts) if n}
            for counts in _spend_sets(target, need, done, group, free, triples)]


def plans(*, target: str, need: int, pool: list, storage: dict, slots: list) -> list[dict]:
    """Every way to finish that differs in the spheres spent, a cheapest first, each as a
    `witness` (its fewest converter steps)."""
    return [witness(target=target, need=need, pool=pool, storage=storage, slots=slots, only=spend)
            for spend in spend_options(target=target, need=need, pool=pool, storage=storage, slots=slots)]


# -- a quicker answer for the expert's rollouts -------------------------------------------------

def _bundles(order: tuple, counts: tuple, size: int):
    """Every storage of `size` spheres within `counts` (COLORS order), the colours in `order`
    taken as many as possible first (so the target colour's spheres come first)."""
    if not order:
        if size == 0:
            yield (0,) * len(COLORS)
        return
    i, rest = order[0], order[1:]
    room = sum(counts[j] for j in rest)
    for k in range(min(counts[i], size), max(0, size - room) - 1, -1):
        for tail in _bundles(rest, counts, size - k):
            yield tail[:i] + (k,) + tail[i + 1:]


@lru_cache(maxsize=10_000)
def quick_spend(target: str, need: int, counts: tuple, triples: tuple) -> tuple | None:
    """Spheres (COLORS-order counts) of a payment from scratch that spends as few spheres as
    any can, or None if the cost cannot be paid, found with the order-free `reach` alone.

    Not always `cheapest_spend`'s answer (that one also spends the fewest converter steps and
    breaks ties its own way, at a search that grows steeply with the converters a player has):
    for the expert bot's rollouts only, never for the rules' legal moves. Every sphere of the
    answer is needed (a smaller storage within it cannot pay), so `witness(..., only=answer)`
    finds a payment that spends exactly them."""
    counts = _payable(target, need, counts, triples)
    if need <= 0:
        return (0,) * len(COLORS)
    if not reach(target, need, counts, triples):
        return None
    first = COLORS.index(target) if target != "any" else None
    order = ((first,) if first is not None else ()) + tuple(
        i for i in range(len(COLORS)) if i != first and counts[i])
    doublers = _slot_facts(target, triples)[1]
    # Each sphere pays at most one unit, and each doubler adds at most one.
    for size in range(max(1, need - doublers), need + 1):
        for spend in _bundles(order, counts, size):
            if reach(target, need, spend, triples):
                return spend
    return None  # not reached: `counts` itself pays, and no payment needs more than `need` spheres


def quick_slots(target: str, need: int, spend: tuple, triples: tuple) -> tuple | None:
    """The converter slots (effects, in order) with which the spheres `spend` (COLORS-order
    counts) pay the cost, found by the order-free search; None if they cannot. For the
    expert bot's rollouts (with `quick_spend`), never for the rules' own payments."""
    if need <= 0:
        return ()
    return _reach_path(target, need, _reach_canon(target, need, spend, triples), triples)
