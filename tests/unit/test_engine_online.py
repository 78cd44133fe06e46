"""Online-softmax attention over key blocks, against the full softmax, closed forms and identities (X8)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from engine import blockwise_attention, scaled_dot_product_attention

FEW_EXAMPLES = settings(deadline=None, max_examples=40)
entries = st.floats(-4, 4, allow_nan=False)


@st.composite
def blocked_cases(draw):
    """Batched q, k, v of small random sizes and a block size from 1 to past S."""
    batch = draw(st.sampled_from([(), (2,), (2, 3)]))
    L, S, E, Ev = (draw(st.integers(1, 6)) for _ in range(4))
    q = draw(arrays(np.float64, (*batch, L, E), elements=entries))
    k = draw(arrays(np.float64, (*batch, S, E), elements=entries))
    v = draw(arrays(np.float64, (*batch, S, Ev), elements=entries))
    return q, k, v, draw(st.integers(1, S + 2))


@given(blocked_cases(), st.none() | st.floats(-2, 2))
@FEW_EXAMPLES
def test_every_block_size_gives_the_full_softmax_attention(case, scale):
    q, k, v, block = case
    expected = scaled_dot_product_attention(q, k, v, scale=scale)
    np.testing.assert_allclose(blockwise_attention(q, k, v, block, scale), expected, rtol=1e-12, atol=1e-12)


def test_one_key_gives_its_value_and_two_keys_the_logistic_mix():
    q, k = np.array([[1.0, 2.0]]), np.array([[0.5, -1.0], [2.0, 1.0]])
    v = np.array([[10.0], [0.0]])
    np.testing.assert_array_equal(blockwise_attention(q, k[:1], v[:1], 1), [[10.0]])
    gap = (q @ k.T)[0, 0] - (q @ k.T)[0, 1]
    weight = 1 / (1 + math.exp(-gap / math.sqrt(2)))
    np.testing.assert_allclose(blockwise_attention(q, k, v, 1), [[10.0 * weight]], rtol=1e-14)


def test_a_larger_maximum_in_a_later_block_rescales_what_came_before():
    # Block 1 holds score 0, block 2 score 5: without rescaling, exp(0) would keep its weight of 1.
    q = np.array([[1.0]])
    k = np.array([[0.0], [5.0]])
    v = np.array([[1.0], [0.0]])
    expected = 1 / (1 + math.exp(5))
    np.testing.assert_allclose(blockwise_attention(q, k, v, 1, scale=1.0), [[expected]], rtol=1e-14)


def test_scores_past_the_exp_overflow_stay_finite_and_shift_free():
    rng = np.random.default_rng(3)
    q, k, v = rng.standard_normal((4, 3)), rng.standard_normal((9, 3)), rng.standard_normal((9, 2))
    offset_q = np.concatenate([q, np.full((4, 1), 40.0)], axis=1)  # every score gains 40·40/2 = 800 > log(max float)
    offset_k = np.concatenate([k, np.full((9, 1), 40.0)], axis=1)
    result = blockwise_attention(offset_q, offset_k, v, 2, scale=0.5)
    np.testing.assert_allclose(result, scaled_dot_product_attention(q, k, v, scale=0.5), rtol=1e-10)


def test_the_last_block_may_be_shorter():
    rng = np.random.default_rng(4)
    q, k, v = rng.standard_normal((3, 4)), rng.standard_normal((7, 4)), rng.standard_normal((7, 5))
    full = scaled_dot_product_attention(q, k, v)
    for block in (2, 3, 4, 6):  # 7 keys leave 1, 1, 3 and 1 in the last block
        np.testing.assert_allclose(blockwise_attention(q, k, v, block), full, rtol=1e-13)


@pytest.mark.parametrize(
    "shapes, block, message",
    [
        (((2, 3), (4, 3), (4, 2)), 0, "block_size"),
        (((2, 3), (4, 2), (4, 2)), 2, "must fit"),
        (((2, 3), (4, 3), (5, 2)), 2, "must fit"),
        (((2, 3), (0, 3), (0, 2)), 2, "S >= 1"),
    ],
)
def test_bad_arguments_are_errors_saying_why(shapes, block, message):
    q, k, v = (np.ones(shape) for shape in shapes)
    with pytest.raises(ValueError, match=message):
        blockwise_attention(q, k, v, block)
