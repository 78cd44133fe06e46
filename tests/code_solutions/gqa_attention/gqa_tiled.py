import numpy as np


def gqa_attention(q, k, v):
    """Tiles the key/value heads."""
    groups = q.shape[-3] // k.shape[-3]
    k, v = np.tile(k, (1,) * (k.ndim - 3) + (groups, 1, 1)), np.tile(v, (1,) * (v.ndim - 3) + (groups, 1, 1))
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    e = np.exp(scores - np.max(scores, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True) @ v
