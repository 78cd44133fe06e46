"""ALiBi: a per-head linear penalty −m_h·(i − j) on the scores instead of position embeddings (Y10)."""

from __future__ import annotations

import numpy as np


def _power_of_two_slopes(n_heads: int) -> np.ndarray:
    """2^(−8h/H) for h = 1 … H: the geometric sequence of the paper for H a power of two."""
    return 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)


def alibi_slopes(n_heads: int) -> np.ndarray:
    """The slopes m_h of H heads (Y10), shape (H,): 1/2, 1/4, …, 1/256 for 8 heads.

    For H not a power of two, the paper's rule: the slopes of the closest lower power of two 2^k,
    then every other slope of 2^(k+1) (the 1st, 3rd, …), the first H − 2^k of them.
    """
    if n_heads < 1:
        raise ValueError(f"alibi_slopes needs at least one head, not {n_heads}")
    lower = 1 << (n_heads.bit_length() - 1)  # 2^k ≤ H < 2^(k+1)
    if lower == n_heads:
        return _power_of_two_slopes(n_heads)
    between = _power_of_two_slopes(2 * lower)[0::2][: n_heads - lower]  # slopes halfway between 2^k's
    return np.concatenate([_power_of_two_slopes(lower), between])


def alibi_bias(n_heads: int, L: int, S: int | None = None) -> np.ndarray:
    """Float (H, L, S) added to the scores: −m_h·|i − j| for query i and key j, indices aligned top-left.

    On the causal entries (j ≤ i) this is the paper's −m_h·(i − j). On the others (j > i) it is the
    same penalty on the distance, −m_h·(j − i), the symmetric form used by bidirectional encoders; a
    causal mask hides those entries anyway. S defaults to L.
    """
    S = L if S is None else S
    distance = np.abs(np.arange(L)[:, None] - np.arange(S)[None, :])  # (L, S) |i − j|
    return -alibi_slopes(n_heads)[:, None, None] * distance  # (H, L, S)
