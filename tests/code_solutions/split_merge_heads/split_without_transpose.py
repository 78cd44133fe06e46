import numpy as np


def split_heads(x, n_heads):
    """Reshapes straight to (..., H, T, D)."""
    *batch, T, width = x.shape
    return x.reshape(*batch, n_heads, T, width // n_heads)


def merge_heads(x):
    """(..., H, T, D) → (..., T, H·D)."""
    *batch, H, T, D = x.shape
    return np.swapaxes(x, -3, -2).reshape(*batch, T, H * D)
