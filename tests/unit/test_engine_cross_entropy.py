"""Cross-entropy from logits and its gradient p − onehot(y), against finite differences and the plain formula (Y17)."""

import numpy as np
import pytest

from engine import cross_entropy, cross_entropy_grad, softmax

RNG = np.random.default_rng(0)
EPS = 1e-6


def test_equals_minus_log_softmax_of_the_target_on_moderate_logits():
    logits, targets = RNG.standard_normal((4, 5)) * 3, np.array([0, 4, 2, 2])
    expected = -np.log(softmax(logits)[np.arange(4), targets])
    np.testing.assert_allclose(cross_entropy(logits, targets, "none"), expected, rtol=1e-13)
    np.testing.assert_allclose(cross_entropy(logits, targets), expected.mean(), rtol=1e-13)
    np.testing.assert_allclose(cross_entropy(logits, targets, "sum"), expected.sum(), rtol=1e-13)


def test_uniform_logits_cost_log_of_the_class_count():
    np.testing.assert_allclose(cross_entropy(np.zeros((2, 10)), [3, 7]), np.log(10), rtol=1e-15)


def test_logits_of_plus_minus_ten_thousand_stay_finite_and_exact():
    logits = np.array([[1e4, -1e4, 0.0], [-1e4, 1e4, 1e4 - 2.0]])
    losses = cross_entropy(logits, [1, 0], "none")
    # Row 0: LSE = 1e4 (the others add < e^-1e4), so the loss is 1e4 − (−1e4) = 2e4.
    # Row 1: LSE = 1e4 + log(1 + e^-2 + e^-2e4); the target is −1e4.
    np.testing.assert_allclose(losses, [2e4, 2e4 + np.log1p(np.exp(-2.0))], rtol=1e-15)
    assert np.all(np.isfinite(cross_entropy_grad(logits, [1, 0])))


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_gradient_matches_central_finite_differences(reduction):
    logits, targets = RNG.standard_normal((2, 3, 4)), RNG.integers(0, 4, size=(2, 3))
    weights = RNG.standard_normal((2, 3)) if reduction == "none" else 1.0  # a scalar loss to differentiate

    def loss(z):
        return float(np.sum(cross_entropy(z, targets, reduction) * weights))

    numerical = np.zeros_like(logits)
    for index in np.ndindex(logits.shape):
        step = np.zeros_like(logits)
        step[index] = EPS
        numerical[index] = (loss(logits + step) - loss(logits - step)) / (2 * EPS)
    analytic = cross_entropy_grad(logits, targets, reduction) * (weights[..., None] if reduction == "none" else 1.0)
    np.testing.assert_allclose(analytic, numerical, rtol=1e-6, atol=1e-9)


def test_gradient_is_p_minus_onehot_and_each_row_sums_to_zero():
    logits, targets = RNG.standard_normal((3, 4)), np.array([1, 0, 3])
    grad = cross_entropy_grad(logits, targets, "sum")
    np.testing.assert_allclose(grad, softmax(logits) - np.eye(4)[targets], rtol=1e-15, atol=1e-16)
    np.testing.assert_allclose(grad.sum(axis=-1), 0.0, atol=1e-15)


@pytest.mark.parametrize(
    "logits, targets, reduction, message",
    [
        (np.zeros((2, 3)), [0, 3], "mean", "classes"),
        (np.zeros((2, 3)), [0.0, 1.0], "mean", "integer targets"),
        (np.zeros((2, 3)), [0], "mean", "integer targets"),
        (np.zeros((2, 3)), [0, 1], "max", "reduction"),
    ],
)
def test_bad_arguments_are_refused(logits, targets, reduction, message):
    with pytest.raises(ValueError, match=message):
        cross_entropy(logits, targets, reduction)
