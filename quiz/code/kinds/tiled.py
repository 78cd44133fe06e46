"""A FlashAttention-style causal forward pass: `tiled_causal_attention(q, k, v, block_q, block_k)` →
(O, lse), query tiles × key tiles with an online softmax, keeping one log-sum-exp per row for the
backward pass (Y13, X8). Both must equal the engine's (engine.tiled_attention)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

import engine
from engine import mistakes as engine_mistakes
from engine.online import online_softmax_step
from engine.tiled import run_tiles, tile_above_diagonal
from quiz.code.compare import Output
from quiz.code.inputs import clear_of_float16_overflow, lively_qk, normal, with_offset
from quiz.code.interfaces import INTERFACES
from quiz.code.kinds.attention import input_precision
from quiz.code.probes import NoLeak, ProbeSpec
from quiz.code.sandbox import Call
from quiz.code.shared import shared
from quiz.code.spec import Mistake, Policy, Task

TiledArgs = tuple[np.ndarray, np.ndarray, np.ndarray, int, int]
"""tiled_causal_attention's arguments: q, k (..., T, E), v (..., T, Ev), block_q and block_k."""
Step = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]]


def pair(result: engine.TiledAttention) -> Output:
    return result.output, result.lse


@shared
def tiled_reference(call: Call[TiledArgs], policy: Policy) -> Output:
    """The engine's O and lse: once per probe call, for the mistake that shifts the lse."""
    return pair(engine.tiled_attention(*call.args, causal=True))


