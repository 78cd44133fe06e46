import numpy as np


def attention(q, k, v, mask=None):
    """Normalises down the columns (over the queries)."""
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        if mask.dtype == bool:
            scores = np.where(mask, scores, -np.inf)
        else:
            scores = scores + mask
    top = np.max(scores, axis=-2, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    weights = np.exp(scores - top)
    total = np.sum(weights, axis=-2, keepdims=True)
    weights = weights / np.where(total == 0, 1.0, total)
    return weights @ v
