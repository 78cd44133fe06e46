"""The engine's public functions, each with a preflight that bounds what it will allocate."""

import math
from collections.abc import Mapping
from typing import Any

import engine
from quiz.expressions.callables import Function
from quiz.expressions.limits import LimitExceeded, check_elements, check_terms
from quiz.expressions.shapes import check_broadcast, check_matmul, numeric, padded_leading, shape_of


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
"""Most steps of an engine call's Python loop: key blocks of blockwise attention, tiles of tiled
attention, tokens of the causal linear-attention state."""


def _check_blockwise(arguments: Mapping[str, Any]) -> int:
    """Bound blockwise attention as attention, and its loop by the number of key blocks."""
    cost = _check_attention(arguments)
    block, S = arguments["block_size"], _as_matrix(shape_of(arguments["key"]))[-2]
    if isinstance(block, int) and block >= 1 and -(-S // block) > MAX_KEY_BLOCKS:
        raise LimitExceeded(
            f"{S:,} keys in blocks of {block} make {-(-S // block):,} blocks; the limit is {MAX_KEY_BLOCKS:,}"
        )
    return cost


def _check_tiled(arguments: Mapping[str, Any]) -> int:
    """Bound tiled attention as attention, and its loop by the number of tiles."""
    cost = _check_attention(arguments)
    block_q, block_k = arguments["block_q"], arguments["block_k"]
    L, S = _as_matrix(shape_of(arguments["query"]))[-2], _as_matrix(shape_of(arguments["key"]))[-2]
    if isinstance(block_q, int) and isinstance(block_k, int) and min(block_q, block_k) >= 1:
        tiles = -(-L // block_q) * -(-S // block_k)
        if tiles > MAX_KEY_BLOCKS:
            raise LimitExceeded(f"{L:,} queries and {S:,} keys make {tiles:,} tiles; the limit is {MAX_KEY_BLOCKS:,}")
    return cost


def _check_linear_state(arguments: Mapping[str, Any]) -> int:
    """Bound linear attention's d×d state, its output and products, and the causal loop by its tokens."""
    query, key, value = (_as_matrix(shape_of(arguments[name])) for name in ("query", "key", "value"))
    batch = math.prod(padded_leading([query[:-2], key[:-2], value[:-2]]))
    (L, E), S, Ev = query[-2:], key[-2], value[-1]
    check_elements(batch * E * Ev, "linear-attention state")
    check_elements(batch * L * Ev, "attention output")
    check_terms(batch * (L + S) * E * Ev)
    if arguments["causal"] and L > MAX_KEY_BLOCKS:
        raise LimitExceeded(f"the causal state would take {L:,} steps; the limit is {MAX_KEY_BLOCKS:,}")
    return batch * (L * Ev + E * Ev)


def _check_rotary(arguments: Mapping[str, Any]) -> int:
    """Bound the rotated array: x's shape with its leading axes broadcast against the positions'."""
    x = shape_of(arguments["x"])
    size: int = math.prod(padded_leading([x[:-1], shape_of(arguments["positions"])])) * (x[-1] if x else 1)
    check_elements(size, "rotated array")
    return size


def _check_rotary_angles(arguments: Mapping[str, Any]) -> None:
    check_elements(math.prod(shape_of(arguments["positions"])) * arguments["head_dim"], "angles")


def _check_alibi_slopes(arguments: Mapping[str, Any]) -> None:
    check_elements(arguments["n_heads"], "slopes")


def _check_alibi_bias(arguments: Mapping[str, Any]) -> None:
    L, S = arguments["L"], arguments["S"]
    check_elements(arguments["n_heads"] * L * (L if S is None else S), "bias")


def _check_relative_bias(arguments: Mapping[str, Any]) -> None:
    table = shape_of(arguments["table"])
    L, S = arguments["L"], arguments["S"]
    check_elements((table[-1] if table else 1) * L * (L if S is None else S), "bias")


def _check_lengths_by_positions(arguments: Mapping[str, Any]) -> None:
    check_elements(math.prod(shape_of(arguments["lengths"])) * arguments["S"], "mask")


def _packed_length(arguments: Mapping[str, Any]) -> int:
    """The packed row's length, Σ lengths, summed as Python ints (an int64 sum could wrap past the limit)."""
    return sum(max(int(n), 0) for n in numeric(arguments["document_lengths"]).ravel())


def _check_document_mask(arguments: Mapping[str, Any]) -> None:
    check_elements(_packed_length(arguments) ** 2, "mask")


def _check_packed_positions(arguments: Mapping[str, Any]) -> None:
    check_elements(_packed_length(arguments), "position ids")


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
        Function("apply_rotary", engine.apply_rotary, _check_rotary),
        Function("undo_rotary", engine.undo_rotary, _check_rotary),
        Function("rotary_angles", engine.rotary_angles, _check_rotary_angles),
        Function("alibi_slopes", engine.alibi_slopes, _check_alibi_slopes),
        Function("alibi_bias", engine.alibi_bias, _check_alibi_bias),
        Function("relative_position_bucket", engine.relative_position_bucket),
        Function("relative_position_bias", engine.relative_position_bias, _check_relative_bias),
        Function("sliding_window_mask", engine.sliding_window_mask, _check_causal_mask),
        Function("prefix_lm_mask", engine.prefix_lm_mask, _check_causal_mask),
        Function("real_tokens", engine.real_tokens, _check_lengths_by_positions),
        Function("key_padding_mask", engine.key_padding_mask, _check_lengths_by_positions),
        Function("padded_position_ids", engine.padded_position_ids, _check_lengths_by_positions),
        Function("document_causal_mask", engine.document_causal_mask, _check_document_mask),
        Function("packed_position_ids", engine.packed_position_ids, _check_packed_positions),
        Function("kv_cache_bytes", engine.kv_cache_bytes),
        Function("cross_entropy", engine.cross_entropy),
        Function("cross_entropy_grad", engine.cross_entropy_grad),
        Function("elu_plus_one", engine.elu_plus_one),
        Function("linear_attention", engine.linear_attention, _check_attention),
        Function("linear_attention_state", engine.linear_attention_state, _check_linear_state),
        Function("tiled_attention", engine.tiled_attention, _check_tiled),
        Function("matmul_multiply_adds", engine.matmul_multiply_adds),
        Function("matmul_flops", engine.matmul_flops),
        Function("attention_flops", engine.attention_flops),
        Function("projection_flops", engine.projection_flops),
        Function("decode_arithmetic_intensity", engine.decode_arithmetic_intensity),
        Function("dense_attention_hbm_bytes", engine.dense_attention_hbm_bytes),
        Function("flash_block_sizes", engine.flash_block_sizes),
        Function("flash_attention_hbm_bytes", engine.flash_attention_hbm_bytes),
    )
}
