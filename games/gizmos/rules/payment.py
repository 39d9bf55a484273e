"""Paying for a Build one sphere or converter step at a time (RULES.md §6.3, §7.2).

A payment is a pool of *units*. Spending a sphere from storage adds one unit of
its colour (a new *origin*); a converter slot turns one unit into another colour
(1 -> 1) or doubles it (1 X -> 2 X). The build completes as soon as the pool
holds `need` units of the target colour (any colour for generic gizmos).

Every spent sphere must pay for something (§15 Q6): a sphere may only be spent
once the previous sphere's units include at least one of the target colour, and
converter steps apply to the units of the sphere spent last. This "one sphere at
a time" order loses no payment (any valid payment can be reordered sphere by
sphere); surplus from a doubler is lost. Only steps after which the payment can
still be completed are offered, which two small memoised searches decide.
"""

from __future__ import annotations

from functools import lru_cache

from .cards import COLORS

# A slot is (from, to, to_count); "any" as from accepts every colour.


def _match(color: str, target: str) -> bool:
    return target == "any" or color == target


def _useful(target: str, rest: tuple) -> set:
    return {target} | {s[0] for s in rest if s[0] != "any"}


@lru_cache(maxsize=200_000)
def reach(target: str, need: int, counts: tuple, slots: tuple) -> bool:
    """Whether units `counts` (COLORS order) and `slots` can make `need` target units."""
    if need <= 0:
        return True
    doublers = [s for s in slots if s[2] == 2]
    if target == "any":
        # §6.3: colour converters change nothing for a generic cost; a doubler adds one.
        return sum(counts) + sum(1 for s in doublers if counts[COLORS.index(s[0])]) >= need
    ti = COLORS.index(target)
    have = counts[ti]
    if have >= need:
        return True
    if not slots:
        return False
    others = sum(counts) - have + len(doublers)
    if have + len(doublers) + min(len(slots) - len(doublers), others) < need:
        return False
    seen = set()
    for si, slot in enumerate(slots):
        if slot in seen:
            continue
        seen.add(slot)
        rest = slots[:si] + slots[si + 1:]
        src, _dst, count = slot
        for xi, x in enumerate(COLORS):
            if not counts[xi] or (src != "any" and src != x):
                continue
            if count == 2:
                new = list(counts)
                new[xi] += 1
                if reach(target, need, _cap(new, need), rest):
                    return True
                continue
            for y in _useful(target, rest):
                if y == x:
                    continue
                new = list(counts)
                new[xi] -= 1
                new[COLORS.index(y)] += 1
                if reach(target, need, _cap(new, need), rest):
                    return True
    return False


def _cap(counts, most: int) -> tuple:
    """Counts above what can still be spent are irrelevant (better memo hits)."""
    return tuple(min(n, most) for n in counts)


@lru_cache(maxsize=200_000)
def feasible(target: str, need: int, done: int, group: tuple, storage: tuple, slots: tuple) -> bool:
    """Whether a payment can still complete: `done` target units from earlier spheres,
    `group` the units of the sphere spent last, `storage` the spheres still free."""
    hits = sum(1 for c in group if _match(c, target))
    if done + hits >= need:
        return hits > 0 or not group
    if (hits or not group) and reach(target, need - done - hits, _cap(storage, need), slots):
        return True
    seen = set()
    for si, slot in enumerate(slots):
        if slot in seen:
            continue
        seen.add(slot)
        rest = slots[:si] + slots[si + 1:]
        for ui, color in enumerate(group):
            if color in group[:ui]:
                continue
            for new in _results(slot, color, target, rest):
                g2 = tuple(sorted(group[:ui] + new + group[ui + 1:]))
                if feasible(target, need, done, g2, storage, rest):
                    return True
    return False


def _results(slot: tuple, color: str, target: str, rest: tuple) -> list[tuple]:
    """Useful outcomes of applying `slot` to a unit of `color` (search pruning)."""
    src, _dst, count = slot
    if src != "any" and src != color:
        return []
    if count == 2:
        return [(color, color)]
    if target == "any":
        return []
    return [(t,) for t in sorted(_useful(target, rest)) if t != color]


def _split(target: str, pool: list) -> tuple[int, int, tuple]:
    """(target units of earlier spheres, last origin, units of the last sphere)."""
    if not pool:
        return 0, -1, ()
    last = max(u[1] for u in pool)
    done = sum(1 for c, o in pool if o != last and _match(c, target))
    group = tuple(sorted(c for c, o in pool if o == last))
    return done, last, group


def options(*, target: str, need: int, pool: list, storage: dict, slots: list) -> list[dict]:
    """Every legal payment step now.

    `pool`: list of [colour, origin] units; `storage`: colour -> spheres still
    free; `slots`: list of (gizmo, slot_index, (from, to, count)) unused.
    """
    moves = []
    done, last, group = _split(target, pool)
    hits = sum(1 for c in group if _match(c, target))
    st = tuple(storage.get(c, 0) for c in COLORS)
    all_slots = tuple(sorted(s[2] for s in slots))
    if hits or not group:
        for i, c in enumerate(COLORS):
            if st[i] > 0:
                after = st[:i] + (st[i] - 1,) + st[i + 1:]
                if feasible(target, need, done + hits, (c,), _cap(after, need), all_slots):
                    moves.append({"type": "spend", "color": c})
    seen = set()
    for gizmo, si, slot in slots:
        rest = tuple(sorted(s[2] for s in slots if not (s[0] == gizmo and s[1] == si)))
        src, _dst, count = slot
        for ui, (color, origin) in enumerate(pool):
            if origin != last or (gizmo, si, color) in seen:
                continue
            seen.add((gizmo, si, color))
            if src != "any" and src != color:
                continue
            if count == 2:
                outs = [None]
            elif target == "any":
                continue
            else:
                outs = [t for t in COLORS if t != color]
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
    return reach(target, need, counts, tuple(sorted(s[2] for s in slots)))
