"""Which keys each query may attend: `attn_mask` read as PyTorch reads it, the causal mask (E4), and its
sliding-window (Y11) and prefix-LM (Y12) variants. Masks are bool, True where a query may attend."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, DTypeLike


def causal_mask(L: int, S: int | None = None) -> np.ndarray:
    """Bool (L, S), True where key j ≤ query i: the lower triangle aligned top-left, like PyTorch.

    S defaults to L. With S > L the last S − L keys are hidden from every query.
    """
    return np.tri(L, L if S is None else S, dtype=bool)


def _offsets(L: int, S: int | None) -> np.ndarray:
    """Int (L, S): i − j for query i and key j, indices aligned top-left like `causal_mask`."""
    return np.arange(L)[:, None] - np.arange(L if S is None else S)[None, :]


def sliding_window_mask(L: int, window: int, S: int | None = None) -> np.ndarray:
    """Bool (L, S), True where 0 ≤ i − j < window: each query sees itself and the window − 1 keys before it (Y11).

    A window of at least L (every query's full past) is the causal mask; a window of 1 leaves each
    query only its own key.
    """
    if window < 1:
        raise ValueError(f"a sliding window holds at least one key, not {window}")
    offsets = _offsets(L, S)
    return (offsets >= 0) & (offsets < window)


def prefix_lm_mask(L: int, prefix: int, S: int | None = None) -> np.ndarray:
    """Bool (L, S), True where j ≤ i or j < prefix: bidirectional inside the prefix, causal after it (Y12).

    Queries inside the prefix see the whole prefix and nothing after it; later queries see the
    prefix and the keys up to their own. A prefix of 0 or 1 is the causal mask.
    """
    S = L if S is None else S
    return (_offsets(L, S) >= 0) | (np.arange(S)[None, :] < prefix)


def all_but_last_row(L: int, S: int) -> np.ndarray:
    """Bool (L, S), False on the last query row only: AND it into a mask to leave that row no key."""
    keep = np.ones((L, S), dtype=bool)
    keep[-1:] = False  # a slice rather than keep[-1], so that L = 0 needs no special case
    return keep


def read_attn_mask(
    attn_mask: ArrayLike | None, scores_shape: tuple[int, ...], dtype: DTypeLike
) -> tuple[np.ndarray, np.ndarray]:
    """Split `attn_mask` into (allowed, additive) for scores of shape (..., L, S).

    A bool mask is True where a query may attend: allowed is the mask and additive is 0.
    A float mask is added to the scaled scores: allowed is where it is not −∞, and additive is
    the mask in `dtype`. No mask allows every key. Both results broadcast to `scores_shape`.
    Integer masks are refused: 0/1 would silently be added rather than read as allowed/forbidden.
    """
    nothing_added = np.zeros((), dtype=dtype)
    if attn_mask is None:
        return np.array(True), nothing_added
    mask = np.asarray(attn_mask)
    try:  # a mask of the scores' own shape fits without asking np.broadcast_shapes, the slow part
        fits = mask.shape == tuple(scores_shape)
        fits = fits or np.broadcast_shapes(mask.shape, scores_shape) == tuple(scores_shape)
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(
            f"attn_mask {mask.shape} does not broadcast to the scores' shape "
            f"{tuple(scores_shape)} (..., L, S)"
        )
    if mask.dtype == bool:
        return mask, nothing_added
    if not np.issubdtype(mask.dtype, np.floating):
        raise ValueError(
            f"attn_mask must be bool (True where a query may attend) or float (added to the scores), "
            f"not {mask.dtype}"
        )
    additive = mask.astype(dtype)
    return additive != -np.inf, additive
