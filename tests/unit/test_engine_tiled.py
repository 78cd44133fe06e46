"""Tiled FlashAttention-style forward: O and the per-row log-sum-exp equal dense attention's; causal tiles skipped (Y13)."""

import numpy as np
import pytest

from engine import attention, tiled_attention
from engine.masks import causal_mask

RNG = np.random.default_rng(0)


def dense_lse(query, key, causal, scale=None):
    """log Σ_j exp(s_ij) over allowed keys, from the dense trace's masked scores, shifted by the row max."""
    masked = attention(query, key, np.zeros((*key.shape[:-1], 1)), is_causal=causal, scale=scale).masked
    peak = masked.max(axis=-1, keepdims=True)
    return (peak + np.log(np.exp(masked - peak).sum(axis=-1, keepdims=True)))[..., 0]


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("L, S, block_q, block_k", [(7, 7, 3, 2), (5, 9, 2, 4), (9, 5, 4, 3), (6, 6, 6, 6), (7, 7, 1, 1), (4, 4, 10, 10)])
def test_output_and_lse_equal_dense_attention(causal, L, S, block_q, block_k):
    q, k, v = RNG.standard_normal((2, L, 4)), RNG.standard_normal((2, S, 4)), RNG.standard_normal((2, S, 3))
    result = tiled_attention(q, k, v, block_q, block_k, causal=causal)
    np.testing.assert_allclose(result.output, attention(q, k, v, is_causal=causal).output, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(result.lse, dense_lse(q, k, causal), rtol=1e-12)


def test_large_scores_stay_finite():
    q, k, v = RNG.standard_normal((5, 3)) * 40, RNG.standard_normal((5, 3)) * 40, RNG.standard_normal((5, 2))
    result = tiled_attention(q, k, v, 2, 2, causal=True, scale=1.0)  # scores of hundreds: exp overflows unshifted
    np.testing.assert_allclose(result.output, attention(q, k, v, is_causal=True, scale=1.0).output, rtol=1e-10)
    assert np.all(np.isfinite(result.lse))


@pytest.mark.parametrize("n, block", [(8, 2), (9, 3), (10, 3), (5, 5), (5, 1)])
def test_square_causal_grid_skips_the_strict_upper_triangle_of_tiles(n, block):
    tiles = -(-n // block)  # T = ⌈n / B⌉ tiles a side: T(T − 1)/2 above the diagonal, T(T + 1)/2 computed
    result = tiled_attention(np.ones((n, 2)), np.ones((n, 2)), np.ones((n, 1)), block, block, causal=True)
    assert (result.tiles_skipped, result.tiles_computed) == (tiles * (tiles - 1) // 2, tiles * (tiles + 1) // 2)


@pytest.mark.parametrize("L, S, block_q, block_k", [(7, 7, 3, 2), (5, 9, 2, 4), (9, 5, 4, 3), (8, 8, 2, 4)])
def test_a_tile_is_skipped_exactly_when_the_causal_mask_hides_all_of_it(L, S, block_q, block_k):
    mask = causal_mask(L, S)
    empty = sum(not mask[a : a + block_q, b : b + block_k].any() for a in range(0, L, block_q) for b in range(0, S, block_k))
    result = tiled_attention(np.ones((L, 2)), np.ones((S, 2)), np.ones((S, 1)), block_q, block_k, causal=True)
    assert result.tiles_skipped == empty
    assert result.tiles_computed + result.tiles_skipped == -(-L // block_q) * -(-S // block_k)


def test_without_a_mask_no_tile_is_skipped():
    result = tiled_attention(np.ones((7, 2)), np.ones((7, 2)), np.ones((7, 1)), 2, 3)
    assert (result.tiles_computed, result.tiles_skipped) == (4 * 3, 0)


@pytest.mark.parametrize("block_q, block_k, shapes", [(0, 2, ((2, 3), (4, 3), (4, 2))), (2, 2, ((2, 3), (0, 3), (0, 2)))])
def test_bad_arguments_are_refused(block_q, block_k, shapes):
    with pytest.raises(ValueError):
        tiled_attention(*(np.ones(shape) for shape in shapes), block_q, block_k)
