import math

import numpy as np


def slopes_power_of_two(n):
    return 2.0 ** (-8.0 * np.arange(1, n + 1) / n)


def slopes(n_heads):
    lower = 2 ** int(math.log2(n_heads))
    if lower == n_heads:
        return slopes_power_of_two(n_heads)
    extra = slopes_power_of_two(2 * lower)[0::2][: n_heads - lower]
    return np.concatenate([slopes_power_of_two(lower), extra])


def alibi_bias(n_heads, L, S):
    distance = np.abs(np.arange(L)[:, None] - np.arange(S)[None, :])
    return -slopes(n_heads)[:, None, None] * distance
