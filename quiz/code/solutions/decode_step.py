import numpy as np


def rope(x, position, base=10000.0):
    """Turn each pair (2i, 2i+1) of x by position·θ_i."""
    d = x.shape[-1]
    angles = position * base ** (-np.arange(0, d, 2) / d)
    cos, sin = np.cos(angles), np.sin(angles)
    out = np.empty(x.shape)
    out[..., 0::2] = x[..., 0::2] * cos - x[..., 1::2] * sin
    out[..., 1::2] = x[..., 0::2] * sin + x[..., 1::2] * cos
    return out


def decode_step(q, k, v, k_cache, v_cache, position):
    q = rope(q, position)
    keys = np.concatenate([k_cache, rope(k, position)], axis=-2)  # the cache is rotated already
    values = np.concatenate([v_cache, v], axis=-2)
    scores = q @ np.swapaxes(keys, -1, -2) / np.sqrt(q.shape[-1])
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ values
