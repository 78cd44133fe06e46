"""Online softmax over key blocks: `online_attention(q, k, v, block_size)`, FlashAttention's running
max and sum (X8). The result must equal the full softmax attention's."""

from __future__ import annotations

import numpy as np

import engine
from quiz.code.compare import Output
from quiz.code.inputs import lively_qk, normal
from quiz.code.interfaces import INTERFACES
from quiz.code.kinds.attention import input_precision, large_score_inputs
from quiz.code.probes import ProbeSpec
from quiz.code.sandbox import Call
from quiz.code.shared import shared
from quiz.code.spec import Mistake, Policy, Task

OnlineArgs = tuple[np.ndarray, np.ndarray, np.ndarray, int]
"""online_attention's arguments: q, k, v and the block size."""


def online_reference(call: Call[OnlineArgs], policy: Policy) -> Output:
    return (engine.blockwise_attention(*call.args),)


def flawed_online(
    call: Call[OnlineArgs],
    *,
    rescale_sum: bool = True,
    rescale_output: bool = True,
    drop_last: bool = False,
    shift: bool = True,
) -> Output:
    """The block loop with one of its steps left out, as a candidate's loop would leave it out.

    Without `shift` the exponentials are taken of the raw scores, in the inputs' precision.
    """
    q, k, v, block = call.args
    S = k.shape[-2]
    stop = S - S % block if drop_last and S % block else S
    running_sum = np.zeros((*q.shape[:-1], 1))
    out = np.zeros((*q.shape[:-1], v.shape[-1]))
    with np.errstate(over="ignore", invalid="ignore"):
        for _, (factor, exp_sum, weighted) in zip(range(0, stop, block), block_terms(q, k, v, block, shift)):
            running_sum = running_sum * (factor if rescale_sum else 1.0) + exp_sum
            out = out * (factor if rescale_output else 1.0) + weighted
        return (out / running_sum,)


@shared
def block_terms(q: np.ndarray, k: np.ndarray, v: np.ndarray, block: int, shift: bool) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Each key block's rescaling factor, sum of exponentials and exponentials times values.

    They depend only on whether the scores are shifted, not on which step a flawed loop leaves
    out, so the loops of one call share them.
    """
    dtype = input_precision(q, k) if not shift else np.float64
    running_max = np.full((*q.shape[:-1], 1), -np.inf)
    terms = []
    with np.errstate(over="ignore", invalid="ignore"):
        for start, scores in zip(range(0, k.shape[-2], block), block_scores(q, k, block)):
            values = v[..., start : start + block, :]
            new_max = np.maximum(running_max, scores.max(axis=-1, keepdims=True)) if shift else np.zeros_like(running_max)
            factor = np.exp(running_max - new_max) if shift else np.ones_like(running_max)
            exp_scores = np.exp((scores - new_max).astype(dtype)).astype(np.float64)
            terms.append((factor, exp_scores.sum(axis=-1, keepdims=True), exp_scores @ values))
            running_max = new_max
    return terms


@shared
def block_scores(q: np.ndarray, k: np.ndarray, block: int) -> list[np.ndarray]:
    """Each key block's scaled scores in float64, (..., L, block): alike in every flawed loop of a call."""
    scale = 1.0 / np.sqrt(q.shape[-1])
    return [
        (q.astype(np.float64) @ k[..., start : start + block, :].astype(np.float64).swapaxes(-2, -1)) * scale
        for start in range(0, k.shape[-2], block)
    ]


def draw_online(check: str, rng: np.random.Generator) -> list[ProbeSpec[OnlineArgs]]:
    block = int(rng.integers(2, 4))
    S = 3 * block + 1  # not a multiple of the block size: the last block is shorter

    def call(q_shape: tuple[int, ...], k_shape: tuple[int, ...], ev: int) -> ProbeSpec[OnlineArgs]:
        q, k = lively_qk(rng, q_shape, k_shape)
        return ProbeSpec((Call("online_attention", (q, k, normal(rng, *k_shape[:-1], ev), block)),))

    match check:
        case "output":
            return [call((4, 4), (S, 4), 3)]
        case "shapes":
            return [call((2, 2, 5, 8), (2, 2, S + 1, 8), 5)]
        case "large_scores":
            return [ProbeSpec((Call("online_attention", (*qkv, 2)),)) for qkv in large_score_inputs(rng)]
    raise ValueError(f"online_attention has no check {check!r}")


ONLINE_MISTAKES = (
    "online_no_rescale",
    "online_sum_not_rescaled",
    "online_output_not_rescaled",
    "online_drops_last_block",
    "missing_scale",
)
ONLINE_ATTENTION: Task[OnlineArgs] = Task(
    INTERFACES["online_attention"],
    reference=online_reference,
    draw=draw_online,
    mistakes=(
        Mistake("online_no_rescale", lambda c, p: flawed_online(c, rescale_sum=False, rescale_output=False)),
        Mistake("online_sum_not_rescaled", lambda c, p: flawed_online(c, rescale_sum=False)),
        Mistake("online_output_not_rescaled", lambda c, p: flawed_online(c, rescale_output=False)),
        Mistake("online_drops_last_block", lambda c, p: flawed_online(c, drop_last=True)),
        Mistake("missing_scale", lambda c, p: (engine.blockwise_attention(*c.args, scale=1.0),)),
        Mistake("unstable_softmax", lambda c, p: flawed_online(c, shift=False)),
    ),
    reveals={"output": ONLINE_MISTAKES, "shapes": ONLINE_MISTAKES, "large_scores": ("unstable_softmax",)},
)
