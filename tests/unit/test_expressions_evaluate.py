"""Evaluation: allowed constructs agree with plain Python and numpy; failures are ExpressionErrors."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quiz.expressions import ExpressionError, compile_expression

RNG = np.random.default_rng(7)
Q = RNG.normal(size=(2, 4))
K = RNG.normal(size=(3, 4))
V = RNG.normal(size=(3, 2))
X = np.arange(6.0).reshape(2, 3)
NAMESPACE = {"Q": Q, "K": K, "V": V, "x": X, "d_k": 4, "s": Q @ K.T, "words": ["a", "b"]}


def evaluate(source: str, namespace=NAMESPACE):
    return compile_expression(source, namespace).evaluate(namespace)


def failure(source: str, namespace=NAMESPACE) -> ExpressionError:
    expression = compile_expression(source, namespace)
    with pytest.raises(ExpressionError) as caught:
        expression.evaluate(namespace)
    return caught.value


def softmax_rows(z: np.ndarray) -> np.ndarray:
    """Closed form exp(z_i) / Σ_j exp(z_j) along the last axis, written independently of the engine."""
    exp = np.exp(z - z.max(axis=-1, keepdims=True))
    return exp / exp.sum(axis=-1, keepdims=True)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("1 + 2 * 3 - 4 / 8", 1 + 2 * 3 - 4 / 8),
        ("7 // 2 + 7 % 3 + 2 ** 10", 7 // 2 + 7 % 3 + 2**10),
        ("2 ** -1", 0.5),
        ("-x + +x", -X + X),
        ("x * 2 - 1", X * 2 - 1),
        ("Q @ K.T", Q @ K.T),
        ("s / sqrt(d_k)", (Q @ K.T) / 2),
        ("x ** 2", X**2),
        ("x[1]", X[1]),
        ("x[-1, 1:]", X[-1, 1:]),
        ("x[::-1, None, ...]", X[::-1, None, ...]),
        ("x[:, [0, 2]]", X[:, [0, 2]]),
        ("x[[0, 1], [2, 0]]", X[[0, 1], [2, 0]]),
        ("x[x > 2]", X[X > 2]),
        ("x.T", X.T),
        ("x.shape", (2, 3)),
        ("x.ndim + x.size", 8),
        ("x > 2", X > 2),
        ("x == x", np.ones((2, 3), dtype=bool)),
        ("[1, 2] + [3]", [1, 2, 3]),
        ("(1,) * 3", (1, 1, 1)),
        ("'ab' * 2", "abab"),
        ("words[1]", "b"),
        ("1 < 2 < 3", True),
        ("3 > 2 > 2", False),
        ("0 or 5", 5),
        ("2 and 0", 0),
        ("not 0", True),
        ("'yes' if d_k > 2 else 'no'", "yes"),
        ("...", Ellipsis),
        ("None", None),
        ("pi", math.pi),
    ],
)
def test_allowed_constructs_agree_with_python_and_numpy(source, expected):
    result = evaluate(source)
    if isinstance(expected, np.ndarray):
        np.testing.assert_array_equal(result, expected)
    else:
        assert result == expected


def test_softmax_answers_and_misconceptions_match_the_closed_form():
    s = Q @ K.T
    np.testing.assert_allclose(evaluate("softmax(s / sqrt(d_k))[0]"), softmax_rows(s / 2)[0])
    np.testing.assert_allclose(evaluate("softmax(s)[0]"), softmax_rows(s)[0])
    np.testing.assert_allclose(evaluate("softmax(s / d_k)[0]"), softmax_rows(s / 4)[0])
    np.testing.assert_allclose(evaluate("softmax(s, axis=-2)[0]"), softmax_rows(s.T).T[0])


def test_attention_trace_fields_match_the_formula():
    expected = softmax_rows(Q @ K.T / 2)
    np.testing.assert_allclose(evaluate("attention(Q, K, V).weights"), expected)
    np.testing.assert_allclose(evaluate("attention(Q, K, V).output"), expected @ V)
    assert evaluate("attention(Q, K, V, is_causal=True).causal") is True


def test_worked_example_of_the_notes():
    # C6: scores [4, 0] with d_k = 4 become [2, 0]; values [10, 0] give 10·e²/(e² + 1) ≈ 8.81.
    namespace = {"q": [[2.0, 0, 0, 0]], "k": [[2.0, 0, 0, 0], [0, 0, 0, 0]], "v": [[10.0], [0.0]]}
    output = evaluate("attention(q, k, v).output[0, 0]", namespace)
    assert output == pytest.approx(10 * math.e**2 / (math.e**2 + 1))
    unscaled = evaluate("softmax([4, 0])", namespace)
    np.testing.assert_allclose(unscaled, [math.e**4 / (math.e**4 + 1), 1 / (math.e**4 + 1)])


def test_short_circuits_never_evaluate_the_other_branch():
    assert evaluate("0 and zeros(10**10)") == 0
    assert evaluate("1 or zeros(10**10)") == 1
    assert evaluate("1 if d_k else zeros(10**10)") == 1
    assert evaluate("3 < 2 < zeros(10**10)") is False


def test_a_declared_name_shadows_the_constant_of_the_same_name():
    assert compile_expression("e * 2", ["e"]).evaluate({"e": 5}) == 10
    assert compile_expression("e * 2").evaluate({"e": 5}) == 2 * math.e


@pytest.mark.parametrize(
    ("source", "segment", "column"),
    [
        ("1 + 1 / 0", "1 / 0", 5),
        ("Q @ Q", "Q @ Q", 1),
        ("x + Q", "x + Q", 1),
        ("x[5]", "x[5]", 1),
        ("words[2]", "words[2]", 1),
        ("softmax(x, axis=3)", "softmax(x, axis=3)", 1),
        ("attention(Q, Q, V)", "attention(Q, Q, V)", 1),
        ("softmax()", "softmax()", 1),
        ("sum(x, out=x)", "sum(x, out=x)", 1),
        ("float(1.0e300) ** 2", "float(1.0e300) ** 2", 1),
        ("x ** 1000.0", "x ** 1000.0", 1),
        ("(-8) ** 0.5", "(-8) ** 0.5", 1),
        ("x if x else 1", "x if x else 1", 1),
        ("0 < x < 2", "0 < x < 2", 1),
        ("x.weights", "x.weights", 1),
        ("attention(Q, K, V).shape", "attention(Q, K, V).shape", 1),
        ("'%s' % d_k", "'%s' % d_k", 1),
        ("x == 'a'", "x == 'a'", 1),
        ("array(x, dtype='complex128')", "array(x, dtype='complex128')", 1),
        ("int(nan)", "int(nan)", 1),
        ("[1] + 1", "[1] + 1", 1),
    ],
)
def test_runtime_failures_become_expression_errors_at_the_failing_part(source, segment, column):
    error = failure(source)
    assert f"`{segment}`" in error.message
    assert error.column == column
    assert error.source == source


def test_the_truth_of_an_array_asks_for_all_or_any():
    assert "all(...) or any(...)" in failure("1 if x > 0 else 2").message
    assert evaluate("1 if all(x >= 0) else 2") == 1


def test_a_missing_value_is_an_expression_error():
    expression = compile_expression("x + 1", ["x"])
    with pytest.raises(ExpressionError, match="no value was given for `x`"):
        expression.evaluate({})


def test_evaluation_never_mutates_namespace_arrays():
    namespace = {name: np.array(value, copy=True) for name, value in NAMESPACE.items() if name != "words"}
    before = {name: value.copy() for name, value in namespace.items()}
    for source in [
        "softmax(s)",
        "attention(Q, K, V, is_causal=True).weights",
        "attention_backward(Q, K, V, ones((2, 2)))",
        "sort(x[0], axis=-1)",
        "cumsum(x, axis=1)",
        "x.T",
        "clip(x, 1, 2)",
        "reshape(x, (3, 2))",
        "x[x > 2]",
    ]:
        compile_expression(source, namespace).evaluate(namespace)
    for name, value in namespace.items():
        np.testing.assert_array_equal(value, before[name])
        assert value.flags.writeable


def test_namespace_arrays_come_back_read_only():
    for source in ["x", "x.T", "x[0]", "x[:, 1:]"]:
        result = evaluate(source)
        assert not result.flags.writeable
        with pytest.raises(ValueError):
            result[...] = 0
    np.testing.assert_array_equal(X, np.arange(6.0).reshape(2, 3))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="xys012()[]., +-*/%@<>=~ ", max_size=30))
def test_whatever_compiles_evaluates_or_raises_an_expression_error(text):
    namespace = {"x": X, "y": [1, 2, 3], "s": 2}
    try:
        expression = compile_expression(text, namespace)
        expression.evaluate(namespace)
    except ExpressionError:
        pass
