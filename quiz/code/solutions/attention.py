import numpy as np


def attention(q, k, v, mask=None):
    """softmax(q kᵀ / √E + mask) v; a row with no allowed key gives zeros."""
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        if mask.dtype == bool:
            scores = np.where(mask, scores, -np.inf)
        else:
            scores = scores + mask
    top = np.max(scores, axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)  # a row of -inf has nothing to subtract
    weights = np.exp(scores - top)
    total = np.sum(weights, axis=-1, keepdims=True)
    weights = weights / np.where(total == 0, 1.0, total)  # fully masked rows stay zero
    return weights @ v