def step_without_rescaling_the_output(
    running_max: np.ndarray, running_sum: np.ndarray, unnormalised: np.ndarray, scores: np.ndarray, values: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The online softmax step with the accumulated output not multiplied by exp(m_old − m_new)."""
    new_max, new_sum, _ = online_softmax_step(running_max, running_sum, unnormalised, scores, values)
    return new_max, new_sum, unnormalised + np.exp(scores - new_max) @ values


def unshifted_step(dtype: np.dtype) -> Step:
    """The step with exp of the raw scores in the inputs' precision: no running max at all, so exp overflows."""

    def step(
        running_max: np.ndarray, running_sum: np.ndarray, unnormalised: np.ndarray, scores: np.ndarray, values: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        exp_scores = np.exp(scores.astype(dtype)).astype(np.float64)  # masked −∞ still gives 0
        zero = np.zeros_like(running_max)  # m stays 0: lse = log l
        return zero, running_sum + exp_scores.sum(axis=-1, keepdims=True), unnormalised + exp_scores @ values

    return step


def with_step(call: Call[TiledArgs], step: Step, scale: float | None = None) -> Output:
    """The correct causal tile loop with `step` in place of the online softmax's."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # inf and NaN from an unshifted exp are the point
        return pair(run_tiles(*call.args, True, scale, tile_above_diagonal, step))


def without_diagonal_mask(call: Call[TiledArgs], policy: Policy) -> Output:
    """Tiles wholly above the diagonal skipped, but the ones crossing it scored whole: row i sees every key
    of the key tiles that start at or before its query tile's last row, some after i."""
    q, k, v, block_q, block_k = call.args
    T = q.shape[-2]
    rows, keys = np.arange(T), np.arange(T)
    last_row = np.minimum((rows // block_q + 1) * block_q, T) - 1  # (T,) the last row of each row's query tile
    allowed = (keys // block_k * block_k)[None, :] <= last_row[:, None]  # (T, T) the key tile starts by then
    return dense(q, k, v, allowed)


def dense(q: np.ndarray, k: np.ndarray, v: np.ndarray, allowed: np.ndarray) -> Output:
    """Attention and each row's log-sum-exp over the allowed scaled scores, in one piece."""
    scores = (q.astype(np.float64) @ k.astype(np.float64).swapaxes(-2, -1)) / math.sqrt(q.shape[-1])
    masked = np.where(allowed, scores, -np.inf)
    top = masked.max(axis=-1, keepdims=True)
    exp_scores = np.exp(masked - top)
    total = exp_scores.sum(axis=-1, keepdims=True)
    return (exp_scores / total) @ v.astype(np.float64), (top + np.log(total))[..., 0]


def lse_without_max(call: Call[TiledArgs], policy: Policy) -> Output:
    """lse = log l, the log of the running sum without the running max m it was taken relative to."""
    q, k, _, _, _ = call.args
    output, lse = tiled_reference(call, policy)
    scores = (q.astype(np.float64) @ k.astype(np.float64).swapaxes(-2, -1)) / math.sqrt(q.shape[-1])
    row_max = np.where(np.tri(q.shape[-2], dtype=bool), scores, -np.inf).max(axis=-1)  # (..., T) the final m
    return output, lse - row_max


def blocks(rng: np.random.Generator) -> tuple[int, int, int]:
    """Block sizes of 2 to 4 and a length T that is a multiple of neither, so the last tiles are shorter."""
    block_q, block_k = int(rng.integers(2, 4)), int(rng.integers(2, 5))
    T = int(rng.integers(7, 11))
    while T % block_q == 0 or T % block_k == 0:
        T += 1
    return block_q, block_k, T


def leak_probe(rng: np.random.Generator) -> ProbeSpec[TiledArgs]:
    """The same call twice, every input changed after a position inside a query tile (X10)."""
    block_q, block_k, T = blocks(rng)
    q, k = lively_qk(rng, (T, 4), (T, 4))
    v = normal(rng, T, 3)
    after = int(rng.integers(1, T - 1))
    while (after + 1) % block_q == 0 or (after + 1) % block_k == 0:  # a position before the end of its tiles
        after = int(rng.integers(1, T - 1))

    def changed(x: np.ndarray) -> np.ndarray:
        x = x.copy()
        x[after + 1 :] = normal(rng, T - after - 1, x.shape[-1])
        return x

    calls = (
        Call("tiled_causal_attention", (q, k, v, block_q, block_k), returns=2),
        Call("tiled_causal_attention", (changed(q), changed(k), changed(v), block_q, block_k), returns=2),
    )
    return ProbeSpec(calls, NoLeak(after=after))


def large_score_inputs(rng: np.random.Generator) -> list[TiledArgs]:
    """float32 q, k, v with causal scaled scores near 1000, float16 ones near 15: past exp's range in every row."""
    block_q, block_k, T = blocks(rng)
    q, k = lively_qk(rng, (T, 4), (T, 4))
    q32, k32 = (x.astype(np.float32) for x in with_offset(q, k, 1000.0))
    causal = np.tri(T, dtype=bool)
    while True:
        q, k = lively_qk(rng, (T, 4), (T, 4))
        q16, k16 = (x.astype(np.float16) for x in with_offset(q, k, 15.0))
        scaled = q16.astype(np.float64) @ k16.astype(np.float64).T / math.sqrt(q16.shape[-1])
        if clear_of_float16_overflow(np.where(causal, scaled, -np.inf)):
            break
    return [
        (q32, k32, normal(rng, T, 3).astype(np.float32), block_q, block_k),
        (q16, k16, normal(rng, T, 3).astype(np.float16), block_q, block_k),
    ]


def draw_tiled(check: str, rng: np.random.Generator) -> list[ProbeSpec[TiledArgs]]:
    def call(args: TiledArgs) -> ProbeSpec[TiledArgs]:
        return ProbeSpec((Call("tiled_causal_attention", args, returns=2),))

    block_q, block_k, T = blocks(rng)
    match check:
        case "output":
            q, k = lively_qk(rng, (T, 4), (T, 4))
            return [call((q, k, normal(rng, T, 4), block_q, block_k))]
        case "shapes":
            q, k = lively_qk(rng, (2, 2, T, 8), (2, 2, T, 8))
            return [call((q, k, normal(rng, 2, 2, T, 5), block_q, block_k))]
        case "causal_leak":
            return [leak_probe(rng)]
        case "large_scores":
            return [call(args) for args in large_score_inputs(rng)]
    raise ValueError(f"tiled_attention has no check {check!r}")


TILED_MISTAKES = (
    "tiled_sum_not_rescaled",
    "tiled_output_not_rescaled",
    "tiled_skips_diagonal_tiles",
    "tiled_no_mask_in_diagonal_tiles",
    "tiled_lse_without_max",
    "missing_scale",
)
TILED_ATTENTION: Task[TiledArgs] = Task(
    INTERFACES["tiled_attention"],
    reference=tiled_reference,
    draw=draw_tiled,
    mistakes=(
        Mistake("tiled_sum_not_rescaled", lambda c, p: pair(engine_mistakes.tiled_attention_without_rescaling_the_sum(*c.args, causal=True))),
        Mistake("tiled_output_not_rescaled", lambda c, p: with_step(c, step_without_rescaling_the_output)),
        Mistake("tiled_skips_diagonal_tiles", lambda c, p: pair(engine_mistakes.tiled_attention_skipping_diagonal_tiles(*c.args))),
        Mistake("tiled_no_mask_in_diagonal_tiles", without_diagonal_mask),
        Mistake("tiled_lse_without_max", lse_without_max),
        Mistake("missing_scale", lambda c, p: pair(engine.tiled_attention(*c.args, causal=True, scale=1.0))),
        Mistake("unstable_softmax", lambda c, p: with_step(c, unshifted_step(input_precision(c.args[0], c.args[1])))),
    ),
    reveals={
        "output": TILED_MISTAKES,
        "shapes": TILED_MISTAKES,
        "causal_leak": ("tiled_no_mask_in_diagonal_tiles",),
        "large_scores": ("unstable_softmax",),
    },
)
