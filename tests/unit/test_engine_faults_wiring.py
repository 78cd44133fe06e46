"""Each injected fault changes the pipeline exactly as its definition says, and nothing else."""

import inspect
import math

import numpy as np
import pytest

from engine import Fault, attention, entropy, scaled_dot_product_attention
from engine.attention import attention_weights, attention_weights_fast, prepare_call

H, L, E = 2, 4, 3
RNG = np.random.default_rng(0)
Q, K, V = RNG.standard_normal((H, L, E)), RNG.standard_normal((H, L, E)), RNG.standard_normal((H, L, 2))
LOWER = np.tril(np.ones((L, L), dtype=bool))


def normalise(logits, allowed, axis=-1):
    """The oracle's softmax over `axis`, restricted to allowed entries; zero where none is allowed."""
    top = np.max(np.where(allowed, logits, -np.inf), axis=axis, keepdims=True)
    exp = np.where(allowed, np.exp(logits - np.where(np.isfinite(top), top, 0.0)), 0.0)
    total = exp.sum(axis=axis, keepdims=True)
    return np.divide(exp, total, out=np.zeros_like(exp), where=total > 0)


def test_the_faults_are_exactly_these_and_each_value_is_its_name():
    expected = [
        "missing_scale",
        "double_scale",
        "scale_by_d_model",
        "heads_not_split",
        "no_causal_mask",
        "softmax_over_queries",
        "fully_masked_row",
        "float16_scores",
    ]
    assert [fault.name for fault in Fault] == expected
    assert all(fault.value == fault.name for fault in Fault)


def test_a_fault_may_be_named_by_a_string_and_an_unknown_name_lists_the_valid_ones():
    by_name = attention(Q, K, V, fault="missing_scale")
    np.testing.assert_array_equal(by_name.output, attention(Q, K, V, fault=Fault.missing_scale).output)
    with pytest.raises(ValueError, match=r"unknown fault 'no_scale'; valid faults: missing_scale, .*, float16"):
        attention(Q, K, V, fault="no_scale")


def test_the_pytorch_twin_takes_no_fault():
    assert "fault" not in inspect.signature(scaled_dot_product_attention).parameters


@pytest.mark.parametrize("fault", [fault for fault in Fault if fault is not Fault.float16_scores])
def test_the_fast_path_equals_the_reference_under_every_fault(fault):
    call = prepare_call(Q, K[:1], V[:1], None, 0.0, True, None, True, "zero", fault)
    np.testing.assert_array_equal(attention_weights_fast(call), attention_weights(call)[-1])


def test_missing_scale_leaves_the_scores_unscaled():
    trace = attention(Q, K, V, fault=Fault.missing_scale)
    assert trace.scale == 1.0
    np.testing.assert_allclose(trace.weights, normalise(Q @ K.swapaxes(-1, -2), True), rtol=1e-12)


def test_double_scale_divides_by_d_k_and_flattens_every_row():
    trace = attention(Q, K, V, fault=Fault.double_scale)
    assert trace.scale == 1.0 / E
    np.testing.assert_allclose(trace.weights, normalise(Q @ K.swapaxes(-1, -2) / E, True), rtol=1e-12)
    assert (entropy(trace.weights) > entropy(attention(Q, K, V).weights)).all()


def test_scale_by_d_model_divides_by_the_root_of_heads_times_d_k():
    assert attention(Q, K, V, fault=Fault.scale_by_d_model).scale == 1.0 / math.sqrt(H * E)
    assert attention(Q[0], K[0], V[0], fault=Fault.scale_by_d_model).scale == 1.0 / math.sqrt(E)  # one head


def test_heads_not_split_scores_every_head_over_d_model_but_scales_by_d_k():
    trace = attention(Q, K, V, fault=Fault.heads_not_split)
    summed = sum(Q[h] @ K[h].T for h in range(H))  # the concatenated heads' dot products
    np.testing.assert_allclose(trace.scores, np.broadcast_to(summed, (H, L, L)), rtol=1e-12)
    assert trace.scale == 1.0 / math.sqrt(E)
    np.testing.assert_allclose(trace.weights, normalise(trace.scores / math.sqrt(E), True), rtol=1e-12)


def test_heads_not_split_under_gqa_sums_over_the_repeated_key_heads():
    trace = attention(Q, K[:1], V[:1], enable_gqa=True, fault="heads_not_split")
    summed = sum(Q[h] @ K[0].T for h in range(H))
    np.testing.assert_allclose(trace.scores, np.broadcast_to(summed, (H, L, L)), rtol=1e-12)


def test_no_causal_mask_drops_the_requested_mask_but_remembers_the_request():
    trace = attention(Q, K, V, is_causal=True, fault=Fault.no_causal_mask)
    assert trace.causal is True and trace.allowed.all()
    np.testing.assert_array_equal(trace.output, attention(Q, K, V).output)
    assert (trace.weights[:, ~LOWER] > 0).all()


def test_softmax_over_queries_normalises_each_key_column():
    trace = attention(Q, K, V, is_causal=True, fault=Fault.softmax_over_queries)
    scaled = Q @ K.swapaxes(-1, -2) / math.sqrt(E)
    np.testing.assert_allclose(trace.weights, normalise(scaled, LOWER, axis=-2), rtol=1e-12)
    np.testing.assert_allclose(trace.weights.sum(axis=-2), 1.0, rtol=1e-12)
    assert (trace.weights[:, ~LOWER] == 0.0).all()


def test_fully_masked_row_leaves_the_last_query_row_of_every_head_without_a_key():
    mask = np.ones((L, L), dtype=bool)
    mask[0, 1:] = False
    trace = attention(Q, K, V, attn_mask=mask, fault=Fault.fully_masked_row)
    correct = attention(Q, K, V, attn_mask=mask)
    assert not trace.allowed[:, -1].any()
    np.testing.assert_array_equal(trace.allowed[:, :-1], correct.allowed[:, :-1])
    assert (trace.weights[:, -1] == 0.0).all() and (trace.output[:, -1] == 0.0).all()
    np.testing.assert_array_equal(trace.output[:, :-1], correct.output[:, :-1])
    with pytest.raises(ValueError, match=f"query row {L - 1} at batch index \\(0,\\) has no allowed key"):
        attention(Q, K, V, fault=Fault.fully_masked_row, empty_rows="raise")


def test_float16_scores_are_close_for_small_inputs_and_nan_once_exp_overflows():
    small = attention(Q, K, V, fault=Fault.float16_scores)
    assert small.scores.dtype == small.scaled.dtype == small.masked.dtype == np.float16
    np.testing.assert_allclose(small.weights, attention(Q, K, V).weights, rtol=0.01, atol=0.01)
    large = attention(10 * Q, 10 * K, V, fault=Fault.float16_scores)
    assert np.isnan(large.weights).any() and np.isnan(large.output).any()
    assert np.isfinite(attention(10 * Q, 10 * K, V).output).all()


def test_float16_scores_turn_a_large_negative_float_mask_into_minus_infinity_x4():
    mask = np.zeros((L, L))
    mask[:, -1] = -1e9
    trace = attention(Q, K, V, attn_mask=mask, fault=Fault.float16_scores)
    assert trace.allowed.all()
    assert (trace.masked[..., -1] == -np.inf).all()
    assert np.isfinite(attention(Q, K, V, attn_mask=mask).masked).all()
