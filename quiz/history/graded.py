"""The attempt record of a graded answer: what `quiz grade --record` and the app store."""

from __future__ import annotations

from typing import TYPE_CHECKING

from quiz.history.records import AttemptRecord, Mode, capped_duration_ms, new_attempt_id, now_ms

if TYPE_CHECKING:  # types only: the history core loads without numpy
    from quiz.grading.result import Result
    from quiz.variants.variant import Variant


def attempt_from_grade(
    variant: Variant,
    result: Result,
    *,
    response: str | None,
    lang: str,
    mode: Mode,
    seconds: float | None = None,
    at_ms: int | None = None,
    mock: str | None = None,
) -> AttemptRecord:
    """The record of `result`, the grade of `response` (as typed) to `variant`; `seconds` is the
    time taken on the monotonic clock, capped at three times the question's time budget."""
    question = variant.question
    return AttemptRecord(
        id=new_attempt_id(),
        at_ms=now_ms() if at_ms is None else at_ms,
        question=question.id,
        version=question.version,
        key=variant.key,
        seed=variant.seed,
        inputs=variant.inputs,
        lang=lang,
        mode=mode,
        response=response,
        score=float(result.score),
        verdict=str(result.verdict),
        misconception=result.misconception,
        hints=result.hints_used,
        revealed=str(result.verdict) == "revealed",
        duration_ms=None if seconds is None else capped_duration_ms(seconds, question.time),
        mock=mock,
        topic=question.topic,
        claims=tuple(question.refs),
    )
