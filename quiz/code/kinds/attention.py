"""implement-sdpa: `attention(q, k, v, mask=None)`, scaled dot-product attention with an optional mask.

q (..., L, E), k (..., S, E), v (..., S, Ev) → (..., L, Ev). mask is boolean (True where a query
may attend) or, where the question says so, float (added to the scaled scores), broadcastable to
(..., L, S). A row with no allowed key gives the policy's result: zeros (PyTorch ≥ 2.5) or NaN.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

import engine
from engine import Fault
from quiz.code.compare import Output
from quiz.code.inputs import allowed_mask, clear_of_float16_overflow, lively_qk, normal, with_offset
from quiz.code.interfaces import INTERFACES
from quiz.code.probes import NoLeak, ProbeSpec, RowsMatchEngine
from quiz.code.sandbox import Call
from quiz.code.shared import shared
from quiz.code.spec import Mistake, Policy, Task

MASKED_FILL = -1e9  # what a careless implementation writes for "minus infinity"

QKV = tuple[np.ndarray, np.ndarray, np.ndarray]
AttentionArgs = QKV | tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""attention's arguments: q, k, v, and the mask where the probe has one."""


def attention_call(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None = None) -> Call[AttentionArgs]:
    """A call of attention, the mask left out (not passed as None) where there is none."""
    return Call("attention", (q, k, v) if mask is None else (q, k, v, mask))


