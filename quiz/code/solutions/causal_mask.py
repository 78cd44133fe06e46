import numpy as np


def causal_mask(L, S):
    """True where key j ≤ query i, aligned top-left."""
    return np.tril(np.ones((L, S), dtype=bool))
