"""Scaled dot-product attention, softmax(Q Kᵀ · scale + mask) V, computed step by step (A1, E2).

One pipeline — scores, scale, mask, softmax, weighted sum — serves `scaled_dot_product_attention`
(a numpy twin of PyTorch's), `attention` (every intermediate, for worked solutions) and the
backward pass. Faults change only the pipeline's inputs and settings (see engine.faults).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from engine.faults import (
    Fault,
    PipelineSettings,
    pipeline_settings,
    to_fault,
    unsplit_heads,
    unsplit_heads_backward,
)
from engine.kv_heads import repeat_kv_heads, sum_kv_head_groups
from engine.masks import all_but_last_row, causal_mask, read_attn_mask
from engine.softmax import naive_softmax, softmax, softmax_and_empty_rows

EMPTY_ROW_POLICIES = ("zero", "nan", "raise")


@dataclass(frozen=True)
class AttentionTrace:
    """Every intermediate of one attention run, as a worked solution shows them. Arrays are read-only.

    scores, scaled, masked, weights and allowed have shape (..., L, S); output (..., L, Ev).
    """

    scores: np.ndarray  # Q Kᵀ, before scaling
    scale: float  # the factor actually used
    scaled: np.ndarray  # scores · scale
    masked: np.ndarray  # scaled + float mask, −∞ where the query may not attend
    weights: np.ndarray  # softmax of masked over the keys
    output: np.ndarray  # weights V
    allowed: np.ndarray  # True where the query could attend in this run (mask, causal and fault applied)
    causal: bool  # whether a causal mask was requested, even if a fault dropped it

    def __post_init__(self) -> None:
        # frozen stops rebinding the fields; this stops writes into the arrays they hold
        for value in vars(self).values():
            if isinstance(value, np.ndarray):
                value.setflags(write=False)


@dataclass(frozen=True)
class PreparedCall:
    """Checked arguments in the form the pipeline runs on, and the way back for their gradients."""

    query: np.ndarray  # (..., L, E): as given, or with all heads' features under heads_not_split
    key: np.ndarray  # (..., S, E): key heads repeated for their query heads under GQA
    value: np.ndarray  # (..., S, Ev)
    allowed: np.ndarray  # bool, broadcastable to (..., L, S): often a scalar or (L, S)
    forbids_any: bool  # some query may not attend some key
    additive: np.ndarray  # a float attn_mask (0 without one), broadcastable to (..., L, S)
    settings: PipelineSettings
    empty_rows: str
    kv_groups: int  # query heads per key/value head; 1 without GQA
    causal_requested: bool

    def caller_gradients(
        self, d_query: np.ndarray, d_key: np.ndarray, d_value: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Gradients with respect to the pipeline's inputs, carried back to the caller's Q, K, V."""
        if self.settings.unsplit_heads:
            d_query, d_key = unsplit_heads_backward(d_query), unsplit_heads_backward(d_key)
        if self.kv_groups > 1:
            d_key = sum_kv_head_groups(d_key, self.kv_groups)
            d_value = sum_kv_head_groups(d_value, self.kv_groups)
        return d_query, d_key, d_value


def _compute_dtype(query: np.ndarray, key: np.ndarray, value: np.ndarray) -> type[np.floating]:
    """float32 when every input is float32 (results stay float32), float64 otherwise."""
    return np.float32 if query.dtype == key.dtype == value.dtype == np.float32 else np.float64


def _names(query: np.ndarray, key: np.ndarray, value: np.ndarray) -> str:
    """The three shapes, as the errors of `_check_shapes` name them."""
    return f"query {query.shape}, key {key.shape} and value {value.shape}"


def _check_shapes(query: np.ndarray, key: np.ndarray, value: np.ndarray, enable_gqa: bool) -> None:
    """Raise ValueError, naming the shapes, unless (..., L, E), (..., S, E), (..., S, Ev) fit together."""
    if min(query.ndim, key.ndim, value.ndim) < 2:
        raise ValueError(
            f"{_names(query, key, value)} need at least two axes each: (..., L, E), (..., S, E), (..., S, Ev)"
        )
    if query.shape[-1] != key.shape[-1]:
        raise ValueError(
            f"query {query.shape} and key {key.shape} must share the feature axis E (last): "
            f"{query.shape[-1]} != {key.shape[-1]}"
        )
    if key.shape[-2] != value.shape[-2]:
        raise ValueError(
            f"key {key.shape} and value {value.shape} must share the number of positions S (axis -2): "
            f"{key.shape[-2]} != {value.shape[-2]}"
        )
    if key.shape[:-2] != value.shape[:-2]:
        raise ValueError(
            f"key {key.shape} and value {value.shape} must share their batch axes (all but the last two)"
        )
    heads_may_differ = enable_gqa and query.ndim == key.ndim >= 3
    q_batch, kv_batch = query.shape[:-2], key.shape[:-2]
    if heads_may_differ:
        q_batch, kv_batch = q_batch[:-1], kv_batch[:-1]
    if q_batch != kv_batch:
        allowance = ", except the head axis -3 under enable_gqa" if heads_may_differ else ""
        raise ValueError(
            f"{_names(query, key, value)} must share their batch axes (all but the last two{allowance})"
        )
    if heads_may_differ and query.shape[-3] % key.shape[-3]:
        raise ValueError(
            f"enable_gqa needs the query heads to be a multiple of the key/value heads (axis -3): "
            f"query {query.shape} has {query.shape[-3]}, key {key.shape} has {key.shape[-3]}"
        )


