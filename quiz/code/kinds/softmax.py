"""Softmax kinds: a stable softmax along an axis, its backward pass (the VJP, C4), and attention
entropy with a padding mask (G2)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import engine
from quiz.code.compare import Output
from quiz.code.inputs import allowed_mask, clear_of_float16_overflow, lively, lively_qk, normal
from quiz.code.interfaces import INTERFACES
from quiz.code.probes import ProbeSpec, RowsMatchEngine, RowsSumToOne
from quiz.code.sandbox import Call
from quiz.code.shared import shared
from quiz.code.spec import Mistake, Policy, Task

SoftmaxArgs = tuple[np.ndarray] | tuple[np.ndarray, int]
"""softmax's arguments: x, and the axis where the probe gives one."""
VjpArgs = tuple[np.ndarray, np.ndarray] | tuple[np.ndarray, np.ndarray, int]
"""softmax_backward's arguments: p, grad, and the axis where the probe gives one."""
EntropyArgs = tuple[np.ndarray, np.ndarray]
"""attention_entropy's arguments: the weights and the valid keys."""


def x_axis(call: Call[SoftmaxArgs]) -> tuple[np.ndarray, int]:
    """x and the axis (−1, the default, where the call gives none)."""
    if len(call.args) == 2:
        return call.args
    (x,) = call.args
    return x, -1


def softmax_under(x: np.ndarray, axis: int, empty_rows: str) -> np.ndarray:
    """The engine's softmax, with an all −∞ slice giving zeros or NaN as the policy says."""
    weights = engine.softmax(x, axis=axis)
    if empty_rows == "nan":
        weights = np.where(np.isneginf(x).all(axis=axis, keepdims=True), np.nan, weights)
    return weights


def softmax_reference(call: Call[SoftmaxArgs], policy: Policy) -> Output:
    x, axis = x_axis(call)
    return (softmax_under(x, axis, policy["empty_rows"]),)


def other_policy(empty_rows: str) -> Callable[[Call[SoftmaxArgs], Policy], Output | None]:
    """The output under the policy `empty_rows` where the question states the other one."""

    def run(call: Call[SoftmaxArgs], policy: Policy) -> Output | None:
        x, axis = x_axis(call)
        if not np.isneginf(x).all(axis=axis).any():
            return None
        return (softmax_under(x, axis, empty_rows),)

    return run


def axis_ignored(call: Call[SoftmaxArgs], policy: Policy) -> Output | None:
    x, axis = x_axis(call)
    if axis % x.ndim == x.ndim - 1:
        return None
    return (softmax_under(x, -1, policy["empty_rows"]),)


def global_sum(call: Call[SoftmaxArgs], policy: Policy) -> Output:
    """exp(x − max) divided by the sum over the whole array, not along the axis."""
    x, _ = x_axis(call)
    finite = x[np.isfinite(x)]
    exp = np.exp(x - (finite.max() if finite.size else 0.0))
    return (exp / exp.sum(),)


def global_max(call: Call[SoftmaxArgs], policy: Policy) -> Output | None:
    """exp(x − the largest entry of the whole array), divided by the sum along the axis: a row far
    below the global max underflows to zeros (where all its terms are 0, the row is 0)."""
    x, axis = x_axis(call)
    finite = x[np.isfinite(x)]
    if not finite.size:
        return None
    with np.errstate(invalid="ignore"):
        exp = np.exp(np.asarray(x, dtype=np.float64) - float(finite.max()))
        total = exp.sum(axis=axis, keepdims=True)
        return (np.where(total == 0, 0.0, exp / np.where(total == 0, 1.0, total)),)


def lively_x(rng: np.random.Generator, *shape: int, axis: int = -1) -> np.ndarray:
    while True:
        x = 1.5 * normal(rng, *shape)
        if lively(np.moveaxis(x, axis, -1)):
            return x


def draw_softmax(check: str, rng: np.random.Generator) -> list[ProbeSpec[SoftmaxArgs]]:
    def call(x: np.ndarray, axis: int | None = None) -> ProbeSpec[SoftmaxArgs]:
        return ProbeSpec((Call("softmax", (x,) if axis is None else (x, axis)),))

    L, S = int(rng.integers(3, 6)), int(rng.integers(5, 8))
    match check:
        case "output":
            return [call(lively_x(rng, L, S))]
        case "shapes":
            return [call(lively_x(rng, 2, S, 3, axis=1), 1), call(lively_x(rng, 4, 3, 2, axis=0), 0)]
        case "rows_sum_to_one":
            x = lively_x(rng, 3, S, 4, axis=1)
            return [ProbeSpec((Call("softmax", (x, 1)),), RowsSumToOne(axis=1))]
        case "additive_mask":
            return [call(np.where(allowed_mask(rng, L, S), lively_x(rng, L, S), -np.inf))]
        case "fully_masked_rows":
            x = np.where(allowed_mask(rng, L, S), lively_x(rng, L, S), -np.inf)
            empty = np.sort(rng.choice(L, size=2, replace=False))
            x[empty] = -np.inf
            # Only those rows are judged: the others are the output check's.
            return [ProbeSpec((Call("softmax", (x,)),), RowsMatchEngine(tuple(int(row) for row in empty)))]
        case "large_scores":
            # Rows of different maxima: one row 1000 below the others underflows to zeros when one
            # max over the whole array is subtracted instead of each row's own.
            offsets = np.full((L, 1), 1000.0)
            offsets[rng.integers(L)] = 0.0
            x32 = (offsets + lively_x(rng, L, S)).astype(np.float32)
            while True:
                x16 = (15.0 + lively_x(rng, L, S)).astype(np.float16)
                if clear_of_float16_overflow(x16.astype(np.float64)):
                    return [call(x32), call(x16)]
    raise ValueError(f"softmax has no check {check!r}")


