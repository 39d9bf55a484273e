"""Our own seeded random generator, whose whole state is one integer.

Python's `random` promises repeatable `random()` across versions but not
`shuffle`, `choice` or `randrange`. Games keep `Rng.state` inside their game
state, so replaying the same moves from the same seed gives the same draws on
any machine and in any process. The algorithm is SplitMix64.
"""

from __future__ import annotations

from typing import MutableSequence, Sequence, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_TWO64 = 1 << 64
_GAMMA = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    """A small deterministic generator; copy it by `Rng(rng.state)`."""

    __slots__ = ("state",)

    def __init__(self, state: int):
        if not isinstance(state, int) or isinstance(state, bool):
            raise TypeError("Rng state must be an int")
        self.state = state & _MASK

    @classmethod
    def from_seed(cls, seed: int | str) -> "Rng":
        """A generator for `seed` (an int or a string), well mixed."""
        if isinstance(seed, str):
            value = 0
            for ch in seed.encode("utf-8"):
                value = _mix((value ^ ch) + _GAMMA)
            seed = value
        return cls(_mix(int(seed) & _MASK) ^ 0x5DEECE66D)

    def copy(self) -> "Rng":
        """An independent generator in the same state."""
        return Rng(self.state)

    def next64(self) -> int:
        """The next 64 random bits."""
        self.state = (self.state + _GAMMA) & _MASK
        return _mix(self.state)

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        # Rejection sampling keeps the result exactly uniform. `next64` and `_mix` written
        # out: searches and playouts draw here hundreds of thousands of times a second.
        limit = _TWO64 - _TWO64 % n
        state = self.state
        while True:
            state = (state + _GAMMA) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < limit:
                self.state = state
                return z % n

    def randint(self, a: int, b: int) -> int:
        """A uniform integer in [a, b], both ends included."""
        return a + self.randbelow(b - a + 1)

    def random(self) -> float:
        """A float in [0, 1)."""
        return (self.next64() >> 11) / float(1 << 53)

    def choice(self, seq: Sequence[T]) -> T:
        """A uniformly chosen element of a non-empty sequence."""
        if not seq:
            raise IndexError("choice from an empty sequence")
        return seq[self.randbelow(len(seq))]

    def shuffle(self, items: MutableSequence) -> None:
        """Shuffle `items` in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy of `items`."""
        out = list(items)
        self.shuffle(out)
        return out

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """`k` distinct elements of `items`, in random order."""
        pool = list(items)
        if not 0 <= k <= len(pool):
            raise ValueError("sample larger than population")
        out = []
        for _ in range(k):
            out.append(pool.pop(self.randbelow(len(pool))))
        return out

    def weighted(self, weights: Sequence[int]) -> int:
        """An index drawn with probability proportional to integer `weights`."""
        total = sum(weights)
        if total <= 0:
            raise ValueError("weights must have a positive sum")
        r = self.randbelow(total)
        for i, w in enumerate(weights):
            if r < w:
                return i
            r -= w
        raise AssertionError("unreachable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.state == self.state

    def __hash__(self) -> int:
        return hash(self.state)

    def __repr__(self) -> str:
        return f"Rng({self.state})"
