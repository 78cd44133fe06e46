"""Multi-head self-attention: project the input, split it into heads, attend, merge (A2, E1)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from engine.attention import scaled_dot_product_attention


def split_heads(x: ArrayLike, n_heads: int) -> np.ndarray:
    """(..., T, H·D) → (..., H, T, D): head h takes features h·D to (h+1)·D − 1 of each position."""
    x = np.asarray(x)
    if x.ndim < 2 or n_heads < 1 or x.shape[-1] % n_heads:
        raise ValueError(f"cannot split x {x.shape} (..., T, H·D) into {n_heads} heads of equal width")
    *batch, T, width = x.shape
    x = x.reshape(*batch, T, n_heads, width // n_heads)  # (..., T, H, D)
    return x.swapaxes(-3, -2)  # (..., H, T, D)


def merge_heads(x: ArrayLike) -> np.ndarray:
    """(..., H, T, D) → (..., T, H·D), the inverse of `split_heads`: heads side by side again."""
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(f"merge_heads needs x of shape (..., H, T, D), got {x.shape}")
    *batch, n_heads, T, head_dim = x.shape
    x = x.swapaxes(-3, -2)  # (..., T, H, D)
    return x.reshape(*batch, T, n_heads * head_dim)  # (..., T, H·D)


def self_attention(
    x: ArrayLike,
    w_q: ArrayLike,
    w_k: ArrayLike,
    w_v: ArrayLike,
    w_o: ArrayLike | None = None,
    n_heads: int = 1,
    *,
    n_kv_heads: int | None = None,
    attn_mask: ArrayLike | None = None,
    is_causal: bool = False,
    scale: float | None = None,
    empty_rows: str = "zero",
) -> np.ndarray:
    """Multi-head self-attention of x (..., T, d_model) → (..., T, d_out).

    Q = X W_Q, K = X W_K, V = X W_V (A2); each is split into heads, so a head's d_k is W_Q's
    width over n_heads (E1); the heads attend independently, are merged, and are projected by
    W_O when given. n_kv_heads (default n_heads) smaller than n_heads shares each key/value
    head among n_heads / n_kv_heads query heads (GQA). The remaining arguments are those of
    `scaled_dot_product_attention`.
    """
    x, w_q, w_k, w_v = (np.asarray(a) for a in (x, w_q, w_k, w_v))
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        if x.ndim < 2 or w.ndim != 2 or w.shape[0] != x.shape[-1]:
            raise ValueError(
                f"x {x.shape} (..., T, d_model) needs {name} of shape (d_model, width), got {w.shape}"
            )
    kv_heads = n_heads if n_kv_heads is None else n_kv_heads

    q = split_heads(x @ w_q, n_heads)  # (..., H, T, D)
    k = split_heads(x @ w_k, kv_heads)  # (..., Hkv, T, D)
    v = split_heads(x @ w_v, kv_heads)  # (..., Hkv, T, Dv)
    gqa = kv_heads != n_heads
    heads = scaled_dot_product_attention(
        q, k, v, attn_mask, is_causal=is_causal, scale=scale, enable_gqa=gqa, empty_rows=empty_rows
    )  # (..., H, T, Dv)
    merged = merge_heads(heads)  # (..., T, H·Dv)
    if w_o is None:
        return merged
    w_o = np.asarray(w_o)
    if w_o.ndim != 2 or w_o.shape[0] != merged.shape[-1]:
        raise ValueError(f"w_o {w_o.shape} must have shape (H·Dv, d_out) = ({merged.shape[-1]}, d_out)")
    return merged @ w_o  # (..., T, d_out)
