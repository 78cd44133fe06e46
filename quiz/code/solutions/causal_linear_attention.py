import numpy as np


def phi(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))  # elu(x) + 1


def causal_linear_attention(q, k, v):
    """A running state S_t = S_{t−1} + φ(k_t) v_tᵀ and normaliser z_t = z_{t−1} + φ(k_t), read by φ(q_t)."""
    fq, fk = phi(q), phi(k)
    S = np.zeros(q.shape[:-2] + (q.shape[-1], v.shape[-1]))
    z = np.zeros(q.shape[:-2] + (q.shape[-1],))
    out = np.zeros(q.shape[:-1] + (v.shape[-1],))
    for t in range(q.shape[-2]):
        S = S + fk[..., t, :, None] * v[..., t, None, :]
        z = z + fk[..., t, :]
        num = np.einsum("...e,...ev->...v", fq[..., t, :], S)
        out[..., t, :] = num / np.sum(fq[..., t, :] * z, axis=-1, keepdims=True)
    return out
