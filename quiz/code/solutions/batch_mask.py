import numpy as np


def batch_mask(lengths, S, window, side):
    i = np.arange(S)[:, None]
    j = np.arange(S)[None, :]
    local = (i - j >= 0) & (i - j < window)  # (S, S): causal, and at most window − 1 keys back
    lengths = np.asarray(lengths)[:, None]
    if side == "right":
        real = np.arange(S)[None, :] < lengths  # (B, S)
    else:
        real = np.arange(S)[None, :] >= S - lengths
    return local[None, None, :, :] & real[:, None, None, :]
