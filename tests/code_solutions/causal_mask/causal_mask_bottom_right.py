import numpy as np


def causal_mask(L, S):
    """Aligned so that the last query sees every key."""
    return np.tril(np.ones((L, S), dtype=bool), k=S - L)
