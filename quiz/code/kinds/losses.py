"""Cross-entropy from logits with its gradient: `cross_entropy(logits, targets)` → (loss, grad), the
mean of LSE(z) − z_y over every position and ∂loss/∂z = (p − onehot(y)) / N (Y17)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import engine
from engine import mistakes as engine_mistakes
from quiz.code.compare import Output
from quiz.code.inputs import normal
from quiz.code.interfaces import INTERFACES
from quiz.code.probes import ProbeSpec
from quiz.code.sandbox import Call
from quiz.code.shared import shared
from quiz.code.spec import Mistake, Policy, Task

LossArgs = tuple[np.ndarray, np.ndarray]
"""cross_entropy's arguments: logits (..., C) and integer targets (...)."""


@shared
def loss_reference(call: Call[LossArgs], policy: Policy) -> Output:
    """The engine's mean loss (a 0-d array) and its gradient: once per probe call, for the mistakes that rescale them."""
    logits, targets = call.args
    return np.asarray(engine.cross_entropy(logits, targets)), engine.cross_entropy_grad(logits, targets)


N = "N"
"""A factor standing for the count of positions, which only the call knows."""


def scaled(loss_factor: float | str, grad_factor: float | str) -> Callable[[Call[LossArgs], Policy], Output]:
    """The engine's loss and gradient multiplied by factors: numbers, or `N` for the count of positions."""

    def run(call: Call[LossArgs], policy: Policy) -> Output:
        loss, grad = loss_reference(call, policy)
        n = call.args[1].size
        return np.asarray(loss * (n if loss_factor == N else float(loss_factor))), grad * (n if grad_factor == N else float(grad_factor))

    return run


def log_of_softmax(call: Call[LossArgs], policy: Policy) -> Output:
    """−log p_y from a (stable) softmax: a target probability that underflowed to 0 gives a loss of +∞."""
    logits, targets = call.args
    _, grad = loss_reference(call, policy)
    return np.asarray(engine_mistakes.cross_entropy_as_log_of_softmax(logits, targets).mean()), grad


def unshifted(call: Call[LossArgs], policy: Policy) -> Output:
    """p = exp(z) / Σ exp(z) without subtracting the row maximum: overflow and 0/0 give NaN, log 0 gives ∞."""
    logits, targets = call.args
    p = engine.naive_softmax(np.asarray(logits, dtype=np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):
        loss = -np.log(np.take_along_axis(p, targets[..., None], axis=-1)).mean()
    return np.asarray(loss), (p - onehot(targets, logits.shape[-1])) / targets.size


def onehot_in_every_row(call: Call[LossArgs], policy: Policy) -> Output:
    """`grad[:, y] -= 1`: every row loses 1 at each class that is some position's target, not only at its own."""
    logits, targets = call.args
    loss, grad = loss_reference(call, policy)
    present = np.isin(np.arange(logits.shape[-1]), targets)  # (C,)
    return loss, grad + (onehot(targets, logits.shape[-1]) - present) / targets.size


def onehot(targets: np.ndarray, classes: int) -> np.ndarray:
    """(..., C) with 1 at each position's target class."""
    rows: np.ndarray = np.eye(classes)[targets]
    return rows


def lively_logits(rng: np.random.Generator, *shape: int) -> np.ndarray:
    """Logits of standard deviation 1.5: probabilities neither flat nor saturated, so every mistake shows."""
    return 1.5 * normal(rng, *shape)


def large_logits(rng: np.random.Generator, rows: int, classes: int, size: float, dtype: type) -> LossArgs:
    """Logits of ±`size` plus lively noise: a row near +size (an unshifted exp overflows), one near −size
    (it underflows to 0/0), and one of both signs whose target sits at −size, so p_y underflows to 0."""
    signs = rng.choice([-1.0, 1.0], size=(rows, classes))
    signs[0], signs[1] = 1.0, -1.0
    signs[2, : classes // 2], signs[2, classes // 2 :] = 1.0, -1.0
    targets = rng.integers(0, classes, size=rows)
    targets[2] = rng.integers(classes // 2, classes)
    return (size * signs + lively_logits(rng, rows, classes)).astype(dtype), targets


def draw_loss(check: str, rng: np.random.Generator) -> list[ProbeSpec[LossArgs]]:
    def call(logits: np.ndarray, targets: np.ndarray) -> ProbeSpec[LossArgs]:
        return ProbeSpec((Call("cross_entropy", (logits, targets), returns=2),))

    N, C = int(rng.integers(4, 7)), int(rng.integers(4, 8))
    match check:
        case "output":
            return [call(lively_logits(rng, N, C), rng.integers(0, C, size=N))]
        case "shapes":
            B, T = 2, int(rng.integers(2, 4))
            return [call(lively_logits(rng, B, T, C), rng.integers(0, C, size=(B, T)).astype(np.int32))]
        case "large_logits":
            return [call(*large_logits(rng, N, C, 1e4, np.float64)), call(*large_logits(rng, N, C, 1e3, np.float32))]
    raise ValueError(f"cross_entropy has no check {check!r}")


GRADIENT_MISTAKES = ("ce_grad_not_averaged", "ce_grad_sign_flipped", "ce_onehot_in_every_row", "ce_loss_summed", "ce_loss_sign_flipped")
CROSS_ENTROPY: Task[LossArgs] = Task(
    INTERFACES["cross_entropy"],
    reference=loss_reference,
    draw=draw_loss,
    mistakes=(
        Mistake("ce_log_of_softmax", log_of_softmax),
        Mistake("unstable_softmax", unshifted),
        Mistake("ce_grad_not_averaged", scaled(1.0, N)),
        Mistake("ce_grad_sign_flipped", scaled(1.0, -1.0)),
        Mistake("ce_onehot_in_every_row", onehot_in_every_row),
        Mistake("ce_loss_summed", scaled(N, N)),
        Mistake("ce_loss_sign_flipped", scaled(-1.0, 1.0)),
    ),
    reveals={
        "output": GRADIENT_MISTAKES,
        "shapes": GRADIENT_MISTAKES,
        "large_logits": ("ce_log_of_softmax", "unstable_softmax"),
    },
)
