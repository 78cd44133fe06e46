import numpy as np


def rotate(x, positions, base):
    """GPT-NeoX style: feature i paired with feature i + d/2."""
    d = x.shape[-1]
    theta = base ** (-np.arange(0, d, 2) / d)
    angles = positions[:, None, :, None] * theta
    cos, sin = np.cos(angles), np.sin(angles)
    first, second = x[..., : d // 2], x[..., d // 2 :]
    return np.concatenate([first * cos - second * sin, first * sin + second * cos], axis=-1)


def apply_rope(q, k, positions, base=10000.0):
    return rotate(q, positions, base), rotate(k, positions, base)
