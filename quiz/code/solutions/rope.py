import numpy as np


def rotate(x, positions, base):
    """Turn each interleaved pair (2i, 2i+1) by m·θ_i, θ_i = base^(−2i/d)."""
    d = x.shape[-1]
    theta = base ** (-np.arange(0, d, 2) / d)  # (d/2,)
    angles = positions[:, None, :, None] * theta  # (B, 1, T, d/2): one row of positions per sequence
    cos, sin = np.cos(angles), np.sin(angles)
    even, odd = x[..., 0::2], x[..., 1::2]
    out = np.empty(np.broadcast_shapes(x.shape, (*angles.shape[:-1], d)))
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out


def apply_rope(q, k, positions, base=10000.0):
    return rotate(q, positions, base), rotate(k, positions, base)
