import numpy as np


def split_heads(x, n_heads):
    """(..., T, H·D) → (..., H, T, D)."""
    *batch, T, width = x.shape
    return np.swapaxes(x.reshape(*batch, T, n_heads, width // n_heads), -3, -2)


def merge_heads(x):
    """Moves the head axis to the end before flattening, so the heads interleave."""
    *batch, H, T, D = x.shape
    return np.moveaxis(x, -3, -1).reshape(*batch, T, D * H)
