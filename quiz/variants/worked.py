"""The intermediate tensors of a variant, for the worked solution shown after answering.

A question names the few values that explain its answer in `worked:` (a derived value, or an
attention run's step such as `run.weights`), each with a label in words; those are featured,
in that order, and every other tensor it computed is kept for a "more worked values" fold. A
question without `worked:` features its attention weights (or, having none, its first few
tensors). Any attention trace among the values gives its scores, scaled scores, weights and
output, and the weights carry which cells the mask allowed. A weight matrix (non-negative rows
summing to one, or a trace's weights) is marked for a heatmap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from engine import AttentionTrace
from quiz.format.compile import ANSWER_NAME, TRACE_STEPS
from quiz.format.model import Text
from quiz.variants.variant import Variant

MAX_SHOWN: Final = 16
"""Largest number of rows or columns a worked tensor is shown with."""
SHOWN_STEPS: Final = ("scores", "scaled", "weights", "output")
"""The steps of an attention run kept for the fold when `worked:` does not name them."""
FEATURED_BY_DEFAULT: Final = 3
"""How many tensors a question without `worked:` and without weights features."""


@dataclass(frozen=True, eq=False)
class WorkedTensor:
    """A named tensor of the worked solution.

    `label` is the author's words for it (None or empty: none given); `step` names the attention
    step it is (`weights`), so the interface can word it; `is_weights` asks for a heatmap, and
    `allowed` (same shape, for a trace's weights) marks the cells the mask let through.
    """

    name: str
    value: np.ndarray
    is_weights: bool = False
    label: Text | None = None
    step: str | None = None
    allowed: np.ndarray | None = None


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


def _trace_step(name: str, trace: AttentionTrace, step: str, label: Text | None = None) -> WorkedTensor | None:
    array = _showable(_last_two_axes(getattr(trace, step)))
    if array is None:
        return None
    allowed = _last_two_axes(np.asarray(trace.allowed, dtype=bool)) if step == "weights" else None
    if allowed is not None and allowed.shape != array.shape:
        allowed = None
    return WorkedTensor(f"{name}.{step}", array, step == "weights", label, step, allowed)


def _computed(variant: Variant) -> list[WorkedTensor]:
    """Every tensor the variant computed that can be shown, in the order computed."""
    found: list[WorkedTensor] = []
    for name, value in variant.values.items():
        if name == ANSWER_NAME:  # the key itself is shown with the feedback
            continue
        if isinstance(value, AttentionTrace):
            found.extend(t for step in SHOWN_STEPS if (t := _trace_step(name, value, step)) is not None)
            continue
        array = _showable(value)
        if array is not None:
            found.append(WorkedTensor(name, array, _is_weight_matrix(array)))
    return found


def _named(variant: Variant, name: str, label: Text) -> WorkedTensor | None:
    """The tensor `worked:` names: a value (scalars too) or a trace's step, with its label."""
    base, _, step = name.partition(".")
    value = variant.values.get(base)
    if isinstance(value, AttentionTrace):
        return _trace_step(base, value, step, label) if step in TRACE_STEPS else None
    if step:
        return None
    array = _showable(value, scalars=True)
    return None if array is None else WorkedTensor(name, array, _is_weight_matrix(array), label)


def worked_values(variant: Variant) -> WorkedValues:
    """The tensors worth showing after `variant` is answered: featured first, the rest folded."""
    computed = _computed(variant)
    chosen: dict[str, Text] = getattr(variant.question, "worked", None) or {}
    if chosen:
        featured = [t for name, label in chosen.items() if (t := _named(variant, name, label)) is not None]
    else:
        featured = [t for t in computed if t.is_weights] or computed[:FEATURED_BY_DEFAULT]
    names = {t.name for t in featured}
    return WorkedValues(featured, [t for t in computed if t.name not in names])

