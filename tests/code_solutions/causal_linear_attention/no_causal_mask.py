import numpy as np


def phi(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))  # elu(x) + 1


def causal_linear_attention(q, k, v):
    """One state over every key, φ(Q)(φ(K)ᵀV) / φ(Q)(φ(K)ᵀ1): the non-causal form."""
    fq, fk = phi(q), phi(k)
    S = np.swapaxes(fk, -1, -2) @ v  # (..., E, Ev)
    z = fk.sum(axis=-2)  # (..., E)
    return (fq @ S) / (fq @ z[..., None])
