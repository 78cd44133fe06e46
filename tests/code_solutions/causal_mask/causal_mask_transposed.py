import numpy as np


def causal_mask(L, S):
    """The upper triangle instead of the lower."""
    return np.triu(np.ones((L, S), dtype=bool))
