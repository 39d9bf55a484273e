"""Components and pure helpers on networks (RULES.md sections 2, 3 and 6.3).

A network is a list of 15 counts, one per pyramid type. Type index
``size * 5 + colour`` walks the 5-by-3 grid of the rules row by row: smalls
first, then mediums, then larges; each row in the colour order of
``components.json``.
"""

from __future__ import annotations

import json
from pathlib import Path

_DATA = json.loads((Path(__file__).resolve().parent.parent / "data" / "components.json")
                   .read_text(encoding="utf-8"))

COLORS: tuple[str, ...] = tuple(_DATA["colors"])
SIZES: tuple[str, ...] = tuple(s["id"] for s in _DATA["sizes"])
SIZE_NAMES: dict[str, str] = {s["id"]: s["name"] for s in _DATA["sizes"]}
COPIES: int = _DATA["copies_per_color_and_size"]
DICE: int = _DATA["bag"]["dice"]["count"]
TRACKING_COLORS: tuple[str, ...] = tuple(
    _DATA["optional_rules"]["meltdown_limitation"]["tracking_colors_by_seat"])
TRACKING_USES: int = _DATA["optional_rules"]["meltdown_limitation"]["uses_per_player"]
MIN_PLAYERS: int = _DATA["players"]["min"]
MAX_PLAYERS: int = _DATA["players"]["max"]

NC = len(COLORS)
NS = len(SIZES)
NTYPES = NC * NS
TYPE_NAMES: tuple[str, ...] = tuple(f"{c}-{s}" for s in SIZES for c in COLORS)
TYPE_INDEX: dict[str, int] = {name: i for i, name in enumerate(TYPE_NAMES)}
COLOR_INDEX: dict[str, int] = {c: i for i, c in enumerate(COLORS)}
SIZE_INDEX: dict[str, int] = {s: i for i, s in enumerate(SIZES)}
FULL_BAG: tuple[int, ...] = tuple(
    next(e["count"] for e in _DATA["bag"]["pyramids_by_type"]
         if e["color"] == COLORS[t % NC] and e["size"] == SIZES[t // NC])
    for t in range(NTYPES))

assert NC == 5 and NS == 3 and set(FULL_BAG) == {COPIES}, "components.json changed shape"
assert sum(FULL_BAG) == _DATA["totals"]["pyramids"]


def tidx(size: int, color: int) -> int:
    """The type index of a colour and size (both indexes)."""
    return size * NC + color


def size_of(t: int) -> int:
    """The size index of type `t`."""
    return t // NC


def color_of(t: int) -> int:
    """The colour index of type `t`."""
    return t % NC


def row_min(net, size: int) -> int:
    """The fewest pieces of any colour at `size`: the powerhouses stacked at that size."""
    base = size * NC
    return min(net[base], net[base + 1], net[base + 2], net[base + 3], net[base + 4])


def powerhouse_count(net) -> int:
    """How many disjoint powerhouses the network holds (RULES.md section 3)."""
    return row_min(net, 0) + row_min(net, 1) + row_min(net, 2)


def is_clean(net) -> bool:
    """True when the network is exactly one powerhouse and nothing else (section 8)."""
    return sum(net) == NC and powerhouse_count(net) == 1


def reactors(net) -> list[int]:
    """Types held exactly twice: mandatory reactions."""
    return [t for t in range(NTYPES) if net[t] == 2]


def stable_reactors(net) -> list[int]:
    """Types held three times: optional reactions."""
    return [t for t in range(NTYPES) if net[t] == 3]


def batteries(net) -> list[int]:
    """Colours held at every size (a monochrome trio): optional reactions."""
    return [c for c in range(NC) if net[c] and net[NC + c] and net[2 * NC + c]]


def is_protected(net, t: int) -> bool:
    """True if taking one `t` would lower the network's powerhouse count (section 6.3).

    The count at a size is the row minimum, so a take lowers it exactly when
    the row is complete and `t` is held no more often than the minimum.
    """
    m = row_min(net, size_of(t))
    return m >= 1 and net[t] == m


def protected_types(net) -> list[int]:
    """Every type whose take 6.3 forbids."""
    return [t for t in range(NTYPES) if net[t] and is_protected(net, t)]


def grid(counts) -> list[list[int]]:
    """Counts as the rules' grid: one row per size (S, M, L), one column per colour."""
    return [list(counts[s * NC:(s + 1) * NC]) for s in range(NS)]


_DIGITS = bytes.maketrans(bytes(range(10)), b"0123456789")


def position_key(networks) -> str:
    """Every network as one string of counts, for the Q6 safeguard's set of positions."""
    return b"|".join(map(bytes, networks)).translate(_DIGITS).decode()
