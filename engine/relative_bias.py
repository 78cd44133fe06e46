"""T5's relative position bias: one learned scalar per head and bucket of the offset j − i (Y10)."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike


def relative_position_bucket(relative_position: ArrayLike, bidirectional: bool = True, num_buckets: int = 32, max_distance: int = 128) -> np.ndarray:
    """The T5 bucket (int, same shape) of each offset j − i, key position minus query position.

    Bidirectional: half the buckets for keys before the query, half for keys after (those offset
    by num_buckets / 2). Otherwise only keys before or at the query count; later ones share bucket 0.
    Within a half of n buckets, distances below n / 2 get one bucket each, the rest log-spaced
    buckets up to max_distance; farther distances share the last bucket.
    """
    relative_position = np.asarray(relative_position, dtype=np.int64)
    if bidirectional:
        num_buckets //= 2
        offset = np.where(relative_position > 0, num_buckets, 0)
        distance = np.abs(relative_position)
    else:
        offset = np.zeros_like(relative_position)
        distance = np.maximum(-relative_position, 0)  # keys after the query count as distance 0
    max_exact = num_buckets // 2
    # log-spaced from max_exact (bucket max_exact) to max_distance (bucket num_buckets); the maximum
    # keeps log(0) out of the small distances, which take the other branch
    log_ratio = np.log(np.maximum(distance, max_exact) / max_exact) / math.log(max_distance / max_exact)
    large = np.minimum(max_exact + (log_ratio * (num_buckets - max_exact)).astype(np.int64), num_buckets - 1)
    return offset + np.where(distance < max_exact, distance, large)


def relative_position_bias(table: ArrayLike, L: int, S: int | None = None, bidirectional: bool = True, max_distance: int = 128) -> np.ndarray:
    """Float (H, L, S) added to the scores: table[bucket(j − i), h], from a learned table (num_buckets, H).

    Query i and key j are indexed from 0 (top-left aligned, like engine.masks.causal_mask); S defaults to L.
    """
    table = np.asarray(table, dtype=np.float64)
    S = L if S is None else S
    offsets = np.arange(S)[None, :] - np.arange(L)[:, None]  # (L, S) j − i
    buckets = relative_position_bucket(offsets, bidirectional, table.shape[0], max_distance)  # (L, S)
    return np.moveaxis(table[buckets], -1, 0)  # (L, S, H) → (H, L, S)