SOFTMAX: Task[SoftmaxArgs] = Task(
    INTERFACES["softmax"],
    reference=softmax_reference,
    draw=draw_softmax,
    mistakes=(
        Mistake("softmax_axis_ignored", axis_ignored),
        Mistake("softmax_global_sum", global_sum),
        Mistake("empty_rows_nan", other_policy("nan"), lambda p: p["empty_rows"] == "zero"),
        Mistake("empty_rows_zero", other_policy("zero"), lambda p: p["empty_rows"] == "nan"),
        Mistake("unstable_softmax", lambda call, policy: (engine.naive_softmax(*x_axis(call)),)),
        Mistake("softmax_global_max", global_max),
    ),
    reveals={
        "output": ("softmax_global_sum",),
        "shapes": ("softmax_axis_ignored", "softmax_global_sum"),
        "rows_sum_to_one": ("softmax_axis_ignored", "softmax_global_sum"),
        "fully_masked_rows": ("empty_rows_nan", "empty_rows_zero"),
        "large_scores": ("unstable_softmax", "softmax_global_max"),
    },
)


def p_grad_axis(call: Call[VjpArgs]) -> tuple[np.ndarray, np.ndarray, int]:
    """p, grad and the axis (−1, the default, where the call gives none)."""
    if len(call.args) == 3:
        return call.args
    p, grad = call.args
    return p, grad, -1


def vjp_reference(call: Call[VjpArgs], policy: Policy) -> Output:
    p, grad, axis = p_grad_axis(call)
    return (engine.softmax_vjp(p, grad, axis=axis),)


def vjp_axis_ignored(call: Call[VjpArgs], policy: Policy) -> Output | None:
    p, grad, axis = p_grad_axis(call)
    if axis % p.ndim == p.ndim - 1:
        return None
    return (engine.softmax_vjp(p, grad, axis=-1),)


def vjp_missing_p(call: Call[VjpArgs], policy: Policy) -> Output:
    p, grad, axis = p_grad_axis(call)
    return (grad - np.sum(grad * p, axis=axis, keepdims=True),)


def vjp_sign_flipped(call: Call[VjpArgs], policy: Policy) -> Output:
    p, grad, axis = p_grad_axis(call)
    return (p * (np.sum(grad * p, axis=axis, keepdims=True) - grad),)


def draw_vjp(check: str, rng: np.random.Generator) -> list[ProbeSpec[VjpArgs]]:
    def call(shape: tuple[int, ...], axis: int | None) -> ProbeSpec[VjpArgs]:
        p = engine.softmax(lively_x(rng, *shape, axis=-1 if axis is None else axis), axis=-1 if axis is None else axis)
        grad = normal(rng, *shape)
        return ProbeSpec((Call("softmax_backward", (p, grad) if axis is None else (p, grad, axis)),))

    L, S = int(rng.integers(3, 6)), int(rng.integers(5, 8))
    match check:
        case "gradients":
            return [call((L, S), None)]
        case "shapes":
            return [call((2, S, 3), 1), call((4, 3, 2), 0)]
    raise ValueError(f"softmax_backward has no check {check!r}")


VJP_MISTAKES = ("vjp_elementwise", "vjp_diagonal_only", "vjp_missing_p", "vjp_sign_flipped")
SOFTMAX_BACKWARD: Task[VjpArgs] = Task(
    INTERFACES["softmax_backward"],
    reference=vjp_reference,
    draw=draw_vjp,
    mistakes=(
        Mistake("vjp_elementwise", lambda call, policy: (call.args[0] * call.args[1],)),
        Mistake("vjp_diagonal_only", lambda call, policy: (call.args[0] * (1 - call.args[0]) * call.args[1],)),
        Mistake("vjp_missing_p", vjp_missing_p),
        Mistake("vjp_sign_flipped", vjp_sign_flipped),
        Mistake("softmax_axis_ignored", vjp_axis_ignored),
    ),
    reveals={"gradients": VJP_MISTAKES, "shapes": (*VJP_MISTAKES, "softmax_axis_ignored")},
)


def entropy_args(call: Call[EntropyArgs]) -> tuple[np.ndarray, np.ndarray]:
    weights, valid = call.args
    return weights, np.broadcast_to(valid, weights.shape)


