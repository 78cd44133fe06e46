import numpy as np


def phi(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))  # elu(x) + 1


def causal_linear_attention(q, k, v):
    """The running state read without dividing by the normaliser."""
    fq, fk = phi(q), phi(k)
    S = np.zeros(q.shape[:-2] + (q.shape[-1], v.shape[-1]))
    out = np.zeros(q.shape[:-1] + (v.shape[-1],))
    for t in range(q.shape[-2]):
        S = S + fk[..., t, :, None] * v[..., t, None, :]
        out[..., t, :] = np.einsum("...e,...ev->...v", fq[..., t, :], S)
    return out