def unpack(call: Call[AttentionArgs]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """q, k, v and the mask (None where the call has none)."""
    if len(call.args) == 4:
        return call.args
    q, k, v = call.args
    return q, k, v, None


def with_mask(call: Call[AttentionArgs], mask: np.ndarray | None) -> Call[AttentionArgs]:
    """The call with `mask` in place of its own."""
    q, k, v, _ = unpack(call)
    return attention_call(q, k, v, mask)


def attend(
    call: Call[AttentionArgs], policy: Policy, *, empty_rows: str | None = None, fault: Fault | None = None
) -> engine.AttentionTrace:
    """The engine's trace for the call's q, k, v and mask, under `empty_rows` (default: the policy's) and `fault`."""
    q, k, v, mask = unpack(call)
    stated = policy.get("empty_rows", "zero")
    if empty_rows is not None and empty_rows != stated:
        trace = _trace(q, k, v, mask, stated, fault)
        if not np.isneginf(trace.masked).all(axis=-1).any():
            return trace  # the policy acts only on rows with no allowed key: without one, every policy is the same run
    return _trace(q, k, v, mask, stated if empty_rows is None else empty_rows, fault)


@shared
def _trace(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray | None, empty_rows: str, fault: Fault | None) -> engine.AttentionTrace:
    """engine.attention on these arrays: once per probe call for the mistakes that run it alike."""
    return engine.attention(q, k, v, attn_mask=mask, empty_rows=empty_rows, fault=fault)


def reference(call: Call[AttentionArgs], policy: Policy) -> Output:
    """The engine's output under the stated policy, from the trace that several mistakes start from.

    engine.attention's output equals scaled_dot_product_attention's (the engine's tests compare
    their weights element by element); mistakes that behave alike on a call give this very array.
    """
    return (attend(call, policy).output,)


def fault(which: Fault) -> Mistake[AttentionArgs]:
    """A mistake the engine models as a Fault of its pipeline."""
    return Mistake(which.value, lambda call, policy: (attend(call, policy, fault=which).output,))


def input_precision(*arrays: np.ndarray) -> np.dtype:
    """The lowest floating precision among the inputs: what a candidate's arithmetic stays in."""
    return min((a.dtype for a in arrays if a.dtype.kind == "f"), key=lambda d: d.itemsize)  # kind "f": np.floating, cheaper to ask


def unstable(call: Call[AttentionArgs], policy: Policy) -> Output:
    """exp without subtracting the row maximum, in the inputs' precision: overflow gives NaN (E6, X4)."""
    q, k, v, _ = unpack(call)
    trace = attend(call, policy)
    masked = trace.masked.astype(input_precision(q, k), copy=False)
    return (engine.naive_softmax(masked) @ v,)


def ignores_mask(call: Call[AttentionArgs], policy: Policy) -> Output | None:
    if unpack(call)[3] is None:
        return None
    return (attend(with_mask(call, None), policy).output,)


def inverts_mask(call: Call[AttentionArgs], policy: Policy) -> Output | None:
    """Attention where the mask forbids. Only the output is needed, and no other mistake runs on
    this mask: the engine's scaled_dot_product_attention, equal to its trace's output bit for bit."""
    q, k, v, mask = unpack(call)
    if mask is None or mask.dtype != bool:
        return None
    return (engine.scaled_dot_product_attention(q, k, v, ~mask, empty_rows=policy.get("empty_rows", "zero")),)


def transposes_mask(call: Call[AttentionArgs], policy: Policy) -> Output | None:
    """A boolean mask read along the wrong axis, query i taking column i: a causal mask becomes 'the future'.

    Where the swapped mask does not broadcast to the scores, the candidate's call fails instead.
    """
    q, k, _, mask = unpack(call)
    if mask is None or mask.dtype != bool:
        return None
    swapped = mask.swapaxes(-1, -2)
    scores_shape = (*q.shape[:-1], k.shape[-2])
    try:
        fits = np.broadcast_shapes(swapped.shape, scores_shape) == scores_shape
    except ValueError:
        fits = False
    if not fits or np.array_equal(np.broadcast_to(swapped, scores_shape), np.broadcast_to(mask, scores_shape)):
        return None
    return (attend(with_mask(call, swapped), policy).output,)


def masks_after_softmax(call: Call[AttentionArgs], policy: Policy) -> Output | None:
    """Weights over every key, then forbidden ones zeroed: rows no longer sum to 1 (X9)."""
    _, _, v, mask = unpack(call)
    if mask is None or mask.dtype != bool:
        return None
    return ((attend(with_mask(call, None), policy).weights * mask) @ v,)


def masks_before_scale(call: Call[AttentionArgs], policy: Policy) -> Output | None:
    """A float mask added to Q Kᵀ before the scale, so the bias is scaled too: (s + m)/√E."""
    q, _, _, mask = unpack(call)
    if mask is None or mask.dtype == bool:
        return None
    return (attend(with_mask(call, mask / np.sqrt(q.shape[-1])), policy).output,)


def scales_by_value_width(call: Call[AttentionArgs], policy: Policy) -> Output | None:
    """Scores divided by √Ev, the width of v, instead of √E: the same where the two widths agree."""
    q, k, v, mask = unpack(call)
    if q.shape[-1] == v.shape[-1]:
        return None
    return (engine.attention(q, k, v, attn_mask=mask, scale=1 / np.sqrt(v.shape[-1]), empty_rows=policy.get("empty_rows", "zero")).output,)


def fills_large_negative(call: Call[AttentionArgs], policy: Policy) -> Output | None:
    """Forbidden scores set to −1e9 instead of −∞: a row with no allowed key becomes uniform."""
    trace = attend(call, policy)
    if not (~trace.allowed).all(axis=-1).any():
        return None
    filled = np.where(np.isneginf(trace.masked), MASKED_FILL, trace.masked)
    return (engine.softmax(filled) @ unpack(call)[2],)


MISTAKES: tuple[Mistake[AttentionArgs], ...] = (
    fault(Fault.missing_scale),
    fault(Fault.double_scale),
    fault(Fault.softmax_over_queries),
    Mistake("scale_by_value_dim", scales_by_value_width),
    Mistake("no_causal_mask", ignores_mask),
    Mistake("mask_inverted", inverts_mask),
    Mistake("mask_transposed", transposes_mask),
    Mistake("mask_after_softmax", masks_after_softmax),
    Mistake("mask_before_scale", masks_before_scale),
    Mistake("empty_rows_nan", lambda c, p: (attend(c, p, empty_rows="nan").output,), lambda p: p["empty_rows"] == "zero"),
    Mistake("empty_rows_zero", lambda c, p: (attend(c, p, empty_rows="zero").output,), lambda p: p["empty_rows"] == "nan"),
    Mistake("empty_rows_uniform", fills_large_negative),
    Mistake("unstable_softmax", unstable),
)


def large_score_inputs(rng: np.random.Generator, q_heads: tuple[int, ...] = (), kv_heads: tuple[int, ...] = ()) -> list[QKV]:
    """float32 q, k, v whose scaled scores sit near 1000, and float16 ones near 15 (both past exp's range).

    1000 overflows exp in float64 too, so a candidate who computes in a higher precision still
    shows an unshifted softmax; 15 is past float16's 11.09. `q_heads` and `kv_heads` are leading
    axes, (H,) and (G,) for grouped heads; with none, q is (L, E) and k (S, E).
    """
    q, k = lively_qk(rng, (*q_heads, 5, 4), (*kv_heads, 6, 4))
    v = normal(rng, *kv_heads, 6, 3)
    q32, k32 = (x.astype(np.float32) for x in with_offset(q, k, 1000.0))
    groups = q_heads[0] // kv_heads[0] if q_heads else 1
    while True:
        q, k = lively_qk(rng, (*q_heads, 4, 4), (*kv_heads, 6, 4))
        q16, k16 = (x.astype(np.float16) for x in with_offset(q, k, 15.0))
        k_all = engine.repeat_kv_heads(k16, groups) if q_heads else k16
        scaled = q16.astype(np.float64) @ k_all.astype(np.float64).swapaxes(-2, -1) / np.sqrt(q16.shape[-1])
        if clear_of_float16_overflow(scaled):
            break
    return [(q32, k32, v.astype(np.float32)), (q16, k16, normal(rng, *kv_heads, 6, 3).astype(np.float16))]


def leak_probe(rng: np.random.Generator) -> ProbeSpec[AttentionArgs]:
    """The causal-leak test (X10): the same causally masked call twice, every input changed after position t."""
    L = int(rng.integers(5, 8))
    q, k = lively_qk(rng, (L, 4), (L, 4))
    v = normal(rng, L, 4)
    after = int(rng.integers(1, L - 1))

    def changed(x: np.ndarray) -> np.ndarray:
        x = x.copy()
        x[after + 1 :] = normal(rng, L - after - 1, 4)
        return x

    mask = engine.causal_mask(L)
    calls = (attention_call(q, k, v, mask), attention_call(changed(q), changed(k), changed(v), mask))
    return ProbeSpec(calls, NoLeak(after=after))


def draw(check: str, rng: np.random.Generator) -> list[ProbeSpec[AttentionArgs]]:
    def call(q_shape: tuple[int, ...], k_shape: tuple[int, ...], ev: int, mask: np.ndarray | None = None) -> ProbeSpec[AttentionArgs]:
        q, k = lively_qk(rng, q_shape, k_shape)
        v = normal(rng, *k_shape[:-1], ev)
        return ProbeSpec((attention_call(q, k, v, mask),))

    L, E = int(rng.integers(4, 7)), int(rng.choice([4, 8]))
    match check:
        case "output":
            return [call((L, E), (L, E), E)]
        case "shapes":
            return [call((2, 3, L, 8), (2, 3, L + 2, 8), 5)]
        case "boolean_mask":
            return [
                call((L, E), (L + 1, E), 3, allowed_mask(rng, L, L + 1)),
                call((2, 2, L, E), (2, 2, 6, E), 3, allowed_mask(rng, 2, 1, 1, 6)),
            ]
        case "additive_mask":
            bias = np.where(allowed_mask(rng, L, L + 1), 0.5 * normal(rng, L, L + 1), -np.inf)
            return [call((L, E), (L + 1, E), 3, bias)]
        case "fully_masked_rows":
            mask = allowed_mask(rng, L, L + 1)
            empty = np.sort(rng.choice(L, size=2, replace=False))
            mask[empty] = False
            # Only those rows are judged: the others are the output check's (a missing scale fails it, not this).
            return [replace(call((L, E), (L + 1, E), 3, mask), criterion=RowsMatchEngine(tuple(int(row) for row in empty)))]
        case "causal_leak":
            return [leak_probe(rng)]
        case "large_scores":
            return [ProbeSpec((attention_call(*qkv),)) for qkv in large_score_inputs(rng)]
    raise ValueError(f"attention has no check {check!r}")


TASK: Task[AttentionArgs] = Task(
    INTERFACES["attention"],
    reference=reference,
    draw=draw,
    mistakes=MISTAKES,
    reveals={
        "output": ("missing_scale", "double_scale", "softmax_over_queries"),
        "shapes": ("missing_scale", "double_scale", "softmax_over_queries", "scale_by_value_dim"),
        "boolean_mask": ("no_causal_mask", "mask_inverted", "mask_after_softmax", "scale_by_value_dim"),
        "additive_mask": ("no_causal_mask", "mask_before_scale"),
        "fully_masked_rows": ("empty_rows_nan", "empty_rows_zero", "empty_rows_uniform"),
        "causal_leak": ("no_causal_mask", "mask_inverted", "mask_transposed", "mask_after_softmax"),
        "large_scores": ("unstable_softmax",),
    },
    only_with={"mask_before_scale": ("additive_mask",)},
)
