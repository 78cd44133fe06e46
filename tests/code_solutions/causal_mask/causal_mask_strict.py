import numpy as np


def causal_mask(L, S):
    """Leaves out the diagonal."""
    return np.tril(np.ones((L, S), dtype=bool), k=-1)