def prepare_call(
    query: ArrayLike,
    key: ArrayLike,
    value: ArrayLike,
    attn_mask: ArrayLike | None,
    dropout_p: float,
    is_causal: bool,
    scale: float | None,
    enable_gqa: bool,
    empty_rows: str,
    fault: Fault | str | None,
) -> PreparedCall:
    """Check and convert the arguments shared by the forward and backward passes."""
    query, key, value = np.asarray(query), np.asarray(key), np.asarray(value)
    dtype = _compute_dtype(query, key, value)
    query, key, value = (x.astype(dtype, copy=False) for x in (query, key, value))
    _check_shapes(query, key, value, enable_gqa)
    if dropout_p != 0.0:
        raise ValueError(f"dropout_p must be 0: a reference computation has no dropout (got {dropout_p})")
    if is_causal and attn_mask is not None:
        raise ValueError("is_causal and attn_mask cannot be combined: put the causal mask in attn_mask")
    if empty_rows not in EMPTY_ROW_POLICIES:
        raise ValueError(f"empty_rows must be one of {', '.join(EMPTY_ROW_POLICIES)}, not {empty_rows!r}")

    *_, L, E = query.shape
    S = key.shape[-2]
    n_heads = query.shape[-3] if query.ndim >= 3 else 1
    settings = pipeline_settings(
        to_fault(fault), scale=scale, is_causal=is_causal, head_dim=E, n_heads=n_heads
    )

    kv_groups = n_heads // key.shape[-3] if enable_gqa and query.ndim >= 3 else 1
    if kv_groups > 1:
        key = repeat_kv_heads(key, kv_groups)  # (..., H, S, E)
        value = repeat_kv_heads(value, kv_groups)  # (..., H, S, Ev)
    if settings.unsplit_heads:
        query, key = unsplit_heads(query), unsplit_heads(key)  # (..., H, L, H·E), (..., H, S, H·E)

    scores_shape = (*query.shape[:-1], S)  # (..., L, S)
    allowed, additive = read_attn_mask(attn_mask, scores_shape, dtype)
    if settings.causal:  # is_causal excludes attn_mask, so nothing is forbidden yet
        allowed = causal_mask(L, S)
    if settings.block_last_row:
        allowed = allowed & all_but_last_row(L, S)
    return PreparedCall(
        query=query,
        key=key,
        value=value,
        allowed=allowed,
        forbids_any=bool(np.count_nonzero(allowed) < allowed.size),  # .all() costs more on small masks
        additive=additive,
        settings=settings,
        empty_rows=empty_rows,
        kv_groups=kv_groups,
        causal_requested=is_causal,
    )


def _empty_rows(masked: np.ndarray) -> np.ndarray:
    """Bool (..., L): the query rows whose scores are all −∞, i.e. that have no allowed key (E5)."""
    return np.maximum.reduce(masked, axis=-1, initial=-np.inf) == -np.inf  # np.max minus its checks


def _apply_empty_row_policy(empty: np.ndarray, weights: np.ndarray, policy: str) -> np.ndarray:
    """`weights` with the `empty` rows set by `policy`: 0, NaN, or a ValueError naming the first."""
    n_empty = np.count_nonzero(empty)
    if not n_empty:
        return weights
    if policy == "raise":
        *batch_index, row = np.argwhere(empty)[0]
        where = f" at batch index {tuple(int(i) for i in batch_index)}" if batch_index else ""
        raise ValueError(
            f"query row {row}{where} has no allowed key (every score is -inf); "
            f"{n_empty} such row(s) in all. Pass empty_rows='zero' or 'nan' to accept them"
        )
    fill = 0.0 if policy == "zero" else np.nan
    return np.where(empty[..., None], fill, weights)


