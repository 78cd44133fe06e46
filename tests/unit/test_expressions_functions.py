"""The callable allow-list: numpy wrappers agree with numpy, engine functions pass straight through."""


import numpy as np
import pytest

import engine
from quiz.expressions import ExpressionError, compile_expression
from quiz.expressions.callables import Function
from quiz.expressions.engine_functions import ENGINE_FUNCTIONS
from quiz.expressions.functions import FUNCTIONS
from quiz.expressions.meter import SizeMeter

RNG = np.random.default_rng(11)
X = RNG.normal(size=(3, 4))
P = np.array([0.7, 0.2, 0.1])
Q = RNG.normal(size=(2, 3, 5, 4))  # (batch, heads, L, E)
K = RNG.normal(size=(2, 3, 6, 4))
V = RNG.normal(size=(2, 3, 6, 2))
G = RNG.normal(size=(2, 3, 5, 2))
NAMESPACE = {"x": X, "p": P, "Q": Q, "K": K, "V": V, "G": G}


def evaluate(source: str):
    return compile_expression(source, NAMESPACE).evaluate(NAMESPACE)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("sqrt(abs(x))", np.sqrt(np.abs(X))),
        ("exp(x)", np.exp(X)),
        ("log(p)", np.log(P)),
        ("sum(x)", np.sum(X)),
        ("sum(x, axis=0)", np.sum(X, axis=0)),
        ("mean(x, axis=-1)", np.mean(X, axis=-1)),
        ("max(x, axis=1)", np.max(X, axis=1)),
        ("min(x)", np.min(X)),
        ("argmax(x, axis=1)", np.argmax(X, axis=1)),
        ("argmin(x)", np.argmin(X)),
        ("all(x > 0, axis=0)", np.all(X > 0, axis=0)),
        ("any(x > 0)", np.any(X > 0)),
        ("std(x, ddof=1)", np.std(X, ddof=1)),
        ("var(x, axis=0)", np.var(X, axis=0)),
        ("round(x, 2)", np.round(X, 2)),
        ("clip(x, -0.5, 0.5)", np.clip(X, -0.5, 0.5)),
        ("where(x > 0, x, 0)", np.where(X > 0, X, 0)),
        ("maximum(x, 0)", np.maximum(X, 0)),
        ("minimum(x, 0)", np.minimum(X, 0)),
        ("zeros((2, 3))", np.zeros((2, 3))),
        ("ones(4)", np.ones(4)),
        ("full((2, 2), 7)", np.full((2, 2), 7.0)),
        ("eye(3, 4, 1)", np.eye(3, 4, 1)),
        ("arange(5)", np.arange(5)),
        ("arange(1, 2, 0.25)", np.arange(1, 2, 0.25)),
        ("linspace(0, 1, 5)", np.linspace(0, 1, 5)),
        ("array([[1, 2], [3, 4]])", np.array([[1, 2], [3, 4]])),
        ("stack([p, p], axis=1)", np.stack([P, P], axis=1)),
        ("concatenate([p, p])", np.concatenate([P, P])),
        ("transpose(x)", X.T),
        ("reshape(x, (4, 3))", X.reshape(4, 3)),
        ("matmul(x, x.T)", X @ X.T),
        ("dot(p, p)", np.dot(P, P)),
        ("outer(p, p)", np.outer(P, P)),
        ("diag(p)", np.diag(P)),
        ("diag(x)", np.diag(X)),
        ("tril(x)", np.tril(X)),
        ("triu(x, 1)", np.triu(X, 1)),
        ("isfinite(log(x))", X > 0),
        ("isnan(sqrt(x))", X < 0),
        ("isinf(x / 0)", np.ones((3, 4), dtype=bool)),
        ("cumsum(p)", np.cumsum(P)),
        ("prod(p)", np.prod(P)),
        ("sort(x)", np.sort(X)),
        ("len(x)", 3),
        ("float(p[0])", 0.7),
        ("int(2.9)", 2),
    ],
)
def test_numpy_wrappers_agree_with_numpy(source, expected):
    np.testing.assert_array_equal(evaluate(source), expected)


def test_array_takes_an_allowed_dtype_by_name():
    assert evaluate("array([1, 2], dtype='float32')").dtype == np.float32
    assert evaluate("array([1, 0], 'bool')").dtype == np.bool_


def test_reductions_take_axis_by_keyword_only():
    with pytest.raises(ExpressionError, match="too many positional arguments"):
        evaluate("max(x, 1)")


def test_no_function_takes_out_or_arbitrary_arguments():
    with pytest.raises(ExpressionError, match="unexpected keyword argument 'out'"):
        evaluate("softmax(x, out=x)")
    for name, function in FUNCTIONS.items():
        parameters = function.signature.parameters.values()
        assert "out" not in function.signature.parameters, name
        assert all(
            parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)
            for parameter in parameters
        ), name


