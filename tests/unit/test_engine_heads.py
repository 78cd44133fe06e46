"""Splitting and merging heads, and multi-head self-attention against a head-by-head numpy oracle."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from engine import merge_heads, self_attention, split_heads

FEW_EXAMPLES = settings(deadline=None, max_examples=30)


def head_by_head(x, w_q, w_k, w_v, w_o, n_heads, n_kv_heads, causal=False):
    """The oracle: each head's columns sliced out by hand, softmax written out, heads concatenated."""
    T = x.shape[-2]
    d, dv = w_q.shape[1] // n_heads, w_v.shape[1] // n_kv_heads
    outputs = []
    for h in range(n_heads):
        g = h // (n_heads // n_kv_heads)  # the key/value head this query head reads
        q = x @ w_q[:, h * d : (h + 1) * d]
        k = x @ w_k[:, g * d : (g + 1) * d]
        v = x @ w_v[:, g * dv : (g + 1) * dv]
        logits = q @ k.swapaxes(-1, -2) / math.sqrt(d)  # d_k is the head's width, not d_model (E3)
        if causal:
            logits = np.where(np.tril(np.ones((T, T), bool)), logits, -np.inf)
        weights = np.exp(logits - logits.max(axis=-1, keepdims=True))
        outputs.append(weights / weights.sum(axis=-1, keepdims=True) @ v)
    merged = np.concatenate(outputs, axis=-1)
    return merged if w_o is None else merged @ w_o


@given(data=st.data())
@FEW_EXAMPLES
def test_head_h_takes_its_own_slice_of_features(data):
    n_heads, width = data.draw(st.integers(1, 3)), data.draw(st.integers(1, 3))
    x = data.draw(arrays(np.float64, (2, 4, n_heads * width), elements=st.floats(-5, 5)))
    heads = split_heads(x, n_heads)
    assert heads.shape == (2, n_heads, 4, width)
    for h in range(n_heads):
        np.testing.assert_array_equal(heads[:, h], x[..., h * width : (h + 1) * width])
    np.testing.assert_array_equal(merge_heads(heads), x)


def test_split_heads_refuses_a_width_that_does_not_divide():
    with pytest.raises(ValueError, match=r"cannot split x \(3, 5\) \(\.\.\., T, H·D\) into 2 heads"):
        split_heads(np.ones((3, 5)), 2)


def test_merge_heads_needs_a_head_axis():
    with pytest.raises(ValueError, match=r"merge_heads needs x of shape \(\.\.\., H, T, D\), got \(3, 5\)"):
        merge_heads(np.ones((3, 5)))


@pytest.mark.parametrize(
    ("n_heads", "n_kv_heads", "with_output", "causal"),
    [(1, 1, False, False), (2, 2, True, True), (4, 2, True, False), (4, 1, False, True)],
)
def test_self_attention_matches_the_head_by_head_oracle(n_heads, n_kv_heads, with_output, causal):
    rng = np.random.default_rng(n_heads * 10 + n_kv_heads)
    d_model, d, dv, T = 8, 2, 3, 5
    x = rng.standard_normal((2, T, d_model))
    w_q, w_k = rng.standard_normal((d_model, n_heads * d)), rng.standard_normal((d_model, n_kv_heads * d))
    w_v = rng.standard_normal((d_model, n_kv_heads * dv))
    w_o = rng.standard_normal((n_heads * dv, 6)) if with_output else None
    result = self_attention(x, w_q, w_k, w_v, w_o, n_heads, n_kv_heads=n_kv_heads, is_causal=causal)
    expected = head_by_head(x, w_q, w_k, w_v, w_o, n_heads, n_kv_heads, causal)
    np.testing.assert_allclose(result, expected, rtol=1e-12, atol=1e-12)


def test_self_attention_accepts_nested_lists():
    identity = [[1.0, 0.0], [0.0, 1.0]]
    result = self_attention(identity, identity, identity, [[1.0], [2.0]])
    # scores [[1, 0], [0, 1]] / √2; values 1 and 2
    p = 1 / (1 + math.exp(-1 / math.sqrt(2)))
    np.testing.assert_allclose(result, [[p + 2 * (1 - p)], [(1 - p) + 2 * p]], rtol=1e-12)


@pytest.mark.parametrize(
    ("shapes", "message"),
    [
        (((4, 3), (4, 2), (3, 2), (3, 2)), r"x \(4, 3\) \(\.\.\., T, d_model\) needs w_q of shape .*, got \(4, 2\)"),
        (((4, 3), (3, 2), (3, 2), (2,)), r"needs w_v of shape \(d_model, width\), got \(2,\)"),
        (((4, 3), (3, 2), (3, 2), (3, 2), (3, 1)), r"w_o \(3, 1\) must have shape \(H·Dv, d_out\) = \(2, d_out\)"),
    ],
)
def test_projections_that_do_not_fit_are_errors_naming_the_shapes(shapes, message):
    with pytest.raises(ValueError, match=message):
        self_attention(*(np.ones(shape) for shape in shapes))