def entropy(weights: np.ndarray, valid: np.ndarray, normalized: bool = False) -> np.ndarray:
    """The engine's entropy over the valid keys, as an array (weights here are never 1-D, so neither is it)."""
    return np.asarray(engine.entropy(weights, mask=valid, normalized=normalized))


@shared  # once per probe call: two mistakes start from it
def entropy_reference(call: Call[EntropyArgs], policy: Policy) -> Output:
    return (entropy(*entropy_args(call), normalized=True),)


def not_normalised(call: Call[EntropyArgs], policy: Policy) -> Output:
    return (entropy(*entropy_args(call)),)


def by_all_keys(call: Call[EntropyArgs], policy: Policy) -> Output:
    weights, valid = entropy_args(call)
    return (entropy(weights, valid) / np.log(weights.shape[-1]),)


def nan_on_zero_weights(call: Call[EntropyArgs], policy: Policy) -> Output:
    """−Σ p log p summed as is: a zero weight gives 0 · (−∞) = NaN for its whole row."""
    weights, _ = entropy_args(call)
    (normalised,) = entropy_reference(call, policy)
    return (np.where((weights == 0).any(axis=-1), np.nan, normalised),)


def single_key_nan(call: Call[EntropyArgs], policy: Policy) -> Output | None:
    """A row with one valid key: entropy 0 divided by log 1 = 0."""
    _, valid = entropy_args(call)
    single = valid.sum(axis=-1) == 1
    if not single.any():
        return None
    (normalised,) = entropy_reference(call, policy)
    return (np.where(single, np.nan, normalised),)


def count_from_weights(call: Call[EntropyArgs], policy: Policy) -> Output:
    """n counted from the weights > 0, not from the mask: a valid key whose weight underflowed to 0 is left out."""
    weights, valid = entropy_args(call)
    return (entropy(weights, valid & (weights > 0), normalized=True),)


def with_underflowed_key(rng: np.random.Generator, weights: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """The weights with one valid key of each row that has three or more set to exactly 0 (its exp
    underflowed) and the row renormalised: the count of weights > 0 then differs from the mask's."""
    weights = weights.copy()
    allowed = np.broadcast_to(valid, weights.shape)
    for row in np.ndindex(weights.shape[:-1]):
        keys = np.flatnonzero(allowed[row])
        if keys.size >= 3:
            weights[row][rng.choice(keys)] = 0.0
            weights[row] /= weights[row].sum()
    return weights


def padded_weights(rng: np.random.Generator, q_shape: tuple[int, ...], k_shape: tuple[int, ...], valid: np.ndarray) -> np.ndarray:
    """Attention weights with padded keys at weight 0, from lively queries and keys."""
    q, k = lively_qk(rng, q_shape, k_shape)
    return engine.attention(q, k, k, attn_mask=valid).weights.copy()


def draw_entropy(check: str, rng: np.random.Generator) -> list[ProbeSpec[EntropyArgs]]:
    L, S = int(rng.integers(3, 6)), int(rng.integers(5, 8))
    match check:
        case "output":
            valid = allowed_mask(rng, S)
            while valid.sum() < 3:
                valid = allowed_mask(rng, S)
            weights = with_underflowed_key(rng, padded_weights(rng, (L, 4), (S, 4), valid), valid)
            return [ProbeSpec((Call("attention_entropy", (weights, valid)),))]
        case "shapes":
            valid = allowed_mask(rng, 2, 1, 1, S)
            valid[0, 0, 0, : int(rng.integers(3, S))] = True  # at least three valid keys …
            valid[0, 0, 0, -1] = False  # … and a padded one
            valid[1] = False
            valid[1, 0, 0, int(rng.integers(S))] = True  # a single valid key: entropy 0 by definition
            weights = with_underflowed_key(rng, padded_weights(rng, (2, 2, L, 4), (2, 2, S, 4), valid), valid)
            return [ProbeSpec((Call("attention_entropy", (weights, valid)),))]
    raise ValueError(f"attention_entropy has no check {check!r}")


ENTROPY_MISTAKES = (
    "entropy_not_normalised",
    "entropy_normalised_by_all_keys",
    "entropy_nan_on_zero_weights",
    "entropy_count_from_weights",
)
ATTENTION_ENTROPY: Task[EntropyArgs] = Task(
    INTERFACES["attention_entropy"],
    reference=entropy_reference,
    draw=draw_entropy,
    mistakes=(
        Mistake("entropy_not_normalised", not_normalised),
        Mistake("entropy_normalised_by_all_keys", by_all_keys),
        Mistake("entropy_nan_on_zero_weights", nan_on_zero_weights),
        Mistake("entropy_single_key_nan", single_key_nan),
        Mistake("entropy_count_from_weights", count_from_weights),
    ),
    reveals={"output": ENTROPY_MISTAKES, "shapes": (*ENTROPY_MISTAKES, "entropy_single_key_nan")},
)
