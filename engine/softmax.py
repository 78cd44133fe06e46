"""Softmax and what the notes derive from it: its Jacobian (C4), its vector-Jacobian product, entropy (G2).

Floating inputs keep their precision; anything else (ints, nested lists) is computed in float64.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike


def _as_float(x: ArrayLike) -> np.ndarray:
    """`x` as an array of its own floating type, or of float64 when it is not floating."""
    x = np.asarray(x)
    return x if x.dtype.kind == "f" else x.astype(np.float64)  # kind "f": np.floating, cheaper to ask


def _row_max_and_empty(z: np.ndarray, axis: int) -> tuple[np.ndarray, np.ndarray]:
    """The maximum along `axis` (kept as a length-1 axis), 0 where every entry is −∞; and where
    that is (bool, the same shape): the rows with no finite or +∞ entry.

    An all −∞ row has nothing to subtract, and −∞ − (−∞) would be NaN.
    """
    # the ufuncs' own reductions: np.max and np.sum call them after per-call Python checks
    peak = np.maximum.reduce(z, axis=axis, keepdims=True, initial=-np.inf)
    empty = peak == -np.inf
    peak[empty] = 0.0
    return peak, empty


def _row_max(z: np.ndarray, axis: int) -> np.ndarray:
    """The maximum along `axis` (kept as a length-1 axis), 0 where every entry is −∞."""
    return _row_max_and_empty(z, axis)[0]


def _sum_or_one(exp_shifted: np.ndarray, axis: int) -> np.ndarray:
    """Σ_j exp_shifted_j along `axis` (kept as a length-1 axis), with 1 in place of 0.

    Once the maximum is subtracted only an all −∞ row sums to 0 (a finite maximum adds
    exp(0) = 1, so any other sum is at least 1, or NaN); dividing its zeros by 1 keeps them
    zero. So the maximum with 1 replaces exactly the zeros, without a boolean index.
    """
    total = np.add.reduce(exp_shifted, axis=axis, keepdims=True)
    return np.maximum(total, 1.0, out=total)


def softmax(z: ArrayLike, axis: int = -1, *, out: np.ndarray | None = None) -> np.ndarray:
    """p_i = exp(z_i) / Σ_j exp(z_j) along `axis` (C1), computed stably.

    The maximum is subtracted first so that exp cannot overflow (E6); the result is unchanged
    because softmax ignores a common shift (C2). An entry of −∞ gets weight exactly 0. A row
    that is entirely −∞ has no allowed entry and gets all zeros (PyTorch ≥ 2.5's choice for
    fully masked rows), not 0/0 = NaN. `out` (which may be z itself) receives the result.
    """
    return softmax_and_empty_rows(z, axis, out=out)[0]


def softmax_and_empty_rows(
    z: ArrayLike, axis: int = -1, *, out: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """`softmax(z, axis, out=out)`, and the rows along `axis` that were entirely −∞ (so got zeros):
    bool, of z's shape with `axis` kept at length 1. The maximum the softmax subtracts tells
    them, so the caller needs no second pass over z to find them.
    """
    z = _as_float(z)
    peak, empty = _row_max_and_empty(z, axis)
    weights = np.subtract(z, peak, out=out)
    np.exp(weights, out=weights)
    weights /= _sum_or_one(weights, axis)
    return weights, empty


def naive_softmax(z: ArrayLike, axis: int = -1) -> np.ndarray:
    """exp(z_i) / Σ_j exp(z_j) without subtracting the maximum, as a careless kernel computes it.

    It shows why `softmax` subtracts the maximum (E6): exp overflows to inf once z exceeds
    log(largest float), about 11.09 in float16 (X4), and inf / inf makes the row NaN; an all −∞
    row gives 0/0 = NaN. Those NaNs are the point, so numpy's warnings are silenced.
    """
    z = _as_float(z)
    with np.errstate(over="ignore", invalid="ignore"):
        exp_z = np.exp(z)
        return exp_z / np.sum(exp_z, axis=axis, keepdims=True)


def log_softmax(z: ArrayLike, axis: int = -1) -> np.ndarray:
    """log p_i = z_i − log Σ_j exp(z_j) along `axis`, without forming p (no log of an underflowed 0).

    −∞ entries stay −∞; an all −∞ row is −∞ throughout: the log of the zeros `softmax` gives.
    """
    z = _as_float(z)
    shifted = z - _row_max(z, axis)
    return shifted - np.log(_sum_or_one(np.exp(shifted), axis))


def softmax_jacobian(z: ArrayLike) -> np.ndarray:
    """∂p_i/∂z_j = p_i (δ_ij − p_j) for p = softmax(z) over the last axis (C4): shape (..., n, n).

    The matrix is diag(p) − p pᵀ: symmetric, with rows summing to zero (a common shift of z
    changes nothing). An all −∞ row gives the zero matrix.
    """
    p = softmax(z)                                      # (..., n)
    delta = np.eye(p.shape[-1], dtype=p.dtype)          # (n, n) δ_ij
    return p[..., :, None] * (delta - p[..., None, :])  # (..., n, n) p_i (δ_ij − p_j)


def softmax_vjp(p: ArrayLike, grad: ArrayLike, axis: int = -1) -> np.ndarray:
    """Gradient with respect to z of Σ_i grad_i p_i, where p = softmax(z) along `axis`.

    Jᵀ grad with J = diag(p) − p pᵀ is p ⊙ (grad − Σ_j grad_j p_j): the backward pass of
    softmax without building the n × n Jacobian. Takes p, the softmax output, since the
    forward pass already has it.
    """
    p, grad = _as_float(p), _as_float(grad)
    return p * (grad - np.add.reduce(grad * p, axis=axis, keepdims=True))  # np.sum minus its checks


def entropy(
    p: ArrayLike, axis: int = -1, mask: ArrayLike | None = None, normalized: bool = False
) -> np.ndarray | np.floating:
    """H = −Σ_i p_i log p_i in nats along `axis` (G2), with 0 · log 0 = 0.

    `mask` (bool, True for an allowed key, broadcast to p's shape) limits the sum to allowed
    keys. `normalized` divides by log n, n the number of allowed keys counted from `mask` (the
    axis length without one), so rows of different lengths compare on a 0–1 scale. n is not
    counted from p > 0: exp can underflow to 0 for a key that was allowed. A row with at most
    one allowed key has no spread to measure; its normalized entropy is defined as 0.
    """
    p = _as_float(p)
    # The terms summed leave out 0 · log 0 = 0 and the keys the mask forbids. Without a mask every
    # key is allowed, an array built only if normalizing needs it; counted is then p > 0 in C order,
    # the layout `np.ones(...) & (p > 0)` had: the order of the sums below follows its layout.
    allowed = None
    if mask is None:
        counted = np.greater(p, 0, order="C")
    else:
        mask = np.asarray(mask, dtype=bool)
        try:
            allowed = mask if mask.shape == p.shape else np.broadcast_to(mask, p.shape)
        except ValueError:
            raise ValueError(f"mask {mask.shape} does not broadcast to p {p.shape}") from None
        counted = allowed & (p > 0)
    log_p = np.log(p, out=np.zeros_like(p), where=counted)
    h = -np.add.reduce(p * log_p, axis=axis, where=counted)  # np.sum minus its checks
    if not normalized:
        return h
    if allowed is None:
        allowed = np.ones(p.shape, dtype=bool)
    n_allowed = np.count_nonzero(allowed, axis=axis)
    log_n = np.log(np.maximum(n_allowed, 1))
    return np.divide(h, log_n, out=np.zeros_like(h), where=n_allowed > 1)[()]
