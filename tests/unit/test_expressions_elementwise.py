"""Issue 32: the elementwise functions an author of this field needs (sin, cos, tanh, sigmoid, erf,
floor, ceil) and `&`, `|`, `~` on masks, each checked against an identity or a closed form."""

from __future__ import annotations

import math

import numpy as np
import pytest

from quiz.expressions import ExpressionError, compile_expression

X = np.linspace(-6.0, 6.0, 241)


def evaluate(source: str, **values):
    return compile_expression(source, list(values)).evaluate(values)


def test_sine_and_cosine_satisfy_the_pythagorean_identity_and_the_angle_sum():
    assert np.allclose(evaluate("sin(x) ** 2 + cos(x) ** 2", x=X), 1.0, rtol=0, atol=1e-15)
    a, b = X[:, None], X[None, ::7]
    assert np.allclose(evaluate("sin(a + b)", a=a, b=b), evaluate("sin(a) * cos(b) + cos(a) * sin(b)", a=a, b=b), atol=1e-13)
    assert evaluate("cos(pi)") == pytest.approx(-1.0, abs=1e-15)


def test_a_rope_rotation_written_with_sin_and_cos_keeps_the_norm_and_the_relative_angle():
    # Y9: rotating q at position m and k at n makes q·k depend on m − n only.
    rotate = "stack([x[0] * cos(t) - x[1] * sin(t), x[0] * sin(t) + x[1] * cos(t)])"
    q, k = np.array([0.3, -1.2]), np.array([0.8, 0.5])
    dots = [float(evaluate(rotate, x=q, t=0.1 * m) @ evaluate(rotate, x=k, t=0.1 * (m - 3))) for m in range(5)]
    assert np.allclose(dots, dots[0], atol=1e-14)
    assert float(np.linalg.norm(evaluate(rotate, x=q, t=2.0))) == pytest.approx(float(np.linalg.norm(q)), rel=1e-15)


def test_tanh_and_sigmoid_are_their_closed_forms_and_sigmoid_does_not_overflow():
    assert np.allclose(evaluate("tanh(x)", x=X), (np.exp(2 * X) - 1) / (np.exp(2 * X) + 1), rtol=1e-12, atol=1e-15)
    assert np.allclose(evaluate("sigmoid(x)", x=X), 1 / (1 + np.exp(-X)), rtol=1e-12, atol=1e-15)
    assert np.allclose(evaluate("sigmoid(x) + sigmoid(-x)", x=X), 1.0, atol=1e-15)
    with np.errstate(all="raise"):  # no overflow warning turned into an error on the way
        far = evaluate("sigmoid(array([-1000.0, 1000.0]))")
    assert far.tolist() == [0.0, 1.0]


def test_erf_matches_known_values_its_series_and_its_symmetry_and_keeps_nan():
    assert float(evaluate("erf(1.0)")) == pytest.approx(0.8427007929497149, rel=1e-15)
    small = np.linspace(-0.5, 0.5, 11)
    series = sum((-1) ** n * small ** (2 * n + 1) / (math.factorial(n) * (2 * n + 1)) for n in range(20)) * 2 / math.sqrt(math.pi)
    assert np.allclose(evaluate("erf(x)", x=small), series, rtol=1e-14, atol=1e-16)
    assert np.allclose(evaluate("erf(-x) + erf(x)", x=X), 0.0, atol=1e-15)
    assert np.isnan(evaluate("erf(array([nan]))")).all()
    assert evaluate("erf(x)", x=np.zeros((2, 3))).shape == (2, 3)


def test_floor_and_ceil_round_towards_minus_and_plus_infinity():
    values = np.array([-1.5, -1.0, -0.2, 0.0, 0.2, 1.0, 1.5])
    assert evaluate("floor(x)", x=values).tolist() == [-2.0, -1.0, -1.0, 0.0, 0.0, 1.0, 1.0]
    assert evaluate("ceil(x)", x=values).tolist() == [-1.0, -1.0, -0.0, 0.0, 1.0, 1.0, 2.0]


@pytest.mark.parametrize(("source", "combine"), [("a & b", np.logical_and), ("a | b", np.logical_or)])
def test_and_or_on_masks_are_elementwise_and_broadcast(source, combine):
    a = np.array([[True], [False]])
    b = np.array([True, False, True])
    result = evaluate(source, a=a, b=b)
    assert result.dtype == bool and result.tolist() == combine(a, b).tolist()


def test_a_sliding_window_mask_written_with_and_is_the_engines():
    window = evaluate("causal_mask(6) & (arange(6)[:, None] - arange(6)[None, :] < 3)")
    assert window.tolist() == evaluate("sliding_window_mask(6, 3)").tolist()


def test_precedence_is_pythons_so_an_unbracketed_comparison_is_refused_with_the_fix():
    # `a | b > 2` is `(a | b) > 2`, as in numpy: the message says to bracket the comparison.
    with pytest.raises(ExpressionError) as raised:
        evaluate("causal_mask(3) | eye(3) > 0")
    assert "compare first, as in `(i >= j) | (j > 0)`" in raised.value.message


def test_not_on_a_mask_is_elementwise_and_on_a_plain_boolean_gives_a_boolean():
    assert evaluate("~m", m=np.array([True, False])).tolist() == [False, True]
    assert evaluate("~True") is False  # Python's ~True is -2
    assert evaluate("True & False") is False and evaluate("False | True") is True


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("x & 1", "`&` combines booleans or boolean arrays (masks) elementwise, not an array of int64 and a value of type int"),
        ("1 | 2", "`|` combines booleans or boolean arrays (masks) elementwise"),
        ("~x", "`~` negates a boolean or a boolean array (a mask) elementwise, not an array of int64; use `not`"),
        ("~1.5", "`~` negates a boolean or a boolean array"),
    ],
)
def test_and_or_not_on_numbers_are_refused_with_what_works(source, message):
    with pytest.raises(ExpressionError) as raised:
        evaluate(source, x=np.arange(3))
    assert message in raised.value.message


def test_fixed_keeps_exactly_the_decimals_asked_for():
    assert evaluate("fixed(3.2, 2)") == "3.20"
    assert evaluate("fixed(x, 3)", x=np.float32(0.1)) == "0.100"
    assert evaluate("fixed(2, 0)") == "2"
    assert evaluate("fixed(array([1.25]), 1)") == "1.2"  # one element: round half to even, as Python's format


def test_grouped_writes_whole_numbers_exactly_with_separators():
    assert evaluate("grouped(n)", n=np.int64(1_610_612_736)) == "1,610,612,736"
    assert evaluate("grouped(2 ** 62)") == f"{2 ** 62:,}"  # exact, not through a float
    assert evaluate("grouped(1234567.891, 2)") == "1,234,567.89"
    assert evaluate("grouped(-999)") == "-999"


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("fixed(arange(3), 2)", "fixed() writes one number, not an array of shape (3,); index it first"),
        ("grouped(inf)", "grouped() writes finite numbers only"),
        ("fixed(1.0, 13)", "decimals must be from 0 to 12, not 13"),
        ("fixed(1.0, -1)", "decimals must be from 0 to 12, not -1"),
        ("fixed(1.0, 1.5)", "cannot evaluate"),
        ("grouped('a')", "cannot evaluate"),
    ],
)
def test_the_text_functions_refuse_what_they_cannot_write(source, message):
    with pytest.raises(ExpressionError) as raised:
        evaluate(source)
    assert message in raised.value.message
