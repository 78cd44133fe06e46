"""What grading one response gives, and the hint penalty every type applies the same way."""

from __future__ import annotations

from dataclasses import field
from enum import StrEnum
from typing import Any

import numpy as np

from quiz.base.fieldwise import Fieldwise, record
from quiz.format.model import Text


class Verdict(StrEnum):
    CORRECT = "correct"
    PARTIAL = "partial"
    INCORRECT = "incorrect"
    REVEALED = "revealed"


@record
class Result(Fieldwise):
    """What grading one response gives."""

    score: float
    """The final score in [0, 1], after the hint penalty."""
    verdict: Verdict
    raw_score: float
    """The score before the hint penalty."""
    hints_used: int = 0
    penalty: float = 0.0
    """The share of the raw score the hints cost."""
    marks: np.ndarray | None = None
    """For vectors and matrices: True where an element is within tolerance."""
    misconception: str | None = None
    """The matched mistake's name (history and statistics use it)."""
    label: Text | None = None
    """The matched mistake as learners read it."""
    feedback: tuple[Text, ...] = ()
    """Feedback to show: the matched misconception's, or that of each option picked."""
    answer: Any = None
    """The answer key, as the variant holds it."""
    details: dict[str, Any] = field(default_factory=dict)
    """Type-specific figures (the longest ordered run, right and wrong picks, ...)."""


def verdict_for(score: float) -> Verdict:
    if score >= 1.0:
        return Verdict.CORRECT
    return Verdict.PARTIAL if score > 0 else Verdict.INCORRECT


def finish(question: Any, raw: float, hints_used: int, **extra: Any) -> Result:
    multiplier = max(0.0, 1.0 - question.hint_penalty * hints_used)
    score = raw * multiplier
    return Result(
        score=score,
        verdict=verdict_for(raw),  # a right answer stays "correct" even when hints cost points
        raw_score=raw,
        hints_used=hints_used,
        penalty=1.0 - multiplier,
        **extra,
    )
