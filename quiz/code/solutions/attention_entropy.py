import numpy as np


def attention_entropy(weights, valid):
    """−Σ p log p over valid keys, divided by log(valid keys); 0 for a row with one."""
    valid = np.broadcast_to(valid, weights.shape)
    n = np.sum(valid, axis=-1)
    plogp = np.zeros_like(weights)
    np.multiply(weights, np.log(weights, where=weights > 0, out=np.zeros_like(weights)), out=plogp, where=valid)
    h = -np.sum(plogp, axis=-1)
    return np.where(n > 1, h / np.log(np.maximum(n, 2)), 0.0)
