import numpy as np


def attention_entropy(weights, valid):
    """The formula as written, on every key."""
    valid = np.broadcast_to(valid, weights.shape)
    n = np.sum(valid, axis=-1)
    h = -np.sum(weights * np.log(weights), axis=-1)
    return h / np.log(n)
