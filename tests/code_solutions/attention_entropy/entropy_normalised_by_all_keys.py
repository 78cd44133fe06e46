import numpy as np


def attention_entropy(weights, valid):
    """Divides by log of the row length."""
    valid = np.broadcast_to(valid, weights.shape)
    n = np.sum(valid, axis=-1)
    plogp = np.zeros_like(weights)
    np.multiply(weights, np.log(weights, where=weights > 0, out=np.zeros_like(weights)), out=plogp, where=valid)
    h = -np.sum(plogp, axis=-1)
    return h / np.log(weights.shape[-1])
