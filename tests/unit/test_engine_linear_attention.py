"""Linear attention: the quadratic form and the d×d state give the same result, causal or not (Y16)."""

import numpy as np
import pytest

from engine import elu_plus_one, linear_attention, linear_attention_state

RNG = np.random.default_rng(0)


def test_phi_is_elu_plus_one_and_positive():
    x = np.array([-30.0, -1.0, 0.0, 0.5, 3.0])
    np.testing.assert_allclose(elu_plus_one(x), [np.exp(-30.0), np.exp(-1.0), 1.0, 1.5, 4.0], rtol=1e-15)
    assert np.all(elu_plus_one(RNG.standard_normal(100) * 5) > 0)


@pytest.mark.parametrize("causal", [True, False])
def test_the_running_state_equals_the_quadratic_form(causal):
    q, k, v = RNG.standard_normal((2, 3, 7, 4)), RNG.standard_normal((2, 3, 7, 4)), RNG.standard_normal((2, 3, 7, 5))
    np.testing.assert_allclose(linear_attention_state(q, k, v, causal), linear_attention(q, k, v, causal), rtol=1e-12)


def test_the_quadratic_form_is_the_normalised_feature_kernel():
    q, k, v = RNG.standard_normal((3, 2)), RNG.standard_normal((4, 2)), RNG.standard_normal((4, 2))
    kernel = np.array([[elu_plus_one(qi) @ elu_plus_one(kj) for kj in k] for qi in q])  # (L, S)
    np.testing.assert_allclose(linear_attention(q, k, v), kernel @ v / kernel.sum(axis=1, keepdims=True), rtol=1e-13)


def test_causal_outputs_ignore_later_tokens():
    q, k, v = RNG.standard_normal((6, 3)), RNG.standard_normal((6, 3)), RNG.standard_normal((6, 2))
    changed_k, changed_v = k.copy(), v.copy()
    changed_k[4:], changed_v[4:] = 9.0, -9.0
    for form in (linear_attention, linear_attention_state):
        before, after = form(q, k, v, causal=True), form(q, changed_k, changed_v, causal=True)
        np.testing.assert_array_equal(before[:4], after[:4])
        assert not np.allclose(before[4:], after[4:])


def test_the_first_causal_output_is_the_first_value():
    q, k, v = RNG.standard_normal((3, 2)), RNG.standard_normal((3, 2)), RNG.standard_normal((3, 2))
    np.testing.assert_allclose(linear_attention_state(q, k, v)[0], v[0], rtol=1e-14)


def test_the_causal_state_needs_one_sequence():
    with pytest.raises(ValueError, match="L = S"):
        linear_attention_state(np.ones((2, 2)), np.ones((3, 2)), np.ones((3, 2)))
