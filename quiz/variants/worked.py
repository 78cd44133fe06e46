"""The intermediate tensors of a variant, for the worked solution shown after answering.

Any attention trace among the variant's values gives its scores, scaled scores, weights and
output; other matrices and vectors the question computed are shown as they are. A weight
matrix (non-negative rows summing to one, or a trace's weights) is marked for a heatmap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from engine import AttentionTrace
from quiz.format.compile import ANSWER_NAME
from quiz.format.model import Text
from quiz.variants.variant import Variant

MAX_SHOWN: Final = 16
"""Largest number of rows or columns a worked tensor is shown with."""
TRACE_STEPS: Final = ("scores", "scaled", "weights", "output")


@dataclass(frozen=True)
class WorkedTensor:
    """A named tensor of the worked solution; `is_weights` asks for a heatmap."""

    name: str
    value: np.ndarray
    is_weights: bool = False


def _is_weight_matrix(value: np.ndarray) -> bool:
    """Rows of non-negative weights summing to one (a vector counts as one row)."""
    if value.ndim not in (1, 2) or value.size < 2 or not np.isfinite(value).all():
        return False
    return bool((value >= 0).all() and np.allclose(value.sum(axis=-1), 1.0, atol=1e-6))


def _showable(value: Any) -> np.ndarray | None:
    array = np.asarray(value) if isinstance(value, np.ndarray | list) else None
    if array is None or array.dtype.kind not in "biuf" or array.ndim not in (1, 2):
        return None
    if max(array.shape) > MAX_SHOWN:
        return None
    return array.astype(np.float64)


def worked_tensors(variant: Variant) -> list[WorkedTensor]:
    """The tensors worth showing in the worked solution of `variant`, in the order computed."""
    shown: list[WorkedTensor] = []
    for name, value in variant.values.items():
        if isinstance(value, AttentionTrace):
            for step in TRACE_STEPS:
                array = _showable(_last_two_axes(getattr(value, step)))
                if array is not None:
                    shown.append(WorkedTensor(f"{name}.{step}", array, step == "weights"))
            continue
        array = _showable(value)
        if array is not None:
            shown.append(WorkedTensor(name, array, _is_weight_matrix(array)))
    return shown


@dataclass(frozen=True)
class WorkedValue:
    """A value of the worked solution: its name, the author's label when `worked:` gives one, and the value."""

    name: str
    label: Text | None
    value: float | np.ndarray


def worked_values(variant: Variant) -> list[WorkedValue]:
    """The values the author labelled in `worked:`, in the order written, then every other
    tensor worth showing (under its name), for tools that list the worked solution."""
    labels: dict[str, Text] = getattr(variant.question, "worked", {})
    shown = [WorkedValue(name, label, value) for name, label in labels.items() if (value := _named_value(variant, name)) is not None]
    others = [WorkedValue(t.name, None, t.value) for t in worked_tensors(variant) if t.name not in labels and t.name != ANSWER_NAME]
    return shown + others


def _named_value(variant: Variant, name: str) -> float | np.ndarray | None:
    """The value `worked:` names: a parameter or derived value, or a step of an attention run (`run.weights`)."""
    head, _, step = name.partition(".")
    value = variant.values.get(head)
    if step:
        if not isinstance(value, AttentionTrace):
            return None
        value = _last_two_axes(np.asarray(getattr(value, step, None)))
    if isinstance(value, bool | str) or value is None:
        return None
    array = np.asarray(value)
    if array.dtype.kind not in "biuf":
        return None
    return float(array) if array.ndim == 0 else array.astype(np.float64)


def _last_two_axes(value: np.ndarray) -> np.ndarray:
    """The first head/batch of a batched tensor: worked solutions show one matrix."""
    while value.ndim > 2:
        value = value[0]
    return value
