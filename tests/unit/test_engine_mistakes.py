"""Each classic bug around attention gives a result that differs from the correct operation's on typical inputs."""

import numpy as np
import pytest

from engine import (
    apply_rotary,
    causal_mask,
    cross_entropy,
    document_causal_mask,
    key_padding_mask,
    linear_attention,
    scaled_dot_product_attention,
    sliding_window_mask,
    tiled_attention,
)
from engine.mistakes import (
    attention_with_rope_on_values,
    causal_linear_attention_without_mask,
    cross_entropy_as_log_of_softmax,
    decode_with_cached_keys_rotated_again,
    decode_with_new_tokens_at_position_zero,
    key_padding_mask_on_the_wrong_side,
    masks_combined_by_or,
    packed_causal_mask_without_documents,
    sliding_window_mask_off_by_one,
    tiled_attention_skipping_diagonal_tiles,
    tiled_attention_without_rescaling_the_sum,
)

RNG = np.random.default_rng(0)


def rope_inputs(T=6, d=4):
    q, k, v = RNG.standard_normal((1, 2, T, d)), RNG.standard_normal((1, 2, T, d)), RNG.standard_normal((1, 2, T, d))
    positions = np.arange(T)
    correct = scaled_dot_product_attention(apply_rotary(q, positions), apply_rotary(k, positions), v, is_causal=True)
    return q, k, v, correct


def test_new_tokens_at_position_zero_keep_the_prompt_but_not_what_follows():
    q, k, v, correct = rope_inputs()
    wrong = decode_with_new_tokens_at_position_zero(q, k, v, prompt=3)
    np.testing.assert_allclose(wrong[..., :3, :], correct[..., :3, :], rtol=1e-12)
    assert not np.allclose(wrong[..., 3:, :], correct[..., 3:, :])


def test_cached_keys_rotated_again_sit_at_twice_their_position():
    q, k, v, correct = rope_inputs()
    wrong = decode_with_cached_keys_rotated_again(q, k, v)
    positions = np.arange(6)
    doubled = scaled_dot_product_attention(apply_rotary(q, positions), apply_rotary(k, 2 * positions), v, is_causal=True)
    np.testing.assert_allclose(wrong, doubled, rtol=1e-12)
    np.testing.assert_allclose(wrong[..., 0, :], correct[..., 0, :], rtol=1e-12)  # position 0 is unmoved either way
    assert not np.allclose(wrong, correct)


def test_rope_on_values_changes_the_output():
    q, k, v, correct = rope_inputs()
    wrong = attention_with_rope_on_values(q, k, v)
    np.testing.assert_allclose(wrong[..., 0, :], correct[..., 0, :], rtol=1e-12)  # row 0 reads only value 0, unrotated
    assert not np.allclose(wrong, correct)


def test_the_off_by_one_window_lets_in_one_key_too_many():
    wrong, correct = sliding_window_mask_off_by_one(6, 2), sliding_window_mask(6, 2)
    np.testing.assert_array_equal(wrong.sum(axis=1) - correct.sum(axis=1), [0, 0, 1, 1, 1, 1])


def test_padding_on_the_wrong_side_hides_real_tokens():
    wrong, correct = key_padding_mask_on_the_wrong_side([2, 4], 4, "left"), key_padding_mask([2, 4], 4, "left")
    np.testing.assert_array_equal(wrong[0, 0, 0], [1, 1, 0, 0])
    np.testing.assert_array_equal(wrong[1], correct[1])  # a full row has no side
    assert not np.array_equal(wrong, correct)


def test_or_lets_queries_attend_padding_and_the_future():
    padding, causal = key_padding_mask([2], 4), causal_mask(4)
    wrong, correct = masks_combined_by_or(padding, causal), padding & causal
    assert wrong.shape == correct.shape == (1, 1, 4, 4)
    assert wrong[0, 0, 0, 1] and not correct[0, 0, 0, 1]  # query 0 sees key 1, a future token
    assert wrong[0, 0, 3, 3] and not correct[0, 0, 3, 3]  # the pad key 3 is attended


def test_packing_without_the_block_diagonal_mask_attends_across_documents():
    q, k, v = (RNG.standard_normal((5, 3)) for _ in range(3))
    wrong = scaled_dot_product_attention(q, k, v, attn_mask=packed_causal_mask_without_documents([2, 3]))
    correct = scaled_dot_product_attention(q, k, v, attn_mask=document_causal_mask([2, 3]))
    np.testing.assert_allclose(wrong[:2], correct[:2], rtol=1e-13)  # the first document has nothing before it
    assert not np.allclose(wrong[2:], correct[2:])


def test_log_of_a_computed_softmax_is_infinite_at_large_logits():
    logits, targets = np.array([[1e4, -1e4, 0.0]]), np.array([1])
    assert np.isinf(cross_entropy_as_log_of_softmax(logits, targets)[0])
    assert cross_entropy(logits, targets) == 2e4
    moderate = RNG.standard_normal((3, 4))  # where nothing underflows, the two agree
    np.testing.assert_allclose(cross_entropy_as_log_of_softmax(moderate, [0, 1, 2]), cross_entropy(moderate, [0, 1, 2], "none"), rtol=1e-12)


def test_linear_attention_without_the_mask_leaks_the_future():
    q, k, v = (RNG.standard_normal((5, 3)) for _ in range(3))
    wrong, correct = causal_linear_attention_without_mask(q, k, v), linear_attention(q, k, v, causal=True)
    assert not np.allclose(wrong[:-1], correct[:-1])
    np.testing.assert_allclose(wrong[-1], correct[-1], rtol=1e-13)  # the last row sees every key either way


@pytest.mark.parametrize("block", [2, 3])
def test_skipping_the_diagonal_tiles_loses_the_nearest_keys(block):
    q, k, v = (RNG.standard_normal((7, 3)) for _ in range(3))
    wrong = tiled_attention_skipping_diagonal_tiles(q, k, v, block, block)
    correct = tiled_attention(q, k, v, block, block, causal=True)
    assert np.isnan(wrong.output[:block]).all()  # the first tile row has no tile left
    assert wrong.tiles_skipped > correct.tiles_skipped
    assert not np.allclose(wrong.output[block:], correct.output[block:])


def test_dropping_the_rescale_of_the_running_sum_shrinks_the_output():
    # Key 0 scores 0, key 1 scores 5 (blocks of one): the sum keeps exp(0) = 1 where it should keep exp(−5).
    q, k, v = np.array([[1.0]]), np.array([[0.0], [5.0]]), np.array([[1.0], [1.0]])
    wrong = tiled_attention_without_rescaling_the_sum(q, k, v, 1, 1, scale=1.0)
    correct = tiled_attention(q, k, v, 1, 1, scale=1.0)
    np.testing.assert_allclose(correct.output, [[1.0]], rtol=1e-15)  # a mean of equal values
    np.testing.assert_allclose(wrong.output, [[(np.exp(-5) + 1) / 2]], rtol=1e-14)
    typical = [RNG.standard_normal((6, 3)) for _ in range(3)]
    assert not np.allclose(tiled_attention_without_rescaling_the_sum(*typical, 2, 2).output, tiled_attention(*typical, 2, 2).output)
