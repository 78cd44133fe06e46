"""Grouped-query attention's sharing of key/value heads: repeat them forward, sum their gradients back."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike


def repeat_kv_heads(x: ArrayLike, groups: int) -> np.ndarray:
    """(..., Hkv, T, D) → (..., Hkv·groups, T, D): key/value head h serves query heads g·h … g·h + g − 1.

    Each head is repeated `groups` times in place (PyTorch's repeat_interleave on the head
    axis), not the whole stack tiled: query head i reads key/value head i // groups.
    """
    x = np.asarray(x)
    if x.ndim < 3 or groups < 1:
        raise ValueError(f"repeat_kv_heads needs x (..., H, T, D) and groups >= 1, got {x.shape} and {groups}")
    return np.repeat(x, groups, axis=-3)


def sum_kv_head_groups(grad: ArrayLike, groups: int) -> np.ndarray:
    """The chain rule through `repeat_kv_heads`: (..., Hkv·groups, T, D) → (..., Hkv, T, D).

    Key/value head h reached `groups` query heads, so its gradient is the sum over that run.
    """
    grad = np.asarray(grad)
    *batch, n_heads, T, D = grad.shape
    grad = grad.reshape(*batch, n_heads // groups, groups, T, D)  # (..., Hkv, groups, T, D)
    return grad.sum(axis=-3)  # (..., Hkv, T, D)
