"""Our generator: deterministic, uniform enough, and its state is one int."""

import subprocess
import sys
from collections import Counter

import pytest

from games.engine import Rng


def test_same_seed_same_sequence_and_copy_continues_identically():
    a, b = Rng.from_seed(42), Rng.from_seed(42)
    assert [a.next64() for _ in range(50)] == [b.next64() for _ in range(50)]
    c = a.copy()
    assert [a.randbelow(1000) for _ in range(20)] == [c.randbelow(1000) for _ in range(20)]
    assert Rng.from_seed(1).next64() != Rng.from_seed(2).next64()


def test_known_values_never_change():
    # Pinned outputs: a change here would silently change every stored game.
    rng = Rng.from_seed(12345)
    assert [rng.randbelow(100) for _ in range(8)] == KNOWN
    assert Rng.from_seed("table-7").state == Rng.from_seed("table-7").state


KNOWN = [46, 42, 69, 54, 38, 80, 96, 78]


def test_sequence_is_the_same_in_a_fresh_process():
    code = ("from games.engine import Rng; r = Rng.from_seed(12345); "
            "print([r.randbelow(100) for _ in range(8)]); r.shuffle(l := list(range(10))); print(l)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONHASHSEED": "123", "PATH": "", "PYTHONPATH": "."}).stdout
    rng = Rng.from_seed(12345)
    first = [rng.randbelow(100) for _ in range(8)]
    items = list(range(10))
    rng.shuffle(items)
    assert out.splitlines() == [str(first), str(items)]


def test_randbelow_is_roughly_uniform_and_in_range():
    rng = Rng.from_seed(7)
    counts = Counter(rng.randbelow(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(9_000 < n < 11_000 for n in counts.values())


def test_shuffle_sample_choice_weighted():
    rng = Rng.from_seed(3)
    items = list(range(20))
    shuffled = rng.shuffled(items)
    assert sorted(shuffled) == items and shuffled != items
    assert len(set(rng.sample(items, 5))) == 5
    assert rng.choice("abc") in "abc"
    picks = Counter(rng.weighted([0, 1, 3]) for _ in range(4000))
    assert picks[0] == 0 and picks[2] > 2 * picks[1]
    with pytest.raises(IndexError):
        rng.choice([])
    with pytest.raises(ValueError):
        rng.randbelow(0)
