"""The intermediate tensors of a variant, for the worked solution shown after answering.

A question names the few values that explain its answer in `worked:` (a derived value, or an
attention run's step such as `run.weights`), each with a label in words; those are featured,
in that order. A question without `worked:` features its attention runs' weights. The other
steps of its attention runs (scores, scaled scores, weights, output) are kept for a "more worked
values" fold, worded by the catalogue; a value with no words (a parameter, a helper such as the
sorted outcomes a constraint compares) is never shown, as its name would mean nothing to a
learner. A weight matrix (non-negative rows summing to one, or a trace's weights) is marked for
a heatmap, with the cells the mask allowed: a trace's own, or for a derived weight matrix the
question's boolean `allowed` of the same shape, when the matrix is exactly 0 wherever it forbids
(a masked cell then reads differently from an allowed weight that rounds to 0.00).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from engine import AttentionTrace
from quiz.format.compile import ANSWER_NAME, TRACE_STEPS
from quiz.format.model import Text
from quiz.variants.variant import Variant

MASK_NAME: Final = "allowed"
"""The derived value that says which cells a question's own weight matrices let through."""
MAX_SHOWN: Final = 16
"""Largest number of rows or columns a worked tensor is shown with."""
SHOWN_STEPS: Final = ("scores", "scaled", "weights", "output")
"""The steps of an attention run kept for the fold when `worked:` does not name them."""


@dataclass(frozen=True, eq=False)
class WorkedTensor:
    """A named tensor of the worked solution.

    `label` is the author's words for it (None: none given); `step` names the attention step it
    is (`weights`), so that it can be worded without a label, and `run` is which of the
    variant's attention runs it comes from, `(n, count)`, when there are several; `is_weights`
    asks for a heatmap, and `allowed` (same shape, for a trace's weights) marks the cells the
    mask let through. `name` is how the question computes it, for authors (`quiz show --json`).
    """

    name: str
    value: np.ndarray
    is_weights: bool = False
    label: Text | None = None
    step: str | None = None
    allowed: np.ndarray | None = None
    run: tuple[int, int] | None = None


@dataclass(frozen=True)
class WorkedValues:
    """The featured tensors, shown with the feedback, and the rest, folded behind a key."""

    featured: list[WorkedTensor]
    more: list[WorkedTensor]

    def all(self) -> list[WorkedTensor]:
        """Every worked tensor, featured first: what `quiz show --answer` lists."""
        return self.featured + self.more


def _is_weight_matrix(value: np.ndarray) -> bool:
    """Rows of non-negative weights summing to one (a vector counts as one row)."""
    if value.ndim not in (1, 2) or value.size < 2 or not np.isfinite(value).all():
        return False
    return bool((value >= 0).all() and np.allclose(value.sum(axis=-1), 1.0, atol=1e-6))


def _showable(value: Any, scalars: bool = False) -> np.ndarray | None:
    if isinstance(value, float | int | np.number) and not isinstance(value, bool):
        value = np.asarray(value)
    array = value if isinstance(value, np.ndarray) else np.asarray(value) if isinstance(value, list) else None
    if array is None or array.dtype.kind not in "biuf" or array.ndim not in ((0, 1, 2) if scalars else (1, 2)):
        return None
    if array.ndim and max(array.shape) > MAX_SHOWN:
        return None
    return array.astype(np.float64)


def _last_two_axes(value: np.ndarray) -> np.ndarray:
    """The first head/batch of a batched tensor: worked solutions show one matrix."""
    while value.ndim > 2:
        value = value[0]
    return value


def _runs(variant: Variant) -> dict[str, tuple[int, int] | None]:
    """Each attention run of the variant by name, with its place among them when there are several."""
    names = [name for name, value in variant.values.items() if isinstance(value, AttentionTrace) and name != ANSWER_NAME]
    return {name: (n, len(names)) if len(names) > 1 else None for n, name in enumerate(names, 1)}


def _trace_step(name: str, trace: AttentionTrace, step: str, run: tuple[int, int] | None, label: Text | None = None) -> WorkedTensor | None:
    array = _showable(_last_two_axes(getattr(trace, step)))
    if array is None:
        return None
    allowed = _last_two_axes(np.asarray(trace.allowed, dtype=bool)) if step == "weights" else None
    if allowed is not None and allowed.shape != array.shape:
        allowed = None
    return WorkedTensor(f"{name}.{step}", array, step == "weights", label, step, allowed, run)


def _steps(variant: Variant, runs: dict[str, tuple[int, int] | None]) -> list[WorkedTensor]:
    """Every step of the variant's attention runs that can be shown, run by run."""
    return [
        t
        for name, run in runs.items()
        for step in SHOWN_STEPS
        if (t := _trace_step(name, variant.values[name], step, run)) is not None
    ]


def _named(variant: Variant, name: str, label: Text, runs: dict[str, tuple[int, int] | None]) -> WorkedTensor | None:
    """The tensor `worked:` names: a value (scalars too) or a trace's step, with its label."""
    base, _, step = name.partition(".")
    value = variant.values.get(base)
    if isinstance(value, AttentionTrace):
        return _trace_step(base, value, step, runs.get(base), label) if step in TRACE_STEPS else None
    if step:
        return None
    array = _showable(value, scalars=True)
    if array is None:
        return None
    is_weights = _is_weight_matrix(array)
    return WorkedTensor(name, array, is_weights, label, allowed=_mask_of(variant, array) if is_weights else None)


def _mask_of(variant: Variant, weights: np.ndarray) -> np.ndarray | None:
    """The question's `allowed` for a derived weight matrix it masks: a boolean array of the same
    shape, every forbidden cell exactly 0 in `weights` (None otherwise: no cell is marked)."""
    allowed = variant.values.get(MASK_NAME)
    if not isinstance(allowed, np.ndarray) or allowed.dtype != np.bool_ or allowed.shape != weights.shape:
        return None
    return allowed if not weights[~allowed].any() else None


def worked_values(variant: Variant) -> WorkedValues:
    """The tensors worth showing after `variant` is answered, each with words: featured first,
    the rest of its attention runs folded."""
    runs = _runs(variant)
    steps = _steps(variant, runs)
    chosen: dict[str, Text] = getattr(variant.question, "worked", None) or {}
    if chosen:
        featured = [t for name, label in chosen.items() if (t := _named(variant, name, label, runs)) is not None]
    else:
        featured = [t for t in steps if t.is_weights]
    names = {t.name for t in featured}
    return WorkedValues(featured, [t for t in steps if t.name not in names])