def attention_weights(call: PreparedCall) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The reference pipeline up to the weights: (scores, scaled, masked, weights), each (..., L, S)."""
    settings = call.settings
    # float16_scores: Q Kᵀ, the scaling and a softmax without max subtraction in half precision
    score_dtype = np.float16 if settings.half_precision_scores else call.query.dtype
    normalise = naive_softmax if settings.half_precision_scores else softmax
    query = call.query.astype(score_dtype, copy=False)  # (..., L, E)
    key = call.key.astype(score_dtype, copy=False)  # (..., S, E)

    with np.errstate(over="ignore", invalid="ignore"):  # float16 overflow is the fault's point
        scores = query @ key.swapaxes(-2, -1)  # (..., L, S) Q Kᵀ
        scaled = scores * settings.scale  # (..., L, S)
        masked = scaled + call.additive.astype(score_dtype, copy=False)  # (..., L, S)
        if call.forbids_any:  # otherwise copyto would write nothing
            np.copyto(masked, -np.inf, where=~call.allowed)
        weights = normalise(masked, axis=settings.softmax_axis)  # (..., L, S)
    weights = weights.astype(call.value.dtype, copy=False)  # the inputs' precision again
    weights = _apply_empty_row_policy(_empty_rows(masked), weights, call.empty_rows)
    return scores, scaled, masked, weights


def attention_weights_fast(call: PreparedCall) -> np.ndarray:
    """`attention_weights(call)[-1]` computed in one buffer, for the hot paths that need only the weights.

    The same operations in the same order, in place instead of one new array per step, which
    at benchmark sizes costs more in page faults than the arithmetic; steps that cannot change
    a weight are skipped. Tests check it is equal to the reference bit for bit. The float16
    fault's path is left to the reference.
    """
    settings = call.settings
    if settings.half_precision_scores:
        return attention_weights(call)[-1]
    buffer = call.query @ call.key.swapaxes(-2, -1)  # (..., L, S) scores
    if settings.scale != 1.0:  # x · 1 is x, bit for bit
        buffer *= settings.scale  # scaled
    if call.additive.ndim or call.additive:  # a lone zero (no float mask) changes at most −0 to +0,
        buffer += call.additive  # which the softmax cannot tell apart: the max is subtracted, exp(±0) = 1
    if call.forbids_any:  # otherwise copyto would write nothing
        np.copyto(buffer, -np.inf, where=~call.allowed)  # masked
    if settings.softmax_axis == -1:  # the softmax's own row maximum tells the empty rows
        weights, empty = softmax_and_empty_rows(buffer, axis=-1, out=buffer)
        return _apply_empty_row_policy(empty[..., 0], weights, call.empty_rows)
    empty = _empty_rows(buffer)  # rows over the keys, while the softmax runs over the queries
    weights = softmax(buffer, axis=settings.softmax_axis, out=buffer)
    return _apply_empty_row_policy(empty, weights, call.empty_rows)


def _view_of_shape(allowed: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """A view of `allowed` broadcast to `shape`, so that making it read-only leaves `allowed` as it is.

    np.broadcast_to costs more than the rest of a small call's masking; a mask already of the
    full shape needs only a view.
    """
    return allowed.view() if allowed.shape == shape else np.broadcast_to(allowed, shape)


def attention(
    query: ArrayLike,
    key: ArrayLike,
    value: ArrayLike,
    attn_mask: ArrayLike | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
    *,
    empty_rows: str = "zero",
    fault: Fault | str | None = None,
) -> AttentionTrace:
    """softmax(Q Kᵀ · scale + mask) V with every intermediate kept, for worked solutions.

    Arguments as `scaled_dot_product_attention`, plus `fault`, a Fault (or its name) to inject
    into the pipeline.
    """
    call = prepare_call(
        query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa, empty_rows, fault
    )
    scores, scaled, masked, weights = attention_weights(call)
    output = weights @ call.value  # (..., L, Ev)
    return AttentionTrace(
        scores=scores,
        scale=call.settings.scale,
        scaled=scaled,
        masked=masked,
        weights=weights,
        output=output,
        allowed=_view_of_shape(call.allowed, weights.shape),
        causal=call.causal_requested,
    )


def scaled_dot_product_attention(
    query: ArrayLike,
    key: ArrayLike,
    value: ArrayLike,
    attn_mask: ArrayLike | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
    *,
    empty_rows: str = "zero",
) -> np.ndarray:
    """softmax(Q Kᵀ · scale + mask) V, argument for argument like torch.nn.functional's (2.5 and later).

    Shapes: query (..., L, E), key (..., S, E), value (..., S, Ev) → (..., L, Ev); all share
    their batch axes except that, with enable_gqa, query heads (axis -3) may be a multiple of
    key/value heads, each of which then serves that many consecutive query heads.
    attn_mask broadcasts to (..., L, S): bool is True where a query may attend; float is added to
    the scaled scores. is_causal allows key j for query i when j ≤ i (top-left aligned); it cannot
    be combined with attn_mask. scale defaults to 1/√E; any given value is used as is, 0 and
    negative included. dropout_p must be 0. A row with no allowed key gives zeros
    (empty_rows="zero", PyTorch ≥ 2.5), NaN ("nan") or a ValueError naming it ("raise").
    float32 inputs give float32 results; anything else is computed in float64.
    """
    call = prepare_call(
        query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa, empty_rows, None
    )
    return attention_weights_fast(call) @ call.value  # (..., L, Ev)
