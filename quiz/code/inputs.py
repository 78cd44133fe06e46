"""Random inputs for code checks, drawn so that mistakes show: lively scores, masks, large offsets.

Lively scores are neither saturated (one weight near 1 hides the scale) nor flat (equal weights
hide it too) and have no near-ties. All draws come from a numpy Generator, so a seed gives the
same inputs on any machine.
"""

from __future__ import annotations

import math

import numpy as np

import engine

FLOAT16_EXP_LIMIT = math.log(65504)  # ≈ 11.09: exp overflows float16 beyond it (X4)
ATTEMPTS = 200


def normal(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Standard normal float64 entries."""
    return rng.standard_normal(shape)


def lively(scaled: np.ndarray) -> bool:
    """Scaled scores (..., L, S) with no row saturated (largest weight ≤ 0.95), rows on average far
    from flat (mean largest weight ≥ 1.5/S), and no two scores of a row within 1e-3 of each other."""
    S = scaled.shape[-1]
    top = engine.softmax(scaled).max(axis=-1)
    gaps = np.diff(np.sort(scaled, axis=-1), axis=-1)
    return bool((top <= 0.95).all() and top.mean() >= 1.5 / S and gaps.min(initial=1.0) >= 1e-3)


def lively_qk(
    rng: np.random.Generator, q_shape: tuple[int, ...], k_shape: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray]:
    """Standard normal q (..., L, E) and k (..., S, E) whose scores q kᵀ/√E are lively.

    With unit-variance entries the scaled scores have variance 1 (B5): neither flat nor saturated,
    and a missing or doubled scale changes them by a factor of √E. Keys may have fewer batch
    axes (grouped heads are repeated to match before the scores are taken).
    """
    for _ in range(ATTEMPTS):
        q, k = normal(rng, *q_shape), normal(rng, *k_shape)
        grouped = k.ndim == q.ndim >= 3 and k.shape[-3] != q.shape[-3]  # fewer key heads than query heads
        k_full = engine.repeat_kv_heads(k, q.shape[-3] // k.shape[-3]) if grouped else k
        if lively(q @ k_full.swapaxes(-2, -1) / math.sqrt(q.shape[-1])):
            break
    return q, k


def allowed_mask(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Bool mask whose every row (last axis, at least 2 long) has an allowed and a forbidden entry."""
    while True:
        mask = rng.random(shape) < 0.6
        if mask.any(axis=-1).all() and (~mask).any(axis=-1).all():
            return mask


def with_offset(q: np.ndarray, k: np.ndarray, offset: float) -> tuple[np.ndarray, np.ndarray]:
    """q and k with one more feature, equal to c in both, so every scaled score gains `offset`.

    The scaled score becomes (q·k + c²)/√(E+1) with c² = offset·√(E+1): a common shift of each
    row, which leaves the softmax unchanged (C2) but overflows an unshifted exp (E6).
    """
    E = q.shape[-1] + 1
    c = math.sqrt(offset * math.sqrt(E))

    def extend(x: np.ndarray) -> np.ndarray:
        return np.concatenate([x, np.full((*x.shape[:-1], 1), c)], axis=-1)

    return extend(q), extend(k)


def clear_of_float16_overflow(scaled: np.ndarray, margin: float = 0.5) -> bool:
    """No scaled score within `margin` of float16's exp overflow, and every row past it.

    Then an unshifted float16 exp overflows in every row whatever the candidate's rounding, so
    the NaNs it gives are the same as the model's.
    """
    near = np.abs(scaled - FLOAT16_EXP_LIMIT) < margin
    return bool(~near.any() and (scaled.max(axis=-1) > FLOAT16_EXP_LIMIT).all())
