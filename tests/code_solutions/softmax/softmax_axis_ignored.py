import numpy as np


def softmax(x, axis=-1):
    """Always works along the last axis."""
    top = np.max(x, axis=-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    e = np.exp(x - top)
    total = np.sum(e, axis=-1, keepdims=True)
    return e / np.where(total == 0, 1.0, total)