def test_every_public_engine_function_is_callable_from_expressions():
    public = {
        name
        for name in engine.__all__
        if callable(getattr(engine, name)) and not isinstance(getattr(engine, name), type)
    }
    assert public <= set(ENGINE_FUNCTIONS)
    for name, function in ENGINE_FUNCTIONS.items():
        assert function.implementation is getattr(engine, name)


@pytest.mark.parametrize(
    ("source", "direct"),
    [
        ("softmax(x)", lambda: engine.softmax(X)),
        ("naive_softmax(x, axis=0)", lambda: engine.naive_softmax(X, axis=0)),
        ("log_softmax(x)", lambda: engine.log_softmax(X)),
        ("softmax_jacobian(x)", lambda: engine.softmax_jacobian(X)),
        ("softmax_vjp(softmax(x), x)", lambda: engine.softmax_vjp(engine.softmax(X), X)),
        ("entropy(p, normalized=True)", lambda: engine.entropy(P, normalized=True)),
        ("entropy(p, mask=p > 0.15)", lambda: engine.entropy(P, mask=P > 0.15)),
        (
            "attention(Q, K, V, is_causal=True).weights",
            lambda: engine.attention(Q, K, V, is_causal=True).weights,
        ),
        (
            "attention(Q, K, V, fault='double_scale').output",
            lambda: engine.attention(Q, K, V, fault="double_scale").output,
        ),
        (
            "scaled_dot_product_attention(Q, K, V, scale=0.5)",
            lambda: engine.scaled_dot_product_attention(Q, K, V, scale=0.5),
        ),
        ("attention_backward(Q, K, V, G)[1]", lambda: engine.attention_backward(Q, K, V, G)[1]),
        (
            "attention(Q, K[:, :1], V[:, :1], enable_gqa=True).output",
            lambda: engine.attention(Q, K[:, :1], V[:, :1], enable_gqa=True).output,
        ),
        ("causal_mask(3, 4)", lambda: engine.causal_mask(3, 4)),
        ("blockwise_attention(Q, K, V, 4)", lambda: engine.blockwise_attention(Q, K, V, 4)),
        ("repeat_kv_heads(K, 2)", lambda: engine.repeat_kv_heads(K, 2)),
        ("sum_kv_head_groups(Q, 3)", lambda: engine.sum_kv_head_groups(Q, 3)),
        ("split_heads(x, 2)", lambda: engine.split_heads(X, 2)),
        ("merge_heads(Q)", lambda: engine.merge_heads(Q)),
        (
            "self_attention(x, eye(4), eye(4), eye(4), n_heads=2)",
            lambda: engine.self_attention(X, np.eye(4), np.eye(4), np.eye(4), n_heads=2),
        ),
        ("score_variance(8, 100, 3).variance", lambda: engine.score_variance(8, 100, 3).variance),
        ("apply_rotary(Q, arange(5))", lambda: engine.apply_rotary(Q, np.arange(5))),
        ("undo_rotary(Q, arange(5), 100.0)", lambda: engine.undo_rotary(Q, np.arange(5), 100.0)),
        ("rotary_angles(arange(3), 4)", lambda: engine.rotary_angles(np.arange(3), 4)),
        ("alibi_slopes(12)", lambda: engine.alibi_slopes(12)),
        ("alibi_bias(4, 3, 5)", lambda: engine.alibi_bias(4, 3, 5)),
        ("relative_position_bucket(-40, False)", lambda: engine.relative_position_bucket(-40, False)),
        ("relative_position_bias(ones((32, 2)), 3)", lambda: engine.relative_position_bias(np.ones((32, 2)), 3)),
        ("sliding_window_mask(5, 2)", lambda: engine.sliding_window_mask(5, 2)),
        ("prefix_lm_mask(5, 2)", lambda: engine.prefix_lm_mask(5, 2)),
        ("real_tokens([1, 3], 3, 'left')", lambda: engine.real_tokens([1, 3], 3, "left")),
        ("key_padding_mask([1, 3], 3)", lambda: engine.key_padding_mask([1, 3], 3)),
        ("padded_position_ids([1, 3], 3, 'left')", lambda: engine.padded_position_ids([1, 3], 3, "left")),
        ("document_causal_mask([2, 3])", lambda: engine.document_causal_mask([2, 3])),
        ("packed_position_ids([2, 3])", lambda: engine.packed_position_ids([2, 3])),
        ("kv_cache_bytes(32, 8, 128, 4096, 1, 2)", lambda: engine.kv_cache_bytes(32, 8, 128, 4096, 1, 2)),
        ("cross_entropy(x, [0, 3, 1])", lambda: engine.cross_entropy(X, [0, 3, 1])),
        ("cross_entropy_grad(x, [0, 3, 1], 'sum')", lambda: engine.cross_entropy_grad(X, [0, 3, 1], "sum")),
        ("elu_plus_one(x)", lambda: engine.elu_plus_one(X)),
        ("linear_attention(Q, K, V)", lambda: engine.linear_attention(Q, K, V)),
        ("linear_attention_state(Q, Q, G)", lambda: engine.linear_attention_state(Q, Q, G)),
        ("tiled_attention(Q, K, V, 2, 4, True).lse", lambda: engine.tiled_attention(Q, K, V, 2, 4, True).lse),
        ("matmul_multiply_adds(2, 3, 4)", lambda: engine.matmul_multiply_adds(2, 3, 4)),
        ("matmul_flops(2, 3, 4)", lambda: engine.matmul_flops(2, 3, 4)),
        ("attention_flops(128, 128, 64, heads=8)", lambda: engine.attention_flops(128, 128, 64, heads=8)),
        ("projection_flops(128, 512)", lambda: engine.projection_flops(128, 512)),
        ("decode_arithmetic_intensity(100, 64, 8, 2)", lambda: engine.decode_arithmetic_intensity(100, 64, 8, 2)),
        ("dense_attention_hbm_bytes(1024, 64)", lambda: engine.dense_attention_hbm_bytes(1024, 64)),
        ("flash_block_sizes(64, 51200)", lambda: engine.flash_block_sizes(64, 51200)),
        ("flash_attention_hbm_bytes(1024, 64, 102400)", lambda: engine.flash_attention_hbm_bytes(1024, 64, 102400)),
        (
            "head_stats(Q, K, V, G, is_causal=True).entropy",
            lambda: engine.head_stats(Q, K, V, G, is_causal=True).entropy,
        ),
        (
            "head_stats_from_trace(attention(Q, K, V), Q, K, V).max_weight",
            lambda: engine.head_stats_from_trace(engine.attention(Q, K, V), Q, K, V).max_weight,
        ),
        (
            "len(diagnose(head_stats(Q, K, V, fault='double_scale')))",
            lambda: len(engine.diagnose(engine.head_stats(Q, K, V, fault="double_scale"))),
        ),
    ],
)
def test_engine_functions_pass_straight_through(source, direct):
    np.testing.assert_array_equal(evaluate(source), direct())


