import numpy as np


def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def split(x, n_heads):
    *batch, T, width = x.shape
    return np.swapaxes(x.reshape(*batch, T, n_heads, width // n_heads), -3, -2)


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, causal=False):
    """Project, split into heads, attend per head, merge, project back."""
    q, k, v = split(x @ w_q, n_heads), split(x @ w_k, n_heads), split(x @ w_v, n_heads)
    d_k = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_k)
    if causal:
        T = x.shape[-2]
        scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    heads = softmax(scores, axis=-1) @ v
    *batch, H, T, Dv = heads.shape
    merged = np.swapaxes(heads, -3, -2).reshape(*batch, T, H * Dv)
    return merged @ w_o
