"""Linear attention: exp(q·k) replaced by φ(q)·φ(k) with φ = elu + 1, so the keys fold into a d×d state (Y16).

The same weights φ(q_i)·φ(k_j) / Σ_j φ(q_i)·φ(k_j) are computed two ways: as the (masked) n×n
quadratic form, O(n² d), and through the state S = Σ_j φ(k_j) v_jᵀ, z = Σ_j φ(k_j), O(n d²): causal
decoding then is an RNN with S_t = S_{t−1} + φ(k_t) v_tᵀ and z_t = z_{t−1} + φ(k_t).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike


def elu_plus_one(x: ArrayLike) -> np.ndarray:
    """φ(x) = elu(x) + 1: x + 1 for x > 0, exp(x) otherwise; always positive, so every weight is."""
    x = np.asarray(x, dtype=np.float64)
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))  # the minimum keeps exp of large x unasked


def linear_attention(query: ArrayLike, key: ArrayLike, value: ArrayLike, causal: bool = False) -> np.ndarray:
    """The quadratic form: weights φ(Q) φ(K)ᵀ (..., L, S), masked to j ≤ i when causal, each row normalised, times V.

    Shapes as attention's: query (..., L, E), key (..., S, E), value (..., S, Ev) → (..., L, Ev).
    """
    weights = elu_plus_one(query) @ elu_plus_one(key).swapaxes(-2, -1)  # (..., L, S)
    if causal:
        weights = weights * np.tri(*weights.shape[-2:])  # zero, not −∞: there is no exp to take
    return (weights @ np.asarray(value, dtype=np.float64)) / weights.sum(axis=-1, keepdims=True)


def linear_attention_state(query: ArrayLike, key: ArrayLike, value: ArrayLike, causal: bool = True) -> np.ndarray:
    """The same result through the d×d state, never forming the n×n weights: (..., L, Ev).

    Causal (L = S): a running S_t = S_{t−1} + φ(k_t) v_tᵀ, z_t = z_{t−1} + φ(k_t), and output t is
    φ(q_t)ᵀ S_t / φ(q_t)ᵀ z_t. Not causal: one state over every key, φ(Q) (φ(K)ᵀ V) / φ(Q) (φ(K)ᵀ 1).
    """
    phi_q, phi_k = elu_plus_one(query), elu_plus_one(key)  # (..., L, E), (..., S, E)
    value = np.asarray(value, dtype=np.float64)  # (..., S, Ev)
    if not causal:
        state = phi_k.swapaxes(-2, -1) @ value  # (..., E, Ev) Σ_j φ(k_j) v_jᵀ
        normaliser = phi_k.sum(axis=-2)  # (..., E) Σ_j φ(k_j)
        return (phi_q @ state) / (phi_q @ normaliser[..., None])
    if phi_q.shape[-2] != phi_k.shape[-2]:
        raise ValueError(f"causal linear attention runs over one sequence: query {phi_q.shape} and key {phi_k.shape} need L = S")
    batch = np.broadcast_shapes(phi_q.shape[:-2], phi_k.shape[:-2], value.shape[:-2])
    state = np.zeros((*batch, phi_k.shape[-1], value.shape[-1]))  # (..., E, Ev) S_0 = 0
    normaliser = np.zeros((*batch, phi_k.shape[-1]))  # (..., E) z_0 = 0
    outputs = []
    for t in range(phi_q.shape[-2]):
        state = state + phi_k[..., t, :, None] * value[..., t, None, :]  # S_t = S_{t−1} + φ(k_t) v_tᵀ
        normaliser = normaliser + phi_k[..., t, :]  # z_t = z_{t−1} + φ(k_t)
        q_t = phi_q[..., t, :]  # (..., E)
        outputs.append((q_t[..., None, :] @ state)[..., 0, :] / (q_t * normaliser).sum(axis=-1, keepdims=True))
    return np.stack(outputs, axis=-2)  # (..., L, Ev)
