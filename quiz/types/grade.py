"""Grading one response to one variant: its type's rule gives score, verdict, marks and feedback.

The rules, documented for learners and authors in docs/authoring.md, live with each type in
`quiz/types/`. Two hold for every type: each hint used multiplies the score by
(1 − hint_penalty·hints), never below 0; and giving up shows the answer and scores 0.
"""

from __future__ import annotations

from typing import Any

from quiz.grading.result import Result
from quiz.types.registry import type_of
from quiz.variants.variant import Variant


def grade(variant: Variant, response: Any, hints_used: int = 0) -> Result:
    """Grade `response` (what the type's reader or answer widget gives) against `variant`."""
    return type_of(variant.question).grade(variant, response, hints_used)


def give_up(variant: Variant, hints_used: int = 0) -> Result:
    """The learner asked for the answer: it is shown and the attempt scores 0."""
    return type_of(variant.question).give_up(variant, hints_used)
