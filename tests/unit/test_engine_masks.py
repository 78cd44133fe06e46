"""Sliding-window, prefix-LM, padding and packed-document masks, and the position ids that go with them (Y11, Y12)."""

import numpy as np
import pytest

from engine import (
    causal_mask,
    document_causal_mask,
    key_padding_mask,
    packed_position_ids,
    padded_position_ids,
    prefix_lm_mask,
    scaled_dot_product_attention,
    sliding_window_mask,
)


@pytest.mark.parametrize("L, S", [(5, 5), (3, 6), (6, 3)])
def test_a_window_of_at_least_the_length_is_the_causal_mask(L, S):
    for window in (L, L + 1, 100):  # i − j is at most L − 1
        np.testing.assert_array_equal(sliding_window_mask(L, window, S), causal_mask(L, S))


def test_a_window_of_one_is_the_diagonal():
    np.testing.assert_array_equal(sliding_window_mask(4, 1), np.eye(4, dtype=bool))


def test_a_window_of_two_is_the_diagonal_and_the_one_below():
    expected = np.array([[1, 0, 0, 0], [1, 1, 0, 0], [0, 1, 1, 0], [0, 0, 1, 1]], dtype=bool)
    np.testing.assert_array_equal(sliding_window_mask(4, 2), expected)


def test_an_empty_window_is_refused():
    with pytest.raises(ValueError, match="at least one key"):
        sliding_window_mask(3, 0)


def test_prefix_lm_is_bidirectional_inside_the_prefix_and_causal_after():
    expected = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 0, 0], [1, 1, 1, 0, 0], [1, 1, 1, 1, 0], [1, 1, 1, 1, 1]], dtype=bool)
    np.testing.assert_array_equal(prefix_lm_mask(5, 3), expected)
    for prefix in (0, 1):
        np.testing.assert_array_equal(prefix_lm_mask(5, prefix), causal_mask(5))
    np.testing.assert_array_equal(prefix_lm_mask(5, 5), np.ones((5, 5), dtype=bool))


def test_key_padding_on_either_side():
    right = key_padding_mask([2, 4], 4)
    left = key_padding_mask([2, 4], 4, side="left")
    assert right.shape == left.shape == (2, 1, 1, 4)
    np.testing.assert_array_equal(right[:, 0, 0], [[1, 1, 0, 0], [1, 1, 1, 1]])
    np.testing.assert_array_equal(left[:, 0, 0], [[0, 0, 1, 1], [1, 1, 1, 1]])


def test_padding_and_causal_masks_combine_by_and_with_broadcasting():
    combined = key_padding_mask([2, 3], 3, side="left") & causal_mask(3)  # (B, 1, L, S)
    assert combined.shape == (2, 1, 3, 3)
    np.testing.assert_array_equal(combined[0, 0], [[0, 0, 0], [0, 1, 0], [0, 1, 1]])  # row 0: a pad with no key
    np.testing.assert_array_equal(combined[1, 0], causal_mask(3))


def test_a_sliding_window_and_padding_combine_into_their_intersection():
    window, padding = sliding_window_mask(4, 2), key_padding_mask([3], 4)[0, 0]
    np.testing.assert_array_equal(window & padding, window * padding)
    np.testing.assert_array_equal((window & padding)[:, 3], [0, 0, 0, 0])


def test_left_padded_real_tokens_start_at_position_zero():
    np.testing.assert_array_equal(padded_position_ids([2, 4, 0], 4, side="left"), [[0, 0, 0, 1], [0, 1, 2, 3], [0, 0, 0, 0]])
    np.testing.assert_array_equal(padded_position_ids([2], 4), [[0, 1, 0, 0]])


def test_left_padding_leaves_each_sequences_last_output_unchanged():
    # The same sequence alone and left-padded beside a longer one: its real rows agree.
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((2, 4, 3)) for _ in range(3))
    mask = key_padding_mask([2, 4], 4, side="left")[:, 0] & causal_mask(4)  # (B, L, S)
    batched = scaled_dot_product_attention(q, k, v, attn_mask=mask)
    alone = scaled_dot_product_attention(q[0, 2:], k[0, 2:], v[0, 2:], is_causal=True)
    np.testing.assert_allclose(batched[0, 2:], alone, rtol=1e-13)
    np.testing.assert_array_equal(batched[0, 0], 0.0)  # a fully masked pad row gets zeros (E5)


def test_document_mask_is_block_diagonal_causal():
    mask = document_causal_mask([2, 3])
    expected = np.zeros((5, 5), dtype=bool)
    expected[:2, :2] = causal_mask(2)
    expected[2:, 2:] = causal_mask(3)
    np.testing.assert_array_equal(mask, expected)
    np.testing.assert_array_equal(document_causal_mask([5]), causal_mask(5))


def test_packed_documents_attend_as_if_alone():
    rng = np.random.default_rng(1)
    q, k, v = (rng.standard_normal((6, 2)) for _ in range(3))
    packed = scaled_dot_product_attention(q, k, v, attn_mask=document_causal_mask([2, 4]))
    second = scaled_dot_product_attention(q[2:], k[2:], v[2:], is_causal=True)
    np.testing.assert_allclose(packed[2:], second, rtol=1e-13)


def test_packed_positions_restart_at_each_document():
    np.testing.assert_array_equal(packed_position_ids([2, 3, 1]), [0, 1, 0, 1, 2, 0])
    np.testing.assert_array_equal(packed_position_ids([0, 2]), [0, 1])


@pytest.mark.parametrize("lengths", [[5], [-1], [[1]]])
def test_lengths_outside_the_row_are_refused(lengths):
    with pytest.raises(ValueError, match="lengths"):
        key_padding_mask(lengths, 4)


def test_an_unknown_side_is_refused():
    with pytest.raises(ValueError, match="side"):
        key_padding_mask([1], 4, side="middle")
