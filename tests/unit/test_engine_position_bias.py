"""ALiBi slopes and bias, and T5's bucketed relative position bias (Y10)."""

import numpy as np
import pytest

from engine import alibi_bias, alibi_slopes, relative_position_bias, relative_position_bucket, scaled_dot_product_attention
from engine.masks import causal_mask


def test_eight_heads_have_slopes_one_half_to_one_in_256():
    np.testing.assert_array_equal(alibi_slopes(8), [1 / 2**h for h in range(1, 9)])


def test_sixteen_heads_halve_every_other_step():
    np.testing.assert_allclose(alibi_slopes(16), [2 ** (-h / 2) for h in range(1, 17)], rtol=1e-15)


def test_twelve_heads_follow_the_papers_rule():
    # The closest lower power of two is 8: its slopes 2^-1 … 2^-8, then the 1st, 3rd, 5th and 7th of
    # the 16 heads' slopes 2^-0.5, 2^-1, … — that is 2^-0.5, 2^-1.5, 2^-2.5, 2^-3.5.
    expected = [2.0**-h for h in range(1, 9)] + [2.0**-0.5, 2.0**-1.5, 2.0**-2.5, 2.0**-3.5]
    np.testing.assert_allclose(alibi_slopes(12), expected, rtol=1e-15)


def test_bias_is_minus_slope_times_distance_on_the_causal_entries():
    bias = alibi_bias(2, 3)  # slopes 2^-4 and 2^-8
    assert bias.shape == (2, 3, 3)
    np.testing.assert_array_equal(bias[0], -np.array([[0, 1, 2], [1, 0, 1], [2, 1, 0]]) / 16)
    np.testing.assert_array_equal(bias[1][causal_mask(3)], -np.array([0, 1, 0, 2, 1, 0]) / 256)


def test_bias_decays_causal_weights_exponentially_with_distance():
    # Equal scores: the weights of keys i, i−1, i−2, … fall by exp(−m) per step.
    n_heads, T = 4, 5
    q, k = np.zeros((n_heads, T, 2)), np.zeros((n_heads, T, 2))
    v = np.eye(T)[None].repeat(n_heads, axis=0)  # the output row is the weight row
    bias = np.where(causal_mask(T), alibi_bias(n_heads, T), -np.inf)
    weights = scaled_dot_product_attention(q, k, v, attn_mask=bias)
    ratios = weights[:, -1, 1:] / weights[:, -1, :-1]  # last row: w_j / w_(j−1)
    np.testing.assert_allclose(ratios, np.exp(alibi_slopes(n_heads))[:, None].repeat(T - 1, axis=1), rtol=1e-12)


def test_no_head_is_refused():
    with pytest.raises(ValueError, match="at least one head"):
        alibi_slopes(0)


@pytest.mark.parametrize(
    "offset, bucket",
    [(0, 0), (-1, 1), (-15, 15), (-16, 16), (-31, 21), (-32, 21), (-64, 26), (-127, 31), (-128, 31), (-5000, 31), (3, 0)],
)
def test_causal_buckets_at_known_offsets(offset, bucket):
    # 32 buckets, max_distance 128: 16 exact, then 16 + ⌊16·log(n/16)/log 8⌋ capped at 31.
    assert relative_position_bucket(offset, bidirectional=False) == bucket


@pytest.mark.parametrize("offset, bucket", [(0, 0), (-3, 3), (3, 19), (-7, 7), (8, 24), (-16, 10), (16, 26), (-128, 15), (128, 31)])
def test_bidirectional_buckets_at_known_offsets(offset, bucket):
    # 16 buckets a side, 8 exact: n ≥ 8 goes to 8 + ⌊8·log(n/8)/log 16⌋ capped at 15; keys after +16.
    assert relative_position_bucket(offset) == bucket


def test_relative_bias_reads_the_table_at_each_offsets_bucket():
    table = np.arange(32 * 2, dtype=float).reshape(32, 2)  # (num_buckets, H)
    bias = relative_position_bias(table, 3, 4)
    assert bias.shape == (2, 3, 4)
    offsets = np.arange(4)[None, :] - np.arange(3)[:, None]
    buckets = relative_position_bucket(offsets)
    for h in range(2):
        np.testing.assert_array_equal(bias[h], table[buckets, h])
    np.testing.assert_array_equal(bias[:, 1, 1], table[0])  # offset 0, bucket 0
