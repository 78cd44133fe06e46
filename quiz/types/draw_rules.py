"""The arithmetic behind a parameter's rules: which values a rule leaves, and one drawn from them.

Each function draws straight from the values that remain (never by drawing and rejecting), so a
rule costs no redraws of the whole variant and a rule nothing satisfies is found at once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def multiples_between(low: int, high: int, step: int) -> tuple[int, int]:
    """The first multiple of `step` (> 0) at or above `low`, and how many there are up to `high` (0 or more)."""
    first = -(-low // step) * step
    return first, max(0, (high - first) // step + 1)


def divisors_between(number: int, low: int, high: int) -> list[int]:
    """The divisors of `number` (≠ 0) within [low, high], negative ones included, in increasing order."""
    positive: set[int] = set()
    size = abs(number)
    for d in range(1, math.isqrt(size) + 1):
        if size % d == 0:
            positive.update((d, size // d))
    return sorted(v for d in positive for v in (d, -d) if low <= v <= high)


def index_skipping(rng: np.random.Generator, count: int, excluded: Sequence[int]) -> int | None:
    """A uniform draw from 0..count−1 without the `excluded` indices (any, repeated or out of range), or None when none is left.

    The k-th index left is found by stepping past each excluded index at or below it, so a range
    of 10^15 values with a few exclusions costs no more than a few comparisons.
    """
    skipped = sorted({i for i in excluded if 0 <= i < count})
    left = count - len(skipped)
    if left <= 0:
        return None
    index = int(rng.integers(left))
    for s in skipped:
        if s <= index:
            index += 1
    return index


def weighted_index(rng: np.random.Generator, weights: Sequence[float], allowed: Sequence[bool]) -> int | None:
    """An index drawn with probability proportional to its weight among the allowed ones, or None when none is allowed."""
    kept = np.array([w if ok else 0.0 for w, ok in zip(weights, allowed)], dtype=np.float64)
    total = kept.sum()
    if not total > 0:
        return None
    return int(rng.choice(len(kept), p=kept / total))
