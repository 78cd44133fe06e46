"""Rotary position embedding (RoPE): feature pairs (2i, 2i+1) of q and k rotated by m·θ_i at position m (Y9).

The pairs are interleaved (RoFormer's layout), not the two halves of the feature axis (GPT-NeoX's).
Positions are any array, so a left-padded batch passes one row of position ids per sequence.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

DEFAULT_BASE = 10000.0


def rotary_angles(positions: ArrayLike, head_dim: int, base: float = DEFAULT_BASE) -> np.ndarray:
    """m·θ_i with θ_i = base^(−2i/d) for i = 0 … d/2 − 1 (Y9): shape (*positions.shape, d/2)."""
    if head_dim < 2 or head_dim % 2:
        raise ValueError(f"rotary embedding needs an even head_dim of at least 2, not {head_dim}")
    theta = base ** (-np.arange(0, head_dim, 2) / head_dim)  # (d/2,) θ_i, from 1 down to ≈ 1/base
    return np.asarray(positions, dtype=np.float64)[..., None] * theta  # (..., d/2)


def _rotate_pairs(x: ArrayLike, angles: np.ndarray) -> np.ndarray:
    """x (..., d) with pair i turned by angles (..., d/2): (x_2i, x_2i+1) → R(angle) (x_2i, x_2i+1)."""
    x = np.asarray(x, dtype=np.float64)
    cos, sin = np.cos(angles), np.sin(angles)  # (..., d/2)
    even, odd = x[..., 0::2], x[..., 1::2]  # (..., d/2) each
    rotated = np.empty(np.broadcast_shapes(x.shape, (*angles.shape[:-1], x.shape[-1])))
    rotated[..., 0::2] = even * cos - odd * sin
    rotated[..., 1::2] = even * sin + odd * cos
    return rotated


def apply_rotary(x: ArrayLike, positions: ArrayLike, base: float = DEFAULT_BASE) -> np.ndarray:
    """x (..., T, d) with each pair (2i, 2i+1) at position m rotated by m·θ_i (Y9), in float64.

    `positions` broadcasts against x.shape[:-1]: (T,) for one shared sequence, or (B, 1, T) for
    per-sequence ids of a (B, H, T, d) batch (the 1 is the head axis). Apply it to queries and keys
    after projection, never to values; a rotation keeps every vector's norm.
    """
    return _rotate_pairs(x, rotary_angles(positions, np.shape(x)[-1], base))


def undo_rotary(x: ArrayLike, positions: ArrayLike, base: float = DEFAULT_BASE) -> np.ndarray:
    """The inverse of `apply_rotary`: each pair turned back by −m·θ_i (a rotation's inverse is its transpose)."""
    return _rotate_pairs(x, -rotary_angles(positions, np.shape(x)[-1], base))
