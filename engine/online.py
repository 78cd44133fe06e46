"""Attention over key blocks with an online softmax: a running max and sum, as FlashAttention tiles it (X8)."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike


def blockwise_attention(
    query: ArrayLike, key: ArrayLike, value: ArrayLike, block_size: int, scale: float | None = None
) -> np.ndarray:
    """softmax(Q Kᵀ · scale) V (..., L, Ev), visiting the keys `block_size` at a time.

    For each block the running row maximum m may rise; the running sum l and the unnormalised
    output are then multiplied by exp(m_old − m_new) before the block's exp(s − m_new) terms are
    added, so no exp ever overflows and no block is visited twice. The result equals the full
    softmax's; the last block may be shorter. scale defaults to 1/√E.
    """
    query, key, value = (np.asarray(x, dtype=np.float64) for x in (query, key, value))
    if block_size < 1:
        raise ValueError(f"block_size must be at least 1, not {block_size}")
    if query.shape[-1] != key.shape[-1] or key.shape[-2] != value.shape[-2] or key.shape[-2] == 0:
        raise ValueError(
            f"query {query.shape}, key {key.shape} and value {value.shape} must fit "
            "(..., L, E), (..., S, E), (..., S, Ev) with S >= 1"
        )
    factor = 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)
    S = key.shape[-2]
    row_shape = np.broadcast_shapes(query.shape[:-1], (*key.shape[:-2], 1))  # (..., L)
    running_max = np.full((*row_shape, 1), -np.inf)  # (..., L, 1)
    running_sum = np.zeros((*row_shape, 1))  # (..., L, 1)
    unnormalised = np.zeros((*row_shape, value.shape[-1]))  # (..., L, Ev)
    for start in range(0, S, block_size):
        keys, values = key[..., start : start + block_size, :], value[..., start : start + block_size, :]
        scores = (query @ keys.swapaxes(-2, -1)) * factor  # (..., L, B)
        running_max, running_sum, unnormalised = online_softmax_step(running_max, running_sum, unnormalised, scores, values)
    return unnormalised / running_sum


def online_softmax_step(
    running_max: np.ndarray, running_sum: np.ndarray, unnormalised: np.ndarray, scores: np.ndarray, values: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fold one block's scores (..., L, B) and values (..., B, Ev) into the running max m and sum l
    (..., L, 1) and the unnormalised output (..., L, Ev); returns the three updated (X8).

    Start from m = −∞, l = 0 and output 0. A score of −∞ (a masked key) adds nothing; a row whose
    scores so far are all −∞ keeps m = −∞ and l = 0 instead of turning NaN.
    """
    new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True))  # (..., L, 1)
    shift = np.where(new_max == -np.inf, 0.0, new_max)  # −∞ − (−∞) would be NaN; then every exp is 0 anyway
    rescale = np.exp(running_max - shift)  # exp(−∞) = 0 on the first block
    exp_scores = np.exp(scores - shift)  # (..., L, B), each ≤ 1
    running_sum = running_sum * rescale + exp_scores.sum(axis=-1, keepdims=True)
    unnormalised = unnormalised * rescale + exp_scores @ values
    return new_max, running_sum, unnormalised
