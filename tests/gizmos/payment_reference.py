"""The payment search of games/gizmos/rules/payment.py as it was before issue 15 made it faster.

Kept only as the reference the fast search must agree with (tests/gizmos/test_payment_search.py):
the same answers of `reach`, `feasible` and `cheapest` (cost and first step), on which
everything else in the payment module (`can_pay`, `options`, `witness`, `spend_options`,
`plans`, `cheapest_spend`) is built. Slow on purpose: no canonical memo keys, and its own caches.
"""

from __future__ import annotations

from functools import lru_cache

from games.gizmos.rules.cards import COLORS

def _match(color: str, target: str) -> bool:
    return target == "any" or color == target


def _useful(target: str, rest: tuple) -> set:
    """Colours worth converting a unit into, with the slots `rest` still free.

    For a coloured cost: the target and whatever a further converter takes. For a
    generic cost every colour already pays, so only a doubler's colour is worth it.
    """
    if target == "any":
        return {s[0] for s in rest if s[2] == 2 and s[0] != "any"}
    return {target} | {s[0] for s in rest if s[0] != "any"}


def _outs(slot: tuple, color: str, target: str, rest: tuple) -> list:
    """Useful outcomes of applying `slot` to a unit of `color`: None means doubled."""
    src, _dst, count = slot
    if src != "any" and src != color:
        return []
    if count == 2:
        return [None]
    return [t for t in COLORS if t in _useful(target, rest) and t != color]


def _cap(counts, most: int) -> tuple:
    """Counts above what can still be spent are irrelevant (better memo hits)."""
    return tuple(min(n, most) for n in counts)


def _hits(group: tuple, target: str) -> int:
    return sum(1 for c in group if _match(c, target))


def _bound(target: str, done: int, group: tuple, storage: tuple, slots: tuple) -> int:
    """An upper bound of the target units this payment can reach (search pruning)."""
    doublers = sum(1 for s in slots if s[2] == 2)
    if target == "any":
        return done + len(group) + sum(storage) + doublers
    hits = _hits(group, target)
    ti = COLORS.index(target)
    others = len(group) - hits + sum(storage) - storage[ti]
    return done + hits + storage[ti] + doublers + min(len(slots) - doublers, others)


def _terminal(target: str, need: int, done: int, group: tuple, storage: tuple, slots: tuple):
    """The answer of `cheapest` where no search is needed, else False."""
    hits = _hits(group, target)
    if done + hits >= need and (hits or not group):
        return (0, 0), None
    if _bound(target, done, group, storage, slots) < need:
        return None
    if not slots:
        # Without converters each sphere pays one unit, if it is of the target colour.
        if group and not hits:
            return None
        first = next(c for i, c in enumerate(COLORS) if storage[i]) if target == "any" else target
        return (need - done - hits, 0), ("spend", first)
    return False


def _steps(target: str, done: int, group: tuple, storage: tuple, slots: tuple):
    """Every useful next step and the payment after it: the one step machine of the search.

    Yields (step, spheres added, conversions added, (done, group, storage, slots)).
    """
    hits = _hits(group, target)
    if hits or not group:
        takes = {s[0] for s in slots}
        for i, c in enumerate(COLORS):
            # A sphere that is not of the target colour pays only through a converter.
            if storage[i] and (target in ("any", c) or c in takes or "any" in takes):
                after = storage[:i] + (storage[i] - 1,) + storage[i + 1:]
                yield ("spend", c), 1, 0, (done + hits, (c,), after, slots)
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
                yield ("convert", slot, u, to), 0, 1, (done, tuple(sorted(g)), storage, rest)


@lru_cache(maxsize=200_000)
def reach(target: str, need: int, counts: tuple, slots: tuple) -> bool:
    """Whether units `counts` (COLORS order) and `slots` can make `need` target units.

    The order-free form of `feasible` for spheres not spent yet (any payment can be
    reordered sphere by sphere): a much smaller search, for `can_pay` and as a shortcut.
    """
    if need <= 0:
        return True
    have = sum(counts) if target == "any" else counts[COLORS.index(target)]
    if have >= need:
        return True
    if not slots or _bound(target, 0, (), counts, slots) < need:
        return False
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
                if reach(target, need, _cap(new, need), rest):
                    return True
    return False


@lru_cache(maxsize=400_000)
def feasible(target: str, need: int, done: int, group: tuple, storage: tuple, slots: tuple) -> bool:
    """Whether a payment can still complete from this point (see `cheapest` for the arguments)."""
    end = _terminal(target, need, done, group, storage, slots)
    if end is not False:
        return end is not None
    hits = _hits(group, target)
    if (hits or not group) and reach(target, need - done - hits, storage, slots):
        return True
    return any(feasible(target, need, *after) for _step, _s, _c, after in
               _steps(target, done, group, storage, slots))


@lru_cache(maxsize=400_000)
def cheapest(target: str, need: int, done: int, group: tuple, storage: tuple, slots: tuple):
    """(cost, first step) of a cheapest completion, or None if the payment cannot complete.

    `done`: target units of the spheres spent before the last one; `group`: the units
    (sorted colours) of the sphere spent last; `storage`: spheres still free (COLORS
    order, capped at `need`); `slots`: free converter slots (sorted triples).
    cost = (spheres, converter steps); a step is ("spend", colour) or
    ("convert", slot, unit colour, new colour or None for doubled). It walks the same
    steps as `feasible`, only the branches that can still complete.
    """
    end = _terminal(target, need, done, group, storage, slots)
    if end is not False:
        return end
    best = None
    for step, spheres, convs, after in _steps(target, done, group, storage, slots):
        if not feasible(target, need, *after):
            continue
        sub = cheapest(target, need, *after)
        cost = (sub[0][0] + spheres, sub[0][1] + convs)
        if best is None or cost < best[0]:
            best = (cost, step)
    return best
