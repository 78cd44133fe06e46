"""Forward attention against closed forms, a loop-by-loop oracle and the properties the notes state."""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from engine import Fault, attention, causal_mask, scaled_dot_product_attention
from engine.attention import attention_weights, attention_weights_fast, prepare_call

FEW_EXAMPLES = settings(deadline=None, max_examples=40)
entries = st.floats(-3, 3, allow_nan=False)

# The notes' worked example (C6): d_k = 4, q·k₁ = 4, q·k₂ = 0, values 10 and 0.
C6_QUERY = [[1, 1, 1, 1]]
C6_KEY = [[1, 1, 1, 1], [1, -1, 1, -1]]
C6_VALUE = [[10], [0]]


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def loop_attention(q, k, v, allowed, additive, scale, groups):
    """The oracle: every weight and output entry from Python loops and math.exp.

    q (H, L, E); k, v (H / groups, S, ·); allowed and additive (H, L, S). Query head h reads
    key/value head h // groups. Rows without an allowed key stay zero.
    """
    H, L, E = q.shape
    S, Ev = v.shape[-2:]
    weights, output = np.zeros((H, L, S)), np.zeros((H, L, Ev))
    for h in range(H):
        kv = h // groups
        for i in range(L):
            logits = {
                j: scale * sum(q[h, i, e] * k[kv, j, e] for e in range(E)) + additive[h, i, j]
                for j in range(S)
                if allowed[h, i, j]
            }
            if not logits:
                continue
            top = max(logits.values())
            total = sum(math.exp(x - top) for x in logits.values())
            for j, x in logits.items():
                weights[h, i, j] = math.exp(x - top) / total
                output[h, i] += weights[h, i, j] * v[kv, j]
    return weights, output


@st.composite
def attention_cases(draw):
    """Random heads (GQA included), lengths, mask kind and scale; with what the oracle makes of them."""
    kv_heads, groups = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    H = kv_heads * groups
    L, S, E, Ev = (draw(st.integers(1, 4)) for _ in range(4))
    q = draw(arrays(np.float64, (H, L, E), elements=entries))
    k = draw(arrays(np.float64, (kv_heads, S, E), elements=entries))
    v = draw(arrays(np.float64, (kv_heads, S, Ev), elements=entries))
    mask_shape = draw(st.sampled_from([(L, S), (1, S), (H, L, S)]))
    kind = draw(st.sampled_from(["none", "bool", "float", "causal"]))
    attn_mask, allowed, additive = None, np.ones((H, L, S), dtype=bool), np.zeros((H, L, S))
    if kind == "bool":
        attn_mask = draw(arrays(bool, mask_shape))
        allowed = np.broadcast_to(attn_mask, (H, L, S))
    elif kind == "float":
        attn_mask = draw(arrays(np.float64, mask_shape, elements=entries | st.just(-np.inf)))
        additive = np.broadcast_to(attn_mask, (H, L, S))
        allowed = additive > -np.inf
    elif kind == "causal":
        allowed = np.array([[[j <= i for j in range(S)] for i in range(L)]] * H)
    scale = draw(st.none() | st.floats(-2, 2))
    kwargs = {"attn_mask": attn_mask, "is_causal": kind == "causal", "scale": scale, "enable_gqa": groups > 1}
    used_scale = 1 / math.sqrt(E) if scale is None else scale
    oracle = loop_attention(q, k, v, allowed, additive, used_scale, groups)
    return (q, k, v), kwargs, allowed, oracle


def test_worked_example_c6_matches_its_closed_form():
    unscaled = attention(C6_QUERY, C6_KEY, C6_VALUE, scale=1.0)
    scaled = attention(C6_QUERY, C6_KEY, C6_VALUE)
    np.testing.assert_array_equal(scaled.scores, [[4.0, 0.0]])
    assert scaled.scale == 0.5
    np.testing.assert_allclose(unscaled.weights, [[sigmoid(4), sigmoid(-4)]], rtol=1e-12, atol=0)
    np.testing.assert_allclose(unscaled.output, [[10 * sigmoid(4)]], rtol=1e-12, atol=0)
    np.testing.assert_allclose(scaled.weights, [[sigmoid(2), sigmoid(-2)]], rtol=1e-12, atol=0)
    np.testing.assert_allclose(scaled.output, [[10 * sigmoid(2)]], rtol=1e-12, atol=0)


