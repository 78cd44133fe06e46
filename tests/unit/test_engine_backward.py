"""attention_backward against central finite differences in float64, with and without faults."""

import numpy as np
import pytest

from engine import Fault, attention, attention_backward

EPS = 1e-6


def numerical_gradients(query, key, value, grad_output, **kwargs):
    """Central differences of Σ output ⊙ grad_output with respect to each entry of query, key, value."""
    inputs = [np.array(x, dtype=np.float64) for x in (query, key, value)]

    def loss() -> float:
        return float(np.sum(attention(*inputs, **kwargs).output * grad_output))

    gradients = []
    for x in inputs:
        gradient = np.zeros_like(x)
        for index in np.ndindex(x.shape):
            original = x[index]
            x[index] = original + EPS
            above = loss()
            x[index] = original - EPS
            below = loss()
            x[index] = original
            gradient[index] = (above - below) / (2 * EPS)
        gradients.append(gradient)
    return gradients


def random_inputs(seed, q_shape, kv_shape, value_width=3):
    """Query, key, value and an upstream gradient drawn from a seeded normal distribution."""
    rng = np.random.default_rng(seed)
    q = rng.standard_normal(q_shape)
    k = rng.standard_normal(kv_shape)
    v = rng.standard_normal((*kv_shape[:-1], value_width))
    grad_output = rng.standard_normal((*q_shape[:-1], value_width))
    return q, k, v, grad_output


def assert_matches_finite_differences(q, k, v, grad_output, **kwargs):
    analytic = attention_backward(q, k, v, grad_output, **kwargs)
    numerical = numerical_gradients(q, k, v, grad_output, **kwargs)
    for name, a, n in zip(("dQ", "dK", "dV"), analytic, numerical):
        assert a.shape == n.shape, name
        np.testing.assert_allclose(a, n, rtol=1e-6, atol=1e-8, err_msg=name)


RNG = np.random.default_rng(0)
SOME_KEYS = np.array([[1, 0, 1, 1, 0], [0, 1, 0, 0, 0], [1, 1, 1, 1, 1]], bool)
FLOAT_MASK = np.where(RNG.random((2, 3, 5)) < 0.3, -np.inf, RNG.standard_normal((2, 3, 5)))
NO_KEY_IN_ROW_1 = np.array([[1, 1, 0, 0, 0], [0, 0, 0, 0, 0], [1, 0, 1, 0, 1]], bool)
CASES = {
    "plain": ((2, 3, 4), (2, 5, 4), {}),
    "no head axis": ((3, 4), (5, 4), {}),
    "bool mask": ((2, 3, 4), (2, 5, 4), {"attn_mask": SOME_KEYS}),
    "float mask": ((2, 3, 4), (2, 5, 4), {"attn_mask": FLOAT_MASK}),
    "causal, L < S": ((2, 3, 4), (2, 5, 4), {"is_causal": True}),
    "causal, L > S": ((2, 5, 4), (2, 3, 4), {"is_causal": True}),
    "custom scale": ((2, 3, 4), (2, 5, 4), {"scale": 0.3}),
    "negative scale": ((2, 3, 4), (2, 5, 4), {"scale": -0.7}),
    "zero scale": ((2, 3, 4), (2, 5, 4), {"scale": 0.0}),
    "GQA": ((4, 3, 2), (2, 5, 2), {"enable_gqa": True, "is_causal": True}),
    "batch and GQA": ((2, 3, 2, 2), (2, 1, 4, 2), {"enable_gqa": True, "scale": 0.8}),
    "a fully masked row": ((2, 3, 4), (2, 5, 4), {"attn_mask": NO_KEY_IN_ROW_1}),
}


@pytest.mark.parametrize("name", CASES)
def test_gradients_match_finite_differences(name):
    q_shape, kv_shape, kwargs = CASES[name]
    assert_matches_finite_differences(*random_inputs(len(name), q_shape, kv_shape), **kwargs)


@pytest.mark.parametrize("fault", [fault for fault in Fault if fault is not Fault.float16_scores])
def test_a_faulty_forward_has_the_gradients_of_that_forward(fault):
    q, k, v, grad_output = random_inputs(7, (4, 3, 2), (2, 3, 2))
    assert_matches_finite_differences(q, k, v, grad_output, is_causal=True, enable_gqa=True, fault=fault)
    assert_matches_finite_differences(q[0], k[0], v[0], grad_output[0], is_causal=True, fault=fault)


def test_float16_scores_gradients_are_computed_nan_allowed():
    q, k, v, grad_output = random_inputs(8, (2, 3, 4), (2, 5, 4))
    small = attention_backward(q, k, v, grad_output, fault="float16_scores")
    reference = attention_backward(q, k, v, grad_output)
    for faulty, correct in zip(small, reference):
        assert faulty.shape == correct.shape
        np.testing.assert_allclose(faulty, correct, rtol=0.05, atol=0.05)  # float16 rounding, no overflow
    large = attention_backward(30 * q, 30 * k, v, grad_output, fault=Fault.float16_scores)
    assert all(g.shape == c.shape for g, c in zip(large, reference))
    assert np.isnan(large[0]).any()


def test_rows_without_an_allowed_key_get_zero_gradients_or_nan():
    q, k, v, grad_output = random_inputs(9, (3, 4), (5, 4))
    mask = np.ones((3, 5), bool)
    mask[1] = False
    d_query, d_key, d_value = attention_backward(q, k, v, grad_output, attn_mask=mask)
    assert (d_query[1] == 0.0).all()
    assert np.isfinite(d_key).all() and np.isfinite(d_value).all()
    d_query, d_key, d_value = attention_backward(q, k, v, grad_output, attn_mask=mask, empty_rows="nan")
    assert np.isnan(d_query[1]).all() and np.isfinite(d_query[[0, 2]]).all()
    with pytest.raises(ValueError, match="query row 1 has no allowed key"):
        attention_backward(q, k, v, grad_output, attn_mask=mask, empty_rows="raise")


def test_float32_gradients_stay_float32_and_agree_with_float64():
    q, k, v, grad_output = random_inputs(10, (2, 6, 8), (2, 6, 8))
    single = attention_backward(*(x.astype(np.float32) for x in (q, k, v, grad_output)), is_causal=True)
    double = attention_backward(q, k, v, grad_output, is_causal=True)
    for s, d in zip(single, double):
        assert s.dtype == np.float32 and d.dtype == np.float64
        np.testing.assert_allclose(s, d, rtol=1e-4, atol=1e-5)


def test_a_grad_output_of_the_wrong_shape_is_an_error_naming_both_shapes():
    q, k, v, _ = random_inputs(11, (2, 3, 4), (2, 5, 4))
    with pytest.raises(ValueError, match=r"grad_output \(2, 3, 4\) must have the output's shape \(2, 3, 3\)"):
        attention_backward(q, k, v, np.ones((2, 3, 4)))
