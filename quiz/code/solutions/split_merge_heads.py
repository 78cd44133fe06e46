import numpy as np


def split_heads(x, n_heads):
    """(..., T, H·D) → (..., H, T, D)."""
    *batch, T, width = x.shape
    return np.swapaxes(x.reshape(*batch, T, n_heads, width // n_heads), -3, -2)


def merge_heads(x):
    """(..., H, T, D) → (..., T, H·D)."""
    *batch, H, T, D = x.shape
    return np.swapaxes(x, -3, -2).reshape(*batch, T, H * D)