@given(case=attention_cases())
@FEW_EXAMPLES
def test_weights_and_output_match_the_loop_oracle(case):
    inputs, kwargs, _, (weights, output) = case
    trace = attention(*inputs, **kwargs)
    np.testing.assert_allclose(trace.weights, weights, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(trace.output, output, rtol=1e-12, atol=1e-12)


@given(case=attention_cases())
@FEW_EXAMPLES
def test_rows_sum_to_one_and_forbidden_keys_get_exactly_zero(case):
    inputs, kwargs, allowed, _ = case
    weights = attention(*inputs, **kwargs).weights
    has_key = allowed.any(axis=-1)
    np.testing.assert_allclose(weights.sum(axis=-1)[has_key], 1.0, rtol=1e-12)
    assert (weights[~allowed] == 0.0).all()
    assert (weights[~has_key] == 0.0).all()


@given(case=attention_cases())
@FEW_EXAMPLES
def test_the_fast_path_equals_the_reference_bit_for_bit(case):
    inputs, kwargs, _, _ = case
    mask, causal, scale, gqa = kwargs["attn_mask"], kwargs["is_causal"], kwargs["scale"], kwargs["enable_gqa"]
    for empty_rows in ("zero", "nan"):
        call = prepare_call(*inputs, mask, 0.0, causal, scale, gqa, empty_rows, None)
        np.testing.assert_array_equal(attention_weights_fast(call), attention_weights(call)[-1])
        np.testing.assert_array_equal(
            scaled_dot_product_attention(*inputs, **kwargs, empty_rows=empty_rows),
            attention(*inputs, **kwargs, empty_rows=empty_rows).output,
        )


# Scores with signed zeros, infinities and NaN: what the fast path's skipped steps (x · 1 with
# scale=1, + 0 without a float mask) and its empty rows read from the softmax's maximum could
# treat differently from the reference, if they were not exact.
edgy = st.sampled_from([0.0, -0.0, 1.0, -1.0, 2.5, 1e30, -1e30, np.inf, -np.inf, np.nan])


@given(
    dtype=st.sampled_from([np.float32, np.float64]),
    q=arrays(np.float64, (2, 3, 2), elements=edgy),
    k=arrays(np.float64, (2, 4, 2), elements=edgy),
    scale=st.sampled_from([None, 1.0, -1.0, 0.0, 0.5]),
    mask=st.sampled_from(["none", "zero float", "bool"]),
    fault=st.sampled_from([None, Fault.softmax_over_queries, Fault.missing_scale]),
    empty_rows=st.sampled_from(["zero", "nan"]),
)
@FEW_EXAMPLES
def test_the_fast_path_skips_only_steps_that_change_no_weight(dtype, q, k, scale, mask, fault, empty_rows):
    v = np.arange(8, dtype=dtype).reshape(2, 4, 1)
    attn_mask = {"none": None, "zero float": np.zeros((3, 4), dtype), "bool": np.array([True, False, True, False])}[mask]
    with np.errstate(all="ignore"):
        call = prepare_call(q.astype(dtype), k.astype(dtype), v, attn_mask, 0.0, False, scale, False, empty_rows, fault)
        np.testing.assert_array_equal(attention_weights_fast(call), attention_weights(call)[-1])


@given(
    q=arrays(np.float64, (2, 3, 2), elements=entries),
    k=arrays(np.float64, (2, 4, 2), elements=entries),
    v=arrays(np.float64, (2, 4, 3), elements=entries),
    shift=arrays(np.float64, (3, 1), elements=st.floats(-50, 50)),
)
@FEW_EXAMPLES
def test_adding_a_constant_to_a_row_of_scores_changes_nothing_c2(q, k, v, shift):
    shifted = scaled_dot_product_attention(q, k, v, attn_mask=shift)  # shift (L, 1): one constant per row
    np.testing.assert_allclose(shifted, scaled_dot_product_attention(q, k, v), rtol=1e-10, atol=1e-12)


@given(data=st.data())
@FEW_EXAMPLES
def test_causal_masking_leaks_nothing_from_later_positions(data):
    L = data.draw(st.integers(2, 5))
    t = data.draw(st.integers(0, L - 2))
    original = [data.draw(arrays(np.float64, (2, L, 3), elements=entries)) for _ in range(3)]
    later = [data.draw(arrays(np.float64, (2, L - t - 1, 3), elements=entries)) for _ in range(3)]
    changed = [np.concatenate([x[:, : t + 1], new], axis=1) for x, new in zip(original, later)]
    before = scaled_dot_product_attention(*original, is_causal=True)[:, : t + 1]
    np.testing.assert_array_equal(scaled_dot_product_attention(*changed, is_causal=True)[:, : t + 1], before)
    np.testing.assert_array_equal(attention(*changed, is_causal=True).output[:, : t + 1], before)


@pytest.mark.parametrize(("L", "S"), [(3, 3), (2, 4), (4, 2)])
def test_causal_is_the_lower_triangle_aligned_top_left(L, S):
    expected = np.array([[j <= i for j in range(S)] for i in range(L)])
    np.testing.assert_array_equal(causal_mask(L, S), expected)
    weights = attention(np.ones((L, 2)), np.ones((S, 2)), np.ones((S, 1)), is_causal=True).weights
    np.testing.assert_array_equal(weights > 0, expected)
    np.testing.assert_array_equal(causal_mask(L), causal_mask(L, L))


def test_a_bool_mask_is_true_where_a_query_may_attend():
    trace = attention(C6_QUERY, C6_KEY, C6_VALUE, attn_mask=[[True, False]])
    np.testing.assert_array_equal(trace.weights, [[1.0, 0.0]])
    np.testing.assert_array_equal(trace.output, [[10.0]])
    assert trace.masked[0, 1] == -np.inf


def test_a_float_mask_is_added_to_the_scaled_scores():
    trace = attention(C6_QUERY, C6_KEY, C6_VALUE, attn_mask=[[0.0, 2.0]])  # scaled [2, 0] + [0, 2]
    np.testing.assert_array_equal(trace.masked, [[2.0, 2.0]])
    np.testing.assert_allclose(trace.output, [[5.0]], rtol=1e-15)


@pytest.mark.parametrize("scale", [0.0, -0.5, 1.0, 0.25])
def test_any_given_scale_is_honoured(scale):
    trace = attention(C6_QUERY, C6_KEY, C6_VALUE, scale=scale)
    gap = 4.0 * scale  # the scaled difference between the two scores
    assert trace.scale == scale
    np.testing.assert_allclose(trace.weights, [[sigmoid(gap), sigmoid(-gap)]], rtol=1e-12)


def test_scale_zero_gives_uniform_weights_over_allowed_keys():
    rng = np.random.default_rng(1)
    q, k, v = rng.standard_normal((3, 4)), rng.standard_normal((5, 4)), rng.standard_normal((5, 2))
    output = scaled_dot_product_attention(q, k, v, scale=0.0, is_causal=True)
    expected = np.array([v[: i + 1].mean(axis=0) for i in range(3)])
    np.testing.assert_allclose(output, expected, rtol=1e-12)


def test_float32_stays_float32_and_agrees_with_float64():
    rng = np.random.default_rng(2)
    q, k, v = rng.standard_normal((2, 5, 8)), rng.standard_normal((2, 6, 8)), rng.standard_normal((2, 6, 3))
    single = scaled_dot_product_attention(*(x.astype(np.float32) for x in (q, k, v)), is_causal=True)
    double = scaled_dot_product_attention(q, k, v, is_causal=True)
    assert single.dtype == np.float32 and double.dtype == np.float64
    np.testing.assert_allclose(single, double, rtol=1e-5, atol=1e-6)
    assert scaled_dot_product_attention(q.astype(np.float32), k, v).dtype == np.float64
    assert attention([[1, 0]], [[1, 0]], [[1]]).output.dtype == np.float64


def test_batch_axes_and_a_broadcast_padding_mask():
    rng = np.random.default_rng(3)
    q, k, v = (rng.standard_normal((2, 3, n, width)) for n, width in ((4, 5), (6, 5), (6, 2)))
    padding = np.array([True] * 4 + [False] * 2)  # (S,): the last two keys are padding
    output = scaled_dot_product_attention(q, k, v, attn_mask=padding)
    without_padding = scaled_dot_product_attention(q, k[..., :4, :], v[..., :4, :])
    np.testing.assert_allclose(output, without_padding, rtol=1e-12)


def fully_masked_second_row(policy: str):
    mask = np.array([[True, True], [False, False], [True, False]])
    return attention(np.ones((3, 2)), np.ones((2, 2)), [[1.0], [2.0]], attn_mask=mask, empty_rows=policy)


def test_a_row_without_an_allowed_key_gives_zeros_by_default():
    trace = fully_masked_second_row("zero")
    assert (trace.weights[1] == 0.0).all() and (trace.output[1] == 0.0).all()
    np.testing.assert_allclose(trace.output[[0, 2]], [[1.5], [1.0]], rtol=1e-15)


def test_a_row_without_an_allowed_key_gives_nan_when_asked():
    trace = fully_masked_second_row("nan")
    assert np.isnan(trace.weights[1]).all() and np.isnan(trace.output[1]).all()
    assert np.isfinite(trace.output[[0, 2]]).all()


def test_a_row_without_an_allowed_key_is_an_error_naming_it_when_asked():
    with pytest.raises(ValueError, match="query row 1 has no allowed key"):
        fully_masked_second_row("raise")
    float_mask = np.zeros((2, 3, 2))
    float_mask[1, 2] = -np.inf
    q, k, v = np.ones((2, 3, 2)), np.ones((2, 2, 2)), np.ones((2, 2, 1))
    with pytest.raises(ValueError, match=r"query row 2 at batch index \(1,\) has no allowed key"):
        attention(q, k, v, attn_mask=float_mask, empty_rows="raise")


def test_the_trace_holds_every_intermediate():
    rng = np.random.default_rng(4)
    q, k, v = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 5, 4)), rng.standard_normal((2, 5, 2))
    mask = rng.standard_normal((3, 5))
    mask[0, 1] = -np.inf
    trace = attention(q, k, v, attn_mask=mask, scale=0.7)
    np.testing.assert_allclose(trace.scores, np.einsum("hle,hse->hls", q, k), rtol=1e-12)
    assert trace.scale == 0.7 and trace.causal is False
    np.testing.assert_array_equal(trace.scaled, trace.scores * 0.7)
    np.testing.assert_array_equal(trace.masked, trace.scaled + mask)
    assert trace.allowed.shape == (2, 3, 5) and trace.allowed.dtype == bool
    np.testing.assert_array_equal(trace.allowed, np.broadcast_to(mask > -np.inf, (2, 3, 5)))
    assert attention(q, k, v, is_causal=True).causal is True


