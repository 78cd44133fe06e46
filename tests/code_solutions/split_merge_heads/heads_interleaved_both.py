import numpy as np


def split_heads(x, n_heads):
    """Deals the features out to the heads in turn."""
    *batch, T, width = x.shape
    return np.moveaxis(x.reshape(*batch, T, width // n_heads, n_heads), -1, -3)


def merge_heads(x):
    """Interleaves the heads back, the inverse of the split above."""
    *batch, H, T, D = x.shape
    return np.moveaxis(x, -3, -1).reshape(*batch, T, D * H)