def test_score_variance_is_near_d_k_before_scaling():
    # B4 and F3: Var(q·k) = d_k for independent standard normal components.
    result = evaluate("score_variance(16, 4000, 0)")
    assert abs(result.variance - 16) < 4 * result.standard_error


def test_engine_failures_become_expression_errors():
    with pytest.raises(ExpressionError, match="attention"):
        evaluate("attention(Q, K, V[..., :3, :])")


class Bound(Exception):
    """Raised by a preflight with the arguments it was given, before the function runs."""


def stop_with_arguments(arguments):
    raise Bound(dict(arguments))


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_a_call_binds_its_values_exactly_as_inspect_binds_them(name):
    """Every way of passing 0..n+1 positionals and any keyword subset, plus unknown and repeated
    keywords: the preflight gets inspect's arguments (defaults applied), and a call inspect
    refuses raises inspect's TypeError, named after the function."""
    function = FUNCTIONS[name]
    probe = Function(name, function.implementation, stop_with_arguments)
    names = list(function.signature.parameters)
    calls = []
    for count in range(len(names) + 2):
        args = [f"a{i}" for i in range(count)]
        for mask in range(2 ** len(names)):
            kwargs = {n: f"k{n}" for i, n in enumerate(names) if mask >> i & 1}
            calls.append((args, kwargs))
        calls.append((args, {"not_a_parameter": 1}))
    for args, kwargs in calls:
        call = probe.caller(len(args), tuple(kwargs))
        try:
            bound = function.signature.bind(*args, **kwargs)
        except TypeError as refusal:
            with pytest.raises(TypeError) as raised:
                call(args, kwargs, SizeMeter())
            assert str(raised.value) == f"{name}(): {refusal}", (args, kwargs)
            continue
        bound.apply_defaults()
        with pytest.raises(Bound) as raised:
            call(args, kwargs, SizeMeter())
        assert raised.value.args[0] == dict(bound.arguments), (args, kwargs)


def test_an_allowed_function_may_not_take_a_pack_of_arguments():
    with pytest.raises(TypeError, match=r"\*args or \*\*kwargs"):
        Function("packed", lambda *values: values)


def test_score_variance_is_remembered_by_its_arguments():
    """Explanations quote one simulation for many variants: equal arguments run it once."""
    first, again = evaluate("score_variance(8, 300, 3)"), evaluate("score_variance(8, 300, 3)")
    assert first is again and first == engine.score_variance(8, 300, 3)
    assert evaluate("score_variance(8, 300, 4)") != first
