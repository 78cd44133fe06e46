"""Boolean masks, True where a query may attend: `causal_mask(L, S)`, the (L, S) lower triangle aligned
top-left as PyTorch's; `batch_mask(lengths, S, window, side)`, a padded batch's causal sliding window (Y11, Y12)."""

from __future__ import annotations

import numpy as np

import engine
from engine import mistakes as wrong
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


BatchMaskArgs = tuple[np.ndarray, int, int, str]
"""batch_mask's arguments: the sequence lengths (B,), the padded length S, the window w and the padding side."""


def window_and_padding(call: Call[BatchMaskArgs], window: np.ndarray | None = None, padding: np.ndarray | None = None) -> Output:
    """Bool (B, 1, S, S): the window mask (query i sees key j when 0 ≤ i − j < w) AND the key padding mask, either replaceable."""
    lengths, S, w, side = call.args
    window = engine.sliding_window_mask(S, w) if window is None else window
    padding = engine.key_padding_mask(lengths, S, side) if padding is None else padding
    return (window & padding,)


def window_without_causal(call: Call[BatchMaskArgs], policy: Policy) -> Output:
    """i − j < w alone: the lower bound 0 ≤ i − j left out, so every later key is allowed."""
    _, S, w, _ = call.args
    offsets = np.arange(S)[:, None] - np.arange(S)[None, :]
    return window_and_padding(call, window=offsets < w)


def combined_by_or(call: Call[BatchMaskArgs], policy: Policy) -> Output:
    lengths, S, w, side = call.args
    return (wrong.masks_combined_by_or(engine.sliding_window_mask(S, w), engine.key_padding_mask(lengths, S, side)),)


def draw_batch_mask(check: str, rng: np.random.Generator) -> list[ProbeSpec[BatchMaskArgs]]:
    S = int(rng.integers(6, 10))
    window = int(rng.integers(2, S - 2))

    def call(B: int, side: str) -> ProbeSpec[BatchMaskArgs]:
        lengths = rng.integers(1, S, size=B)  # every row padded (shorter than S) …
        lengths[rng.integers(B)] = S  # … but one
        return ProbeSpec((Call("batch_mask", (lengths, S, window, side)),))

    match check:
        case "output":
            return [call(3, "right")]
        case "shapes":
            return [call(int(rng.integers(2, 5)), "left"), call(2, "right")]
    raise ValueError(f"batch_mask has no check {check!r}")


BATCH_MASK_MISTAKES = (
    "window_off_by_one",
    "padding_wrong_side",
    "masks_combined_by_or",
    "window_without_causal",
    "padding_mask_ignored",
    "batch_mask_transposed",
)
BATCH_MASK: Task[BatchMaskArgs] = Task(
    INTERFACES["batch_mask"],
    reference=lambda call, policy: window_and_padding(call),
    draw=draw_batch_mask,
    mistakes=(
        Mistake("window_off_by_one", lambda c, p: window_and_padding(c, window=wrong.sliding_window_mask_off_by_one(c.args[1], c.args[2]))),
        Mistake("padding_wrong_side", lambda c, p: window_and_padding(c, padding=wrong.key_padding_mask_on_the_wrong_side(*c.args[:2], c.args[3]))),
        Mistake("masks_combined_by_or", combined_by_or),
        Mistake("window_without_causal", window_without_causal),
        Mistake("padding_mask_ignored", lambda c, p: window_and_padding(c, padding=np.ones((len(c.args[0]), 1, 1, c.args[1]), dtype=bool))),
        Mistake("batch_mask_transposed", lambda c, p: (window_and_padding(c)[0].swapaxes(-1, -2),)),
    ),
    reveals={"output": BATCH_MASK_MISTAKES, "shapes": BATCH_MASK_MISTAKES},
)
