"""softmax and what derives from it, checked against closed forms, identities and finite differences."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from engine import entropy, log_softmax, naive_softmax, softmax, softmax_jacobian, softmax_vjp

FEW_EXAMPLES = settings(deadline=None, max_examples=40)
scores = arrays(
    np.float64,
    st.tuples(st.integers(1, 3), st.integers(1, 6)),
    elements=st.floats(-30, 30, allow_nan=False),
)


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def numerical_jacobian(f, z: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """Central differences of the vector function f at z: entry [i, j] ≈ ∂f_i/∂z_j."""
    columns = []
    for j in range(z.size):
        step = np.zeros_like(z)
        step[j] = eps
        columns.append((f(z + step) - f(z - step)) / (2 * eps))
    return np.stack(columns, axis=-1)


@given(a=st.floats(-30, 30), b=st.floats(-30, 30))
@FEW_EXAMPLES
def test_two_scores_give_the_logistic_function(a, b):
    p = softmax([a, b])
    np.testing.assert_allclose(p, [sigmoid(a - b), sigmoid(b - a)], rtol=1e-12, atol=1e-300)


def test_the_notes_worked_example_c6():
    np.testing.assert_allclose(softmax([4, 0]), [sigmoid(4), sigmoid(-4)], rtol=1e-12)
    scaled = np.array([4, 0]) / math.sqrt(4)
    np.testing.assert_allclose(softmax(scaled), [sigmoid(2), sigmoid(-2)], rtol=1e-12)


@given(z=scores, axis=st.sampled_from([0, 1, -1]))
@FEW_EXAMPLES
def test_weights_are_non_negative_and_sum_to_one_along_the_axis(z, axis):
    p = softmax(z, axis=axis)
    assert (p >= 0).all()
    np.testing.assert_allclose(p.sum(axis=axis), 1.0, rtol=1e-12)


@given(z=scores, shift=arrays(np.float64, 3, elements=st.floats(-50, 50)))
@FEW_EXAMPLES
def test_a_common_shift_changes_nothing_c2(z, shift):
    shifted = z + shift[: z.shape[0], None]
    np.testing.assert_allclose(softmax(shifted), softmax(z), rtol=1e-9, atol=1e-13)


def test_minus_infinity_gets_exactly_zero_and_an_all_minus_infinity_row_gives_zeros():
    p = softmax([[1.0, -np.inf, 2.0], [-np.inf, -np.inf, -np.inf]])
    assert p[0, 1] == 0.0
    np.testing.assert_allclose(p[0, [0, 2]], [sigmoid(-1), sigmoid(1)], rtol=1e-12)
    assert (p[1] == 0.0).all()


def test_large_scores_do_not_overflow_but_the_unshifted_softmax_does():
    np.testing.assert_allclose(softmax([1000.0, 999.0]), [sigmoid(1), sigmoid(-1)], rtol=1e-12)
    assert np.isnan(naive_softmax([1000.0, 999.0])).all()


def test_the_unshifted_softmax_agrees_for_small_scores_and_fails_above_ln_65504_in_float16():
    z = np.array([[0.5, -1.0, 2.0]])
    np.testing.assert_allclose(naive_softmax(z), softmax(z), rtol=1e-12)
    # ln 65504 ≈ 11.09: exp(11) still fits in float16, exp(12) overflows and inf / inf is NaN
    assert np.isfinite(naive_softmax(np.float16([11.0, 0.0]))).all()
    assert np.isnan(naive_softmax(np.float16([12.0, 0.0]))[0])
    assert np.isfinite(softmax(np.float16([12.0, 0.0]))).all()


def test_precision_follows_the_input():
    assert softmax(np.float32([1, 2])).dtype == np.float32
    assert softmax([1, 2]).dtype == np.float64


def test_softmax_writes_into_out_when_given():
    z = np.array([[3.0, 1.0, -np.inf]])
    expected = softmax(z)
    result = softmax(z, out=z)
    assert result is z
    np.testing.assert_array_equal(z, expected)


@given(z=scores)
@FEW_EXAMPLES
def test_log_softmax_is_the_log_of_softmax(z):
    np.testing.assert_allclose(np.exp(log_softmax(z)), softmax(z), rtol=1e-12, atol=1e-300)


def test_log_softmax_does_not_underflow_and_keeps_minus_infinity():
    # log σ(−1000) = −1000 − log(1 + e^−1000) ≈ −1000, where softmax alone underflows to 0
    np.testing.assert_allclose(log_softmax([0.0, -1000.0]), [0.0, -1000.0], rtol=1e-12, atol=1e-300)
    assert (log_softmax([[-np.inf, -np.inf], [0.0, -np.inf]]) == [[-np.inf, -np.inf], [0.0, -np.inf]]).all()


@given(z=arrays(np.float64, st.integers(1, 5), elements=st.floats(-5, 5)))
@FEW_EXAMPLES
def test_jacobian_matches_finite_differences_c4(z):
    np.testing.assert_allclose(softmax_jacobian(z), numerical_jacobian(softmax, z), rtol=1e-6, atol=1e-9)


@given(z=scores)
@FEW_EXAMPLES
def test_jacobian_is_symmetric_and_its_rows_sum_to_zero(z):
    jacobian = softmax_jacobian(z)
    assert jacobian.shape == (*z.shape, z.shape[-1])
    np.testing.assert_array_equal(jacobian, jacobian.swapaxes(-1, -2))
    np.testing.assert_allclose(jacobian.sum(axis=-1), 0.0, atol=1e-15)


def test_jacobian_at_the_worked_example_x3():
    # ∂p₁/∂z₁ = p₁(1 − p₁): ≈ 0.0177 at [4, 0] and ≈ 0.105 at [2, 0]
    for gap in (4.0, 2.0):
        s = sigmoid(gap)
        expected = s * (1 - s) * np.array([[1, -1], [-1, 1]])
        np.testing.assert_allclose(softmax_jacobian([gap, 0.0]), expected, rtol=1e-12)
    assert round(softmax_jacobian([4.0, 0.0])[0, 0], 4) == 0.0177
    assert round(softmax_jacobian([2.0, 0.0])[0, 0], 3) == 0.105


def test_jacobian_of_an_all_minus_infinity_row_is_zero():
    assert (softmax_jacobian([-np.inf, -np.inf]) == 0.0).all()


@given(z=arrays(np.float64, (3, 4), elements=st.floats(-5, 5)), axis=st.sampled_from([0, -1]))
@FEW_EXAMPLES
def test_vjp_is_the_gradient_of_the_weighted_sum(z, axis):
    grad = np.linspace(-1.0, 2.0, z.size).reshape(z.shape)

    def weighted_sum(flat: np.ndarray) -> np.ndarray:
        return np.array([np.sum(grad * softmax(flat.reshape(z.shape), axis=axis))])

    numerical = numerical_jacobian(weighted_sum, z.ravel())[0].reshape(z.shape)
    analytic = softmax_vjp(softmax(z, axis=axis), grad, axis=axis)
    np.testing.assert_allclose(analytic, numerical, rtol=1e-6, atol=1e-9)


def test_entropy_closed_forms():
    assert entropy([0.25] * 4) == pytest.approx(math.log(4), rel=1e-12)
    assert entropy([1.0, 0.0, 0.0]) == 0.0
    p = 0.3
    assert entropy([p, 1 - p]) == pytest.approx(-p * math.log(p) - (1 - p) * math.log(1 - p), rel=1e-12)
    np.testing.assert_allclose(entropy([[0.5, 0.5], [1.0, 0.0]]), [math.log(2), 0.0], rtol=1e-12)


def test_normalized_entropy_counts_allowed_keys_from_the_mask_not_from_p():
    p = softmax([0.0, -1000.0, 0.0])  # the middle key was allowed, but its weight underflows to 0
    assert p[1] == 0.0
    assert entropy(p, mask=[True, True, True], normalized=True) == pytest.approx(math.log(2) / math.log(3))
    assert entropy(p, normalized=True) == pytest.approx(math.log(2) / math.log(3))
    assert entropy([0.5, 0.5, 0.0], mask=[True, True, False], normalized=True) == pytest.approx(1.0)


def test_the_mask_limits_the_sum_to_allowed_keys():
    assert entropy([0.5, 0.5], mask=[True, False]) == pytest.approx(-0.5 * math.log(0.5))


def test_normalized_entropy_of_rows_with_at_most_one_allowed_key_is_zero():
    p = [[1.0, 0.0], [0.0, 0.0], [0.5, 0.5]]
    h = entropy(p, mask=[[True, False], [False, False], [True, True]], normalized=True)
    np.testing.assert_allclose(h, [0.0, 0.0, 1.0], rtol=1e-12)
    assert entropy([1.0], normalized=True) == 0.0


@given(z=scores, keep=arrays(bool, (3, 6)))
@FEW_EXAMPLES
def test_normalized_entropy_lies_between_zero_and_one(z, keep):
    mask = keep[: z.shape[0], : z.shape[1]]
    p = softmax(np.where(mask, z, -np.inf))
    h = entropy(p, mask=mask, normalized=True)
    assert ((h >= 0.0) & (h <= 1.0 + 1e-12)).all()


def test_a_mask_that_does_not_fit_is_an_error_naming_both_shapes():
    with pytest.raises(ValueError, match=r"mask \(3,\) does not broadcast to p \(2,\)"):
        entropy([0.5, 0.5], mask=[True, True, True])
