"""A FlashAttention-style forward pass: query tiles × key tiles with an online softmax, keeping O and
one log-sum-exp per row, the two things the backward pass needs (Y13, X8).

The n×n scores never exist at once: each (Br × Bc) tile is scored, folded into its query rows'
running max and sum, and dropped. Under a causal mask a tile wholly above the diagonal is skipped
and only tiles crossing it are masked.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from engine.online import online_softmax_step


@dataclass(frozen=True)
class TiledAttention:
    """The result of `tiled_attention`. Tiles are counted on one (batch, head) slice's grid of Tr × Tc."""

    output: np.ndarray  # (..., L, Ev): softmax(Q Kᵀ · scale + mask) V
    lse: np.ndarray  # (..., L): log Σ_j exp(s_ij) over each row's allowed scaled scores
    tiles_computed: int  # tiles scored and folded into the online softmax, masked or not
    tiles_skipped: int  # causal tiles wholly above the diagonal, never scored


def tile_above_diagonal(q_start: int, q_stop: int, k_start: int) -> bool:
    """Whether a causal tile is wholly masked: its first key comes after its last query (j > i throughout)."""
    return k_start > q_stop - 1


def tiled_attention(
    query: ArrayLike,
    key: ArrayLike,
    value: ArrayLike,
    block_q: int,
    block_k: int,
    causal: bool = False,
    scale: float | None = None,
) -> TiledAttention:
    """softmax(Q Kᵀ · scale) V over tiles of block_q queries × block_k keys (Y13); scale defaults to 1/√E.

    Shapes as attention's: query (..., L, E), key (..., S, E), value (..., S, Ev). causal allows key
    j for query i when j ≤ i (top-left aligned, like engine.masks.causal_mask). The last tiles may
    be shorter. Equals dense attention, and `lse` the log-sum-exp of its masked scaled scores.
    """
    return run_tiles(query, key, value, block_q, block_k, causal, scale, tile_above_diagonal, online_softmax_step)


def run_tiles(
    query: ArrayLike,
    key: ArrayLike,
    value: ArrayLike,
    block_q: int,
    block_k: int,
    causal: bool,
    scale: float | None,
    skips: Callable[[int, int, int], bool],
    step: Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]],
) -> TiledAttention:
    """`tiled_attention` with the causal skip test `skips(q_start, q_stop, k_start)` and the online
    softmax `step` given, so that engine.mistakes can run the same loop with a wrong one."""
    query, key, value = (np.asarray(x, dtype=np.float64) for x in (query, key, value))
    if block_q < 1 or block_k < 1:
        raise ValueError(f"block sizes must be at least 1, not {block_q} and {block_k}")
    if query.shape[-1] != key.shape[-1] or key.shape[-2] != value.shape[-2] or key.shape[-2] == 0:
        raise ValueError(f"query {query.shape}, key {key.shape} and value {value.shape} must fit (..., L, E), (..., S, E), (..., S, Ev) with S >= 1")
    factor = 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)
    L, S = query.shape[-2], key.shape[-2]
    row_shape = np.broadcast_shapes(query.shape[:-1], (*key.shape[:-2], 1))  # (..., L)
    output = np.empty((*row_shape, value.shape[-1]))  # (..., L, Ev)
    lse = np.empty(row_shape)  # (..., L)
    computed = skipped = 0
    for q_start in range(0, L, block_q):
        q_stop = min(q_start + block_q, L)
        queries = query[..., q_start:q_stop, :]  # (..., Br, E)
        rows = (*row_shape[:-1], q_stop - q_start)
        running_max, running_sum = np.full((*rows, 1), -np.inf), np.zeros((*rows, 1))  # (..., Br, 1)
        unnormalised = np.zeros((*rows, value.shape[-1]))  # (..., Br, Ev)
        for k_start in range(0, S, block_k):
            if causal and skips(q_start, q_stop, k_start):
                skipped += 1
                continue
            k_stop = min(k_start + block_k, S)
            scores = (queries @ key[..., k_start:k_stop, :].swapaxes(-2, -1)) * factor  # (..., Br, Bc)
            if causal and k_stop - 1 > q_start:  # the tile crosses the diagonal: mask its j > i corner
                above = np.arange(k_start, k_stop)[None, :] > np.arange(q_start, q_stop)[:, None]  # (Br, Bc)
                scores = np.where(above, -np.inf, scores)
            running_max, running_sum, unnormalised = step(running_max, running_sum, unnormalised, scores, value[..., k_start:k_stop, :])
            computed += 1
        output[..., q_start:q_stop, :] = unnormalised / running_sum
        lse[..., q_start:q_stop] = (running_max + np.log(running_sum))[..., 0]  # log l + m
    return TiledAttention(output=output, lse=lse, tiles_computed=computed, tiles_skipped=skipped)
