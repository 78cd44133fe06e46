"""Grading one response to one variant: score, verdict, marks, misconception and feedback.

The rules, documented for learners and authors in docs/authoring.md:
- numeric: every element within |a − b| ≤ atol + rtol·|b| of the key scores 1; otherwise an
  answer within the same tolerance of a misconception's value gets that misconception's credit;
- choice: the right option scores 1; multi: max(0, (right picks − wrong picks) / right options);
- order: the longest run of items in the right relative order, over the number of items;
- truefalse: 1 or 0; explain: the share of rubric points the learner ticked;
- each hint used multiplies the score by (1 − hint_penalty·hints), never below 0;
- giving up shows the answer and scores 0.
"""

from __future__ import annotations

import bisect
from collections.abc import Collection, Sequence
from typing import Any

import numpy as np

from quiz.format.model import (
    ChoiceQuestion,
    ExplainQuestion,
    MultiQuestion,
    NumericQuestion,
    OrderQuestion,
    Text,
    TrueFalseQuestion,
    option_ids,
)
from quiz.grading.result import Result, Verdict, finish
from quiz.grading.tolerance import within
from quiz.variants import Variant


def grade(variant: Variant, response: Any, hints_used: int = 0) -> Result:
    """Grade `response` (its type follows the question's: see each grader) against `variant`."""
    question = variant.question
    if isinstance(question, NumericQuestion):
        return grade_numeric(variant, response, hints_used)
    if isinstance(question, ChoiceQuestion):
        return grade_choice(variant, response, hints_used)
    if isinstance(question, MultiQuestion):
        return grade_multi(variant, response, hints_used)
    if isinstance(question, OrderQuestion):
        return grade_order(variant, response, hints_used)
    if isinstance(question, TrueFalseQuestion):
        raw = 1.0 if bool(response) == question.answer else 0.0
        return finish(question, raw, hints_used, answer=question.answer)
    if isinstance(question, ExplainQuestion):
        return grade_explain(variant, response, hints_used)
    raise TypeError(f"no grader for {type(question).__name__}")


def grade_numeric(variant: Variant, value: float | np.ndarray, hints_used: int = 0) -> Result:
    """A number, vector or matrix (already parsed to the key's shape) against the key."""
    question = variant.question
    marks = within(value, variant.answer, question.tolerance)
    element_marks = marks if marks.ndim else None
    if marks.all():
        return finish(question, 1.0, hints_used, marks=element_marks, answer=variant.answer)
    for misconception in question.misconceptions:
        if within(value, variant.misconceptions[misconception.name], question.tolerance).all():
            return finish(
                question,
                misconception.credit,
                hints_used,
                marks=element_marks,
                misconception=misconception.name,
                feedback=(misconception.feedback,),
                answer=variant.answer,
            )
    return finish(question, 0.0, hints_used, marks=element_marks, answer=variant.answer)


def correct_options(variant: Variant) -> list[str]:
    """The ids of the options that are right for this variant."""
    question = variant.question
    if isinstance(question, ChoiceQuestion) and variant.answer is not None:
        return [variant.answer]
    return [i for i, option in zip(option_ids(question.options), question.options) if option.correct]


def _option_feedback(variant: Variant, picked: Collection[str]) -> tuple[Text, ...]:
    question = variant.question
    pairs = zip(option_ids(question.options), question.options)
    return tuple(o.feedback for i, o in pairs if i in picked and o.feedback is not None)


def grade_choice(variant: Variant, picked: str, hints_used: int = 0) -> Result:
    """One option id against the right one."""
    [right] = correct_options(variant)
    raw = 1.0 if picked == right else 0.0
    return finish(variant.question, raw, hints_used, feedback=_option_feedback(variant, {picked}), answer=right)


def grade_multi(variant: Variant, picked: Collection[str], hints_used: int = 0) -> Result:
    """max(0, (right picks − wrong picks) / number of right options)."""
    right = set(correct_options(variant))
    chosen = set(picked)
    hits, misses = len(chosen & right), len(chosen - right)
    raw = max(0.0, (hits - misses) / len(right))
    return finish(
        variant.question,
        raw,
        hints_used,
        feedback=_option_feedback(variant, chosen),
        answer=sorted(right),
        details={"right_picks": hits, "wrong_picks": misses},
    )


def longest_ordered_run(order: Sequence[int]) -> int:
    """Length of the longest subsequence in increasing order (patience sorting, O(n log n))."""
    tails: list[int] = []
    for item in order:
        position = bisect.bisect_left(tails, item)
        if position == len(tails):
            tails.append(item)
        else:
            tails[position] = item
    return len(tails)


def grade_order(variant: Variant, order: Sequence[int], hints_used: int = 0) -> Result:
    """The learner's order, as the items' indices in the correct order, against 0, 1, 2, ..."""
    count = len(variant.question.items)
    if sorted(order) != list(range(count)):
        raise ValueError(f"an order must list each of the {count} items once, got {list(order)}")
    run = longest_ordered_run(order)
    return finish(variant.question, run / count, hints_used, answer=list(range(count)), details={"ordered_run": run})


def grade_explain(variant: Variant, ticked: Collection[int], hints_used: int = 0) -> Result:
    """The share of rubric points the learner says their answer made."""
    count = len(variant.question.rubric)
    points = set(ticked)
    if not points <= set(range(count)):
        raise ValueError(f"rubric points are numbered 0 to {count - 1}, got {sorted(points)}")
    return finish(variant.question, len(points) / count, hints_used, details={"ticked": sorted(points)})


def give_up(variant: Variant, hints_used: int = 0) -> Result:
    """The learner asked for the answer: it is shown and the attempt scores 0."""
    question = variant.question
    answer: Any = variant.answer
    if isinstance(question, ChoiceQuestion | MultiQuestion):
        answer = correct_options(variant)
    elif isinstance(question, TrueFalseQuestion):
        answer = question.answer
    elif isinstance(question, OrderQuestion):
        answer = list(range(len(question.items)))
    return Result(score=0.0, verdict=Verdict.REVEALED, raw_score=0.0, hints_used=hints_used, answer=answer)
