"""`attention_backward(q, k, v, grad_out)` → (dq, dk, dv): the gradients of Σ output ⊙ grad_out."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import engine
from engine import Fault
from quiz.code.compare import Output
from quiz.code.inputs import lively_qk, normal
from quiz.code.interfaces import INTERFACES
from quiz.code.probes import ProbeSpec
from quiz.code.sandbox import Call
from quiz.code.shared import shared
from quiz.code.spec import Mistake, Policy, Task

BackwardArgs = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""attention_backward's arguments: q, k, v and grad_out."""


@shared
def backward_reference(call: Call[BackwardArgs], policy: Policy) -> Output:
    """The engine's gradients: once per probe call, for the reference and the mistake that rescales them."""
    return engine.attention_backward(*call.args)


def without_scale_in_backward(call: Call[BackwardArgs], policy: Policy) -> Output:
    """The forward pass scaled, but dQ and dK missing the scale on their way back."""
    q = call.args[0]
    d_query, d_key, d_value = backward_reference(call, policy)
    return d_query * np.sqrt(q.shape[-1]), d_key * np.sqrt(q.shape[-1]), d_value


def with_softmax_backward(
    vjp: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> Callable[[Call[BackwardArgs], Policy], Output]:
    """The gradients with the softmax's backward step replaced by `vjp(weights, d_weights)`."""

    def run(call: Call[BackwardArgs], policy: Policy) -> Output:
        q, k, v, grad = call.args
        weights = forward_weights(q, k, v)  # (..., L, S)
        d_scores = vjp(weights, grad @ v.swapaxes(-2, -1)) / np.sqrt(q.shape[-1])  # (..., L, S)
        return d_scores @ k, d_scores.swapaxes(-2, -1) @ q, weights.swapaxes(-2, -1) @ grad

    return run


@shared
def forward_weights(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The forward pass's weights: once per probe call for the mistakes in the softmax's backward step."""
    return engine.attention(q, k, v).weights


def draw_backward(check: str, rng: np.random.Generator) -> list[ProbeSpec[BackwardArgs]]:
    def call(q_shape: tuple[int, ...], k_shape: tuple[int, ...], ev: int) -> ProbeSpec[BackwardArgs]:
        q, k = lively_qk(rng, q_shape, k_shape)
        v, grad = normal(rng, *k_shape[:-1], ev), normal(rng, *q_shape[:-1], ev)
        return ProbeSpec((Call("attention_backward", (q, k, v, grad)),))

    L, S = int(rng.integers(3, 6)), int(rng.integers(5, 8))
    match check:
        case "gradients":
            return [call((L, 4), (S, 4), 3)]
        case "shapes":
            return [call((2, 2, L, 8), (2, 2, S, 8), 6)]
    raise ValueError(f"attention_backward has no check {check!r}")


BACKWARD_MISTAKES = ("backward_missing_scale", "vjp_elementwise", "vjp_missing_p", "missing_scale", "softmax_over_queries")
ATTENTION_BACKWARD: Task[BackwardArgs] = Task(
    INTERFACES["attention_backward"],
    reference=backward_reference,
    draw=draw_backward,
    mistakes=(
        Mistake("backward_missing_scale", without_scale_in_backward),
        Mistake("vjp_elementwise", with_softmax_backward(lambda p, g: p * g)),
        Mistake("vjp_missing_p", with_softmax_backward(lambda p, g: g - np.sum(g * p, axis=-1, keepdims=True))),
        Mistake("missing_scale", lambda c, p: engine.attention_backward(*c.args, fault=Fault.missing_scale)),
        Mistake("softmax_over_queries", lambda c, p: engine.attention_backward(*c.args, fault=Fault.softmax_over_queries)),
    ),
    reveals={"gradients": BACKWARD_MISTAKES, "shapes": BACKWARD_MISTAKES},
)