def test_the_trace_is_frozen_and_its_arrays_read_only():
    trace = attention(C6_QUERY, C6_KEY, C6_VALUE)
    with pytest.raises(dataclasses.FrozenInstanceError):
        trace.weights = None
    with pytest.raises(ValueError, match="read-only"):
        trace.weights[0, 0] = 1.0


GQA = {"enable_gqa": True}
BAD_MASK = {"attn_mask": np.ones((3, 4), bool)}


@pytest.mark.parametrize(
    ("shapes", "kwargs", "message"),
    [
        ([(2, 3, 4), (2, 5, 3), (2, 5, 2)], {}, r"query \(2, 3, 4\) and key \(2, 5, 3\) must share the feature"),
        ([(2, 3, 4), (2, 5, 4), (2, 6, 2)], {}, r"key \(2, 5, 4\) and value \(2, 6, 2\) must share the number of"),
        ([(2, 3, 4), (3, 5, 4), (3, 5, 2)], {}, r"query \(2, 3, 4\), key \(3, 5, 4\) and value \(3, 5, 2\) must"),
        ([(2, 3, 4), (5, 4), (5, 2)], GQA, r"query \(2, 3, 4\), key \(5, 4\) and value \(5, 2\) must share"),
        ([(2, 5, 4), (2, 5, 4), (1, 5, 2)], {}, r"key \(2, 5, 4\) and value \(1, 5, 2\) must share their batch"),
        ([(6, 3, 4), (4, 5, 4), (4, 5, 2)], GQA, r"query \(6, 3, 4\) has 6, key \(4, 5, 4\) has 4"),
        ([(4,), (5, 4), (5, 2)], {}, r"query \(4,\), key \(5, 4\) and value \(5, 2\) need at least two axes"),
        ([(2, 3, 4), (2, 5, 4), (2, 5, 2)], BAD_MASK, r"attn_mask \(3, 4\) does not broadcast to .* \(2, 3, 5\)"),
    ],
)
def test_mismatched_shapes_are_errors_naming_them(shapes, kwargs, message):
    with pytest.raises(ValueError, match=message):
        scaled_dot_product_attention(*(np.ones(shape) for shape in shapes), **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"dropout_p": 0.1}, "dropout_p must be 0"),
        ({"is_causal": True, "attn_mask": [[True, True]]}, "is_causal and attn_mask cannot be combined"),
        ({"empty_rows": "skip"}, "empty_rows must be one of zero, nan, raise"),
        ({"attn_mask": [[1, 0]]}, "attn_mask must be bool"),
    ],
)
def test_refused_arguments_are_errors_saying_why(kwargs, message):
    with pytest.raises(ValueError, match=message):
        scaled_dot_product_attention(C6_QUERY, C6_KEY, C6_VALUE, **kwargs)
