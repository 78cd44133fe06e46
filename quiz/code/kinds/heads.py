"""Head kinds: splitting and merging heads, multi-head self-attention with projections, and grouped-query
attention that repeats key/value heads."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

import engine
from engine import Fault
from quiz.code.compare import Output
from quiz.code.inputs import lively, lively_qk, normal
from quiz.code.interfaces import INTERFACES
from quiz.code.kinds.attention import QKV, input_precision, large_score_inputs  # QKV: gqa_attention's arguments too
from quiz.code.probes import NoLeak, ProbeSpec
from quiz.code.sandbox import Call
from quiz.code.shared import shared
from quiz.code.spec import Mistake, Policy, Task

HeadsArgs = tuple[np.ndarray, int] | tuple[np.ndarray]
"""split_heads's arguments (x, n_heads) or merge_heads's (x,)."""
MhaArgs = (
    tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]
    | tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, bool]
)
"""multi_head_attention's arguments: x, w_q, w_k, w_v, w_o, n_heads, and causal where the probe gives it."""

def split_reshaped(x: np.ndarray, n_heads: int) -> np.ndarray:
    """(..., T, H·D) reshaped straight to (..., H, T, D): the head axis is never moved."""
    *batch, T, width = x.shape
    return x.reshape(*batch, n_heads, T, width // n_heads)


def split_interleaved(x: np.ndarray, n_heads: int) -> np.ndarray:
    """Head h takes features h, h + H, h + 2H, …: (..., T, D, H) with the last axis moved to −3."""
    *batch, T, width = x.shape
    return np.moveaxis(x.reshape(*batch, T, width // n_heads, n_heads), -1, -3)


def merge_reshaped(x: np.ndarray) -> np.ndarray:
    """(..., H, T, D) reshaped straight to (..., T, H·D) without moving the head axis back."""
    *batch, H, T, D = x.shape
    return x.reshape(*batch, T, H * D)


def merge_interleaved(x: np.ndarray) -> np.ndarray:
    """(..., H, T, D) merged with the head axis last, feature d·H + h: the inverse of split_interleaved."""
    *batch, H, T, D = x.shape
    return np.moveaxis(x, -3, -1).reshape(*batch, T, D * H)


def both_interleaved(call: Call[HeadsArgs], policy: Policy) -> Output | None:
    """Split and merge both interleaved: merge undoes split, so a round-trip test passes, yet no head
    holds its own contiguous features."""
    return in_split(split_interleaved)(call, policy) or in_merge(merge_interleaved)(call, policy)


def heads_reference(call: Call[HeadsArgs], policy: Policy) -> Output:
    match call.args:
        case (x, n_heads):  # split_heads
            return (engine.split_heads(x, n_heads),)
        case (x,):  # merge_heads
            return (engine.merge_heads(x),)


def in_split(split: Callable[[np.ndarray, int], np.ndarray]) -> Callable[[Call[HeadsArgs], Policy], Output | None]:
    """A mistake in split_heads only; calls of merge_heads behave correctly."""
    return lambda call, policy: (split(*call.args),) if len(call.args) == 2 else None


def in_merge(merge: Callable[[np.ndarray], np.ndarray]) -> Callable[[Call[HeadsArgs], Policy], Output | None]:
    """A mistake in merge_heads only; calls of split_heads behave correctly."""
    return lambda call, policy: (merge(*call.args),) if len(call.args) == 1 else None


def draw_heads(check: str, rng: np.random.Generator) -> list[ProbeSpec[HeadsArgs]]:
    T, H, D = int(rng.integers(4, 7)), 2, int(rng.integers(3, 5))
    match check:
        case "output":
            return [
                ProbeSpec((Call("split_heads", (normal(rng, T, H * D), H)),)),
                ProbeSpec((Call("merge_heads", (normal(rng, H, T, D),)),)),
            ]
        case "shapes":
            return [
                ProbeSpec((Call("split_heads", (normal(rng, 2, T, 3 * D), 3)),)),
                ProbeSpec((Call("merge_heads", (normal(rng, 2, 3, T, D),)),)),
            ]
    raise ValueError(f"split_merge_heads has no check {check!r}")


HEAD_MISTAKES = ("split_without_transpose", "split_interleaved", "merge_without_transpose", "merge_interleaved", "heads_interleaved_both")
SPLIT_MERGE_HEADS: Task[HeadsArgs] = Task(
    INTERFACES["split_merge_heads"],
    reference=heads_reference,
    draw=draw_heads,
    mistakes=(
        Mistake("split_without_transpose", in_split(split_reshaped)),
        Mistake("split_interleaved", in_split(split_interleaved)),
        Mistake("merge_without_transpose", in_merge(merge_reshaped)),
        Mistake("merge_interleaved", in_merge(merge_interleaved)),
        Mistake("heads_interleaved_both", both_interleaved),
    ),
    reveals={"output": HEAD_MISTAKES, "shapes": HEAD_MISTAKES},
)


def mha_args(call: Call[MhaArgs]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, bool]:
    """The call's arguments with causal (False, the default, where the call gives none)."""
    if len(call.args) == 7:
        return call.args
    return (*call.args, False)


def mha_reference(call: Call[MhaArgs], policy: Policy) -> Output:
    x, w_q, w_k, w_v, w_o, n_heads, causal = mha_args(call)
    return (engine.self_attention(x, w_q, w_k, w_v, w_o, n_heads, is_causal=causal),)


def mha(
    call: Call[MhaArgs],
    *,
    fault: Fault | None = None,
    causal: bool | None = None,
    split: Callable[[np.ndarray, int], np.ndarray] = engine.split_heads,
    merge: Callable[[np.ndarray], np.ndarray] = engine.merge_heads,
    project: bool = True,
) -> Output:
    """Multi-head self-attention from the engine's parts, with one part done wrong."""
    x, w_q, w_k, w_v, w_o, n_heads, is_causal = mha_args(call)
    heads = attend_heads(x, w_q, w_k, w_v, n_heads, split, is_causal if causal is None else causal, fault)  # (..., H, T, Dv)
    merged = merge(heads)  # (..., T, H·Dv)
    return (merged @ w_o if project else merged,)


@shared
def attend_heads(
    x: np.ndarray,
    w_q: np.ndarray,
    w_k: np.ndarray,
    w_v: np.ndarray,
    n_heads: int,
    split: Callable[[np.ndarray, int], np.ndarray],
    causal: bool,
    fault: Fault | None,
) -> np.ndarray:
    """Each head's attention output: shared by the mistakes that differ only after it (merge, projection)."""
    q, k, v = (project(x, w, n_heads, split) for w in (w_q, w_k, w_v))  # (..., H, T, D)
    return engine.attention(q, k, v, is_causal=causal, fault=fault).output


@shared
def project(x: np.ndarray, w: np.ndarray, n_heads: int, split: Callable[[np.ndarray, int], np.ndarray]) -> np.ndarray:
    """x projected by w and split into heads, (..., H, T, D): alike in every fault's run of a call."""
    return split(x @ w, n_heads)


def split_projections(x: np.ndarray, w_q: np.ndarray, w_k: np.ndarray, w_v: np.ndarray, n_heads: int) -> tuple[np.ndarray, ...]:
    """q, k and v, each (..., H, T, D), split correctly: where the mistakes below go wrong only later."""
    return tuple(project(x, w, n_heads, engine.split_heads) for w in (w_q, w_k, w_v))


def mha_mask(allowed: Callable[[int], np.ndarray]) -> Callable[[Call[MhaArgs], Policy], Output | None]:
    """Causal calls attended under another mask, `allowed(T)` (True for a key a query may see);
    a query with no allowed key gets NaN, as a plain softmax over all −∞ gives."""

    def run(call: Call[MhaArgs], policy: Policy) -> Output | None:
        x, w_q, w_k, w_v, w_o, n_heads, causal = mha_args(call)
        if not causal:
            return None
        mask = allowed(x.shape[-2])
        q, k, v = split_projections(x, w_q, w_k, w_v, n_heads)
        heads = engine.attention(q, k, v, attn_mask=mask).output
        heads = np.where(np.any(mask, axis=-1, keepdims=True), heads, np.nan)
        return (engine.merge_heads(heads) @ w_o,)

    return run


def mha_masked_after_softmax(call: Call[MhaArgs], policy: Policy) -> Output | None:
    """Causal calls whose weights are taken over every key and the future ones zeroed afterwards (X9)."""
    x, w_q, w_k, w_v, w_o, n_heads, causal = mha_args(call)
    if not causal:
        return None
    q, k, v = split_projections(x, w_q, w_k, w_v, n_heads)
    weights = engine.attention(q, k, v).weights * engine.causal_mask(x.shape[-2])
    return (engine.merge_heads(weights @ v) @ w_o,)


def mha_fault(which: Fault) -> Mistake[MhaArgs]:
    return Mistake(which.value, lambda call, policy: mha(call, fault=which))


def mha_inputs(
    rng: np.random.Generator, T: int, d_model: int, n_heads: int, v_width: int, batch: tuple[int, ...] = ()
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """x and projections whose per-head scaled scores are lively; entries of Q and K near unit variance."""
    while True:
        x = normal(rng, *batch, T, d_model)
        w_q, w_k = (normal(rng, d_model, d_model) / math.sqrt(d_model) for _ in range(2))
        q, k = (engine.split_heads(x @ w, n_heads) for w in (w_q, w_k))
        if lively(q @ k.swapaxes(-2, -1) / math.sqrt(d_model // n_heads)):
            break
    w_v = normal(rng, d_model, v_width) / math.sqrt(d_model)
    w_o = normal(rng, v_width, d_model) / math.sqrt(v_width)
    return x, w_q, w_k, w_v, w_o


LARGE_SCORE_OFFSET = 1000.0  # past exp's range in float64 too: an unshifted softmax gives NaN in any precision


def mha_large_score_inputs(
    rng: np.random.Generator, T: int, d_model: int = 8, n_heads: int = 2
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """float32 x and projections whose every head's scaled scores are lively plus a common 1000.

    The last feature of x is a constant c; W_Q and W_K map it, and nothing else, to the last
    feature of every head, so each score gains c²/√D whatever the pair: a shift of every row,
    which leaves the softmax unchanged (C2) but overflows an unshifted exp (E6).
    """
    D = d_model // n_heads
    c = math.sqrt(LARGE_SCORE_OFFSET * math.sqrt(D))
    shifted = np.arange(D - 1, d_model, D)  # the last feature of each head
    x, w_q, w_k, w_v, w_o = mha_inputs(rng, T, d_model, n_heads, d_model)
    x[:, -1] = c
    for w in (w_q, w_k):
        w[:, shifted] = 0.0
        w[-1, :] = 0.0
        w[-1, shifted] = 1.0
    w_v[-1, :] = 0.0  # the constant feature carries no value
    return tuple(a.astype(np.float32) for a in (x, w_q, w_k, w_v, w_o))  # type: ignore[return-value]


def mha_unstable(call: Call[MhaArgs], policy: Policy) -> Output:
    """Every head's softmax without subtracting the row maximum, in the inputs' precision (E6, X4)."""
    x, w_q, w_k, w_v, w_o, n_heads, causal = mha_args(call)
    q, k, v = split_projections(x, w_q, w_k, w_v, n_heads)
    masked = engine.attention(q, k, v, is_causal=causal).masked.astype(input_precision(x, w_q), copy=False)
    return (engine.merge_heads(engine.naive_softmax(masked) @ v) @ w_o,)


def draw_mha(check: str, rng: np.random.Generator) -> list[ProbeSpec[MhaArgs]]:
    T = int(rng.integers(4, 7))
    match check:
        case "output":  # plain and causal: the causal output is compared with the engine's here, leaks apart
            return [
                ProbeSpec((Call("multi_head_attention", (*mha_inputs(rng, T, 8, 2, 8), 2)),)),
                ProbeSpec((Call("multi_head_attention", (*mha_inputs(rng, T, 8, 2, 8), 2, True)),)),
            ]
        case "shapes":
            return [ProbeSpec((Call("multi_head_attention", (*mha_inputs(rng, T, 12, 3, 9, batch=(2,)), 3)),))]
        case "causal_leak":
            inputs = mha_inputs(rng, T + 1, 8, 2, 8)
            x, weights = inputs[0], inputs[1:]
            after = int(rng.integers(1, T))
            changed = x.copy()
            changed[after + 1 :] = normal(rng, T - after, 8)
            calls = (Call("multi_head_attention", (x, *weights, 2, True)), Call("multi_head_attention", (changed, *weights, 2, True)))
            return [ProbeSpec(calls, NoLeak(after=after))]
        case "large_scores":
            return [ProbeSpec((Call("multi_head_attention", (*mha_large_score_inputs(rng, T), 2)),))]
    raise ValueError(f"multi_head_attention has no check {check!r}")


MHA_MISTAKES = (
    "scale_by_d_model",
    "missing_scale",
    "double_scale",
    "heads_not_split",
    "softmax_over_queries",
    "split_without_transpose",
    "merge_without_transpose",
    "no_output_projection",
)
MHA_CAUSAL_MISTAKES = ("no_causal_mask", "causal_mask_strict", "causal_mask_self_only", "causal_mask_transposed", "mask_after_softmax")
MULTI_HEAD_ATTENTION: Task[MhaArgs] = Task(
    INTERFACES["multi_head_attention"],
    reference=mha_reference,
    draw=draw_mha,
    mistakes=(
        mha_fault(Fault.scale_by_d_model),
        mha_fault(Fault.missing_scale),
        mha_fault(Fault.double_scale),
        mha_fault(Fault.heads_not_split),
        mha_fault(Fault.softmax_over_queries),
        Mistake("no_causal_mask", lambda call, policy: mha(call, causal=False) if mha_args(call)[-1] else None),
        Mistake("split_without_transpose", lambda call, policy: mha(call, split=split_reshaped)),
        Mistake("merge_without_transpose", lambda call, policy: mha(call, merge=merge_reshaped)),
        Mistake("no_output_projection", lambda call, policy: mha(call, project=False)),
        Mistake("causal_mask_strict", mha_mask(lambda T: np.tril(np.ones((T, T), dtype=bool), -1))),
        Mistake("causal_mask_self_only", mha_mask(lambda T: np.eye(T, dtype=bool))),
        Mistake("causal_mask_transposed", mha_mask(lambda T: np.triu(np.ones((T, T), dtype=bool)))),
        Mistake("mask_after_softmax", mha_masked_after_softmax),
        Mistake("unstable_softmax", mha_unstable),
    ),
    reveals={
        "output": (*MHA_MISTAKES, *MHA_CAUSAL_MISTAKES),
        "shapes": MHA_MISTAKES,
        "causal_leak": ("no_causal_mask", "causal_mask_transposed", "mask_after_softmax"),
        "large_scores": ("unstable_softmax",),
    },
)


def gqa_fault(which: Fault) -> Mistake[QKV]:
    return Mistake(which.value, lambda call, policy: (engine.attention(*call.args, enable_gqa=True, fault=which).output,))


def tiled(call: Call[QKV], policy: Policy) -> Output:
    """Key/value heads tiled as a whole (0, 1, 0, 1, …) rather than each repeated (0, 0, 1, 1, …)."""
    q, k, v = call.args
    reps = (1,) * (k.ndim - 3) + (q.shape[-3] // k.shape[-3], 1, 1)
    return (engine.scaled_dot_product_attention(q, np.tile(k, reps), np.tile(v, reps)),)


def first_kv_head(call: Call[QKV], policy: Policy) -> Output:
    """Every query head reads key/value head 0, as if the heads were multi-query: the same when there is one."""
    q, k, v = call.args
    return (engine.scaled_dot_product_attention(q, k[..., :1, :, :], v[..., :1, :, :], enable_gqa=True),)


def gqa_by_value_width(call: Call[QKV], policy: Policy) -> Output | None:
    """Scores divided by √Ev instead of √E: the same where the two widths agree."""
    q, k, v = call.args
    if q.shape[-1] == v.shape[-1]:
        return None
    return (engine.scaled_dot_product_attention(q, k, v, scale=1 / np.sqrt(v.shape[-1]), enable_gqa=True),)


def gqa_unstable(call: Call[QKV], policy: Policy) -> Output:
    """exp without subtracting the row maximum, in the inputs' precision: overflow gives NaN (E6, X4)."""
    q, k, v = call.args
    groups = q.shape[-3] // k.shape[-3]
    k_all, v_all = (engine.repeat_kv_heads(x.astype(np.float64), groups) for x in (k, v))
    scaled = (q.astype(np.float64) @ k_all.swapaxes(-2, -1) / np.sqrt(q.shape[-1])).astype(input_precision(q, k))
    return (engine.naive_softmax(scaled) @ v_all,)


def draw_gqa(check: str, rng: np.random.Generator) -> list[ProbeSpec[QKV]]:
    L, S = int(rng.integers(3, 6)), int(rng.integers(5, 8))

    def call(q_shape: tuple[int, ...], k_shape: tuple[int, ...], ev: int) -> ProbeSpec[QKV]:
        q, k = lively_qk(rng, q_shape, k_shape)
        return ProbeSpec((Call("gqa_attention", (q, k, normal(rng, *k_shape[:-1], ev))),))

    match check:
        case "output":
            return [call((4, L, 4), (2, S, 4), 4)]
        case "shapes":
            return [call((2, 6, L, 8), (2, 2, S, 8), 5)]
        case "large_scores":
            return [ProbeSpec((Call("gqa_attention", qkv),)) for qkv in large_score_inputs(rng, (4,), (2,))]
    raise ValueError(f"gqa_attention has no check {check!r}")


GQA_MISTAKES = ("gqa_tiled", "gqa_first_kv_head", "missing_scale", "double_scale", "softmax_over_queries")
GQA_ATTENTION: Task[QKV] = Task(
    INTERFACES["gqa_attention"],
    reference=lambda call, policy: (engine.scaled_dot_product_attention(*call.args, enable_gqa=True),),
    draw=draw_gqa,
    mistakes=(
        Mistake("gqa_tiled", tiled),
        Mistake("gqa_first_kv_head", first_kv_head),
        gqa_fault(Fault.missing_scale),
        gqa_fault(Fault.double_scale),
        gqa_fault(Fault.softmax_over_queries),
        Mistake("scale_by_value_dim", gqa_by_value_width),
        Mistake("unstable_softmax", gqa_unstable),
    ),
    reveals={"output": GQA_MISTAKES, "shapes": (*GQA_MISTAKES, "scale_by_value_dim"), "large_scores": ("unstable_softmax",)},
)
