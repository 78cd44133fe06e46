"""Causal linear attention: `causal_linear_attention(q, k, v)` with φ = elu + 1, computed as a running
d×d state S_t = S_{t−1} + φ(k_t) v_tᵀ and normaliser z_t = z_{t−1} + φ(k_t) (Y16). Its result must
equal the causally masked quadratic form φ(Q)φ(K)ᵀ, row-normalised, times V."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import engine
from quiz.code.compare import Output
from quiz.code.inputs import normal
from quiz.code.interfaces import INTERFACES
from quiz.code.probes import NoLeak, ProbeSpec
from quiz.code.sandbox import Call
from quiz.code.spec import Mistake, Policy, Task

LinearArgs = tuple[np.ndarray, np.ndarray, np.ndarray]
"""causal_linear_attention's arguments: q, k (..., T, E) and v (..., T, Ev)."""
FeatureMap = Callable[[np.ndarray], np.ndarray]

ATTEMPTS = 200
CONDITIONED = 1e-2  # the identity map's normaliser must keep this share of its terms' magnitude


def linear_reference(call: Call[LinearArgs], policy: Policy) -> Output:
    """The engine's masked quadratic form (engine.linear_attention_state gives the same through the running state)."""
    return (engine.linear_attention(*call.args, causal=True),)


def relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(np.asarray(x, dtype=np.float64), 0.0)


def identity(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, dtype=np.float64)


def flawed_linear(
    call: Call[LinearArgs],
    *,
    phi: FeatureMap = engine.elu_plus_one,
    reads: str = "inclusive",
    normalise: bool = True,
    causal_normaliser: bool = True,
) -> Output:
    """The quadratic form with one of its parts changed, as a candidate's running state would change it.

    reads: which keys query t's numerator sees, "inclusive" (j ≤ t), "before" (j < t: the state
    read before step t adds its key, so row 0 is 0/0) or "all" (no mask). Without `normalise` the
    numerator is returned as it is; without `causal_normaliser` it is divided by the sum over every key.
    """
    q, k, v = call.args
    weights = phi(q) @ phi(k).swapaxes(-2, -1)  # (..., T, T)
    T = weights.shape[-1]
    masks = {"inclusive": np.tri(T), "before": np.tri(T, k=-1), "all": np.ones((T, T))}
    masked = weights * masks[reads]
    numerator = masked @ np.asarray(v, dtype=np.float64)  # (..., T, Ev)
    if not normalise:
        return (numerator,)
    with np.errstate(invalid="ignore", divide="ignore"):  # 0/0 on row 0 when it reads nothing: the point
        return (numerator / (masked if causal_normaliser else weights).sum(axis=-1, keepdims=True),)


def conditioned(q: np.ndarray, k: np.ndarray) -> bool:
    """Whether φ = identity's causal normaliser Σ_{j≤t} q_t·k_j keeps a clear share of Σ_{j≤t} |q_t·k_j| on
    every row, so that its output (a model of a mistake) is not at the mercy of the order of summation."""
    dots = (q @ k.swapaxes(-2, -1)) * np.tri(q.shape[-2])
    return bool((np.abs(dots.sum(axis=-1)) >= CONDITIONED * np.abs(dots).sum(axis=-1)).all())


def qkv(rng: np.random.Generator, shape: tuple[int, ...], ev: int) -> LinearArgs:
    """Standard normal q, k (shape) and v (Ev wide) on which every mistake's model is well conditioned."""
    for _ in range(ATTEMPTS):
        q, k = normal(rng, *shape), normal(rng, *shape)
        if conditioned(q, k):
            break
    return q, k, normal(rng, *shape[:-1], ev)


def leak_probe(rng: np.random.Generator) -> ProbeSpec[LinearArgs]:
    """The same call twice, every input changed after position `after` (X10)."""
    T = int(rng.integers(5, 8))
    after = int(rng.integers(1, T - 1))
    q, k, v = qkv(rng, (T, 4), 3)
    for _ in range(ATTEMPTS):
        changed = [x.copy() for x in (q, k, v)]
        for x in changed:
            x[after + 1 :] = normal(rng, T - after - 1, x.shape[-1])
        if conditioned(changed[0], changed[1]):
            break
    calls = (Call("causal_linear_attention", (q, k, v)), Call("causal_linear_attention", (changed[0], changed[1], changed[2])))
    return ProbeSpec(calls, NoLeak(after=after))


def draw_linear(check: str, rng: np.random.Generator) -> list[ProbeSpec[LinearArgs]]:
    T, E = int(rng.integers(5, 8)), int(rng.integers(3, 6))
    match check:
        case "output":
            return [ProbeSpec((Call("causal_linear_attention", qkv(rng, (T, E), E)),))]
        case "shapes":
            return [ProbeSpec((Call("causal_linear_attention", qkv(rng, (2, 2, T, E), E + 2)),))]
        case "causal_leak":
            return [leak_probe(rng)]
    raise ValueError(f"causal_linear_attention has no check {check!r}")


LINEAR_MISTAKES = (
    "no_causal_mask",
    "linear_phi_identity",
    "linear_phi_relu",
    "linear_no_normaliser",
    "linear_state_after_read",
    "linear_normaliser_not_causal",
)
CAUSAL_LINEAR_ATTENTION: Task[LinearArgs] = Task(
    INTERFACES["causal_linear_attention"],
    reference=linear_reference,
    draw=draw_linear,
    mistakes=(
        Mistake("no_causal_mask", lambda c, p: flawed_linear(c, reads="all", causal_normaliser=False)),
        Mistake("linear_phi_identity", lambda c, p: flawed_linear(c, phi=identity)),
        Mistake("linear_phi_relu", lambda c, p: flawed_linear(c, phi=relu)),
        Mistake("linear_no_normaliser", lambda c, p: flawed_linear(c, normalise=False)),
        Mistake("linear_state_after_read", lambda c, p: flawed_linear(c, reads="before")),
        Mistake("linear_normaliser_not_causal", lambda c, p: flawed_linear(c, causal_normaliser=False)),
    ),
    reveals={
        "output": LINEAR_MISTAKES,
        "shapes": LINEAR_MISTAKES,
        "causal_leak": ("no_causal_mask", "linear_normaliser_not_causal"),
    },
)
