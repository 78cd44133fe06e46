import numpy as np


def softmax(x, axis=-1):
    """Stable softmax along `axis`; a slice that is all -inf gives zeros."""
    top = np.max(x, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(x - top)
    total = np.sum(e, axis=axis, keepdims=True)
    return e / np.where(total == 0, 1.0, total)
