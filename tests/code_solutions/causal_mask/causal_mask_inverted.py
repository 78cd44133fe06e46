import numpy as np


def causal_mask(L, S):
    """True where the key is in the future."""
    return np.triu(np.ones((L, S), dtype=bool), k=1)
