"""The engine's public functions, each with a preflight that bounds what it will allocate."""

import math
from collections.abc import Mapping
from typing import Any

import engine
from quiz.expressions.callables import Function
from quiz.expressions.limits import LimitExceeded, check_elements, check_terms
from quiz.expressions.shapes import check_broadcast, check_matmul, padded_leading, shape_of


def _as_matrix(shape: tuple[int, ...]) -> tuple[int, ...]:
    return (1,) * (2 - len(shape)) + shape


def _check_attention(arguments: Mapping[str, Any]) -> int:
    """Bound the scores (batch × L × S), the output and the work of one attention call.

    `grad_output` (backward) and `attn_mask` only widen the batch; grouped-query attention
    repeats keys and values for every query head; a fault may hand every head the features
    of all heads, multiplying the work by the number of heads.
    """
    query, key, value = (
        _as_matrix(shape_of(arguments[name])) for name in ("query", "key", "value")
    )
    leading = [query[:-2], key[:-2], value[:-2]]
    for name in ("attn_mask", "grad_output"):
        if arguments.get(name) is not None:
            leading.append(shape_of(arguments[name])[:-2])
    batch = math.prod(padded_leading(leading))
    (L, E), S, Ev = query[-2:], key[-2], value[-1]
    if arguments.get("fault") is not None:
        E *= query[-3] if len(query) > 2 else 1
    check_elements(batch * L * S, "attention scores")
    check_elements(batch * L * Ev, "attention output")
    check_elements(batch * S * max(E, Ev), "repeated keys and values")
    check_terms(batch * L * S * (E + Ev))
    return batch * L * S


MAX_KEY_BLOCKS = 4_096
"""Most key blocks blockwise attention may visit: each is one step of a Python loop."""


def _check_blockwise(arguments: Mapping[str, Any]) -> int:
    """Bound blockwise attention as attention, and its loop by the number of key blocks."""
    cost = _check_attention(arguments)
    block, S = arguments["block_size"], _as_matrix(shape_of(arguments["key"]))[-2]
    if isinstance(block, int) and block >= 1 and -(-S // block) > MAX_KEY_BLOCKS:
        raise LimitExceeded(
            f"{S:,} keys in blocks of {block} make {-(-S // block):,} blocks; the limit is {MAX_KEY_BLOCKS:,}"
        )
    return cost


def _check_repeat_kv(arguments: Mapping[str, Any]) -> None:
    groups = arguments["groups"]
    if isinstance(groups, int):
        check_elements(math.prod(shape_of(arguments["x"])) * max(groups, 1), "repeated heads")


def _check_jacobian(arguments: Mapping[str, Any]) -> int:
    shape = shape_of(arguments["z"])
    size = math.prod(shape) * (shape[-1] if shape else 1)
    check_elements(size, "Jacobian")
    return size


def _check_vjp(arguments: Mapping[str, Any]) -> None:
    check_broadcast(arguments["p"], arguments["grad"])


def _check_entropy(arguments: Mapping[str, Any]) -> None:
    if arguments["mask"] is not None:
        check_broadcast(arguments["p"], arguments["mask"])


def _check_causal_mask(arguments: Mapping[str, Any]) -> None:
    L, S = arguments["L"], arguments["S"]
    check_elements(L * (L if S is None else S), "mask")


def _check_self_attention(arguments: Mapping[str, Any]) -> int:
    """Bound the projections, the per-head scores (batch × heads × n × n) and the output."""
    x = _as_matrix(shape_of(arguments["x"]))
    projected = [check_matmul(x, shape_of(arguments[name])) for name in ("w_q", "w_k", "w_v")]
    batch, n = math.prod(x[:-2]), x[-2]
    scores: int = batch * arguments["n_heads"] * n * n
    check_elements(scores, "attention scores")
    check_terms(batch * n * n * (projected[0][-1] + projected[2][-1]))
    if arguments["w_o"] is not None:
        check_matmul(projected[2], shape_of(arguments["w_o"]))
    return scores


def _check_score_variance(arguments: Mapping[str, Any]) -> int:
    # Two n_samples × d_k draws of normals, though the result is three numbers.
    sample: int = arguments["d_k"] * arguments["n_samples"]
    check_elements(sample, "sample")
    return 2 * sample


ENGINE_FUNCTIONS: dict[str, Function] = {
    function.name: function
    for function in (
        Function("softmax", engine.softmax),
        Function("naive_softmax", engine.naive_softmax),
        Function("log_softmax", engine.log_softmax),
        Function("softmax_jacobian", engine.softmax_jacobian, _check_jacobian),
        Function("softmax_vjp", engine.softmax_vjp, _check_vjp),
        Function("entropy", engine.entropy, _check_entropy),
        Function("attention", engine.attention, _check_attention),
        Function(
            "scaled_dot_product_attention", engine.scaled_dot_product_attention, _check_attention
        ),
        Function("attention_backward", engine.attention_backward, _check_attention),
        Function("blockwise_attention", engine.blockwise_attention, _check_blockwise),
        Function("causal_mask", engine.causal_mask, _check_causal_mask),
        Function("split_heads", engine.split_heads),
        Function("merge_heads", engine.merge_heads),
        Function("repeat_kv_heads", engine.repeat_kv_heads, _check_repeat_kv),
        Function("sum_kv_head_groups", engine.sum_kv_head_groups),
        Function("self_attention", engine.self_attention, _check_self_attention),
        # Its seed is an argument, so equal arguments give the same frozen result: explanations
        # quote one simulation for many variants.
        Function("score_variance", engine.score_variance, _check_score_variance, remember=True),
        Function("head_stats", engine.head_stats, _check_attention),
        Function("head_stats_from_trace", engine.head_stats_from_trace, _check_attention),
        Function("diagnose", engine.diagnose),
    )
}
