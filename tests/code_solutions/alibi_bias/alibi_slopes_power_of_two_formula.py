import numpy as np


def slopes_power_of_two(n):
    return 2.0 ** (-8.0 * np.arange(1, n + 1) / n)


def slopes(n_heads):
    return slopes_power_of_two(n_heads)


def alibi_bias(n_heads, L, S):
    distance = np.abs(np.arange(L)[:, None] - np.arange(S)[None, :])
    return -slopes(n_heads)[:, None, None] * distance
