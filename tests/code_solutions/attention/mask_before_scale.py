import numpy as np


def attention(q, k, v, mask=None):
    """Adds a float mask to q kᵀ and only then scales."""
    scores = q @ np.swapaxes(k, -1, -2)
    if mask is not None:
        if mask.dtype == bool:
            scores = np.where(mask, scores, -np.inf)
        else:
            scores = scores + mask
    scores = scores / np.sqrt(q.shape[-1])
    top = np.max(scores, axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    weights = np.exp(scores - top)
    total = np.sum(weights, axis=-1, keepdims=True)
    weights = weights / np.where(total == 0, 1.0, total)
    return weights @ v
