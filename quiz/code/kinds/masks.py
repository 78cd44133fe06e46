"""`causal_mask(L, S)`: the boolean (L, S) mask, True where key j ≤ query i (top-left, as PyTorch)."""

from __future__ import annotations

import numpy as np

import engine
from quiz.code.compare import Output
from quiz.code.interfaces import INTERFACES
from quiz.code.probes import ProbeSpec
from quiz.code.sandbox import Call
from quiz.code.spec import Mistake, Policy, Task

MaskArgs = tuple[int, int]
"""causal_mask's arguments: L and S."""


def bottom_right(call: Call[MaskArgs], policy: Policy) -> Output | None:
    """Aligned to the last key: query i sees keys up to i + S − L. The same as top-left when S = L."""
    L, S = call.args
    return None if L == S else (np.tri(L, S, S - L, dtype=bool),)


def draw_mask(check: str, rng: np.random.Generator) -> list[ProbeSpec[MaskArgs]]:
    L = int(rng.integers(4, 8))
    match check:
        case "output":
            return [ProbeSpec((Call("causal_mask", (L, L)),))]
        case "shapes":
            gap = int(rng.integers(1, 4))
            return [ProbeSpec((Call("causal_mask", (L, L + gap)),)), ProbeSpec((Call("causal_mask", (L + gap, L)),))]
    raise ValueError(f"causal_mask has no check {check!r}")


MASK_MISTAKES = ("causal_mask_strict", "causal_mask_one_ahead", "causal_mask_transposed", "causal_mask_inverted")
CAUSAL_MASK: Task[MaskArgs] = Task(
    INTERFACES["causal_mask"],
    reference=lambda call, policy: (engine.causal_mask(*call.args),),
    draw=draw_mask,
    mistakes=(
        Mistake("causal_mask_strict", lambda c, p: (np.tri(*c.args, k=-1, dtype=bool),)),
        Mistake("causal_mask_one_ahead", lambda c, p: (np.tri(*c.args, k=1, dtype=bool),)),
        Mistake("causal_mask_transposed", lambda c, p: (np.tri(c.args[1], c.args[0], dtype=bool).T,)),
        Mistake("causal_mask_inverted", lambda c, p: (~engine.causal_mask(*c.args),)),
        Mistake("causal_mask_bottom_right", bottom_right),
    ),
    reveals={"output": MASK_MISTAKES, "shapes": (*MASK_MISTAKES, "causal_mask_bottom_right")},
)
