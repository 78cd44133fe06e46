"""An interviewer's pushback: a challenge put once an answer is graded, met by holding the
answer or revising it, and graded on the answer that stands after it.

Holding a right answer is right; revising a wrong answer to a right one is right; abandoning a
right answer for a wrong one, or keeping a wrong one (held, or revised to another wrong one), is
wrong. So the challenge's grade is the grade of the final answer: the held answer's, or the
revised answer's. Which case it was is kept (`case`) so feedback can say why.
"""

from __future__ import annotations

from dataclasses import dataclass

from quiz.format.model import Pushback, outcome_matches
from quiz.grading.result import Result
from quiz.history.pushbacks import PushbackRow
from quiz.history.records import AttemptRecord, new_attempt_id
from quiz.variants.variant import Variant

GRADED = ("correct", "partial", "incorrect")
"""The verdicts of an answer a challenge can follow (not: no answer, not reached)."""


def answer_right(verdict: str) -> bool | None:
    """Whether a verdict is a right answer (True), a wrong one (False, partial credit included), or neither."""
    return None if verdict not in GRADED else verdict == "correct"


def pushback_for(variant: Variant, attempt: AttemptRecord) -> Pushback | None:
    """The question's first pushback whose `after` fits the graded answer, if any."""
    right = answer_right(attempt.verdict)
    if right is None:
        return None
    return next((p for p in variant.question.pushback if outcome_matches(p.after, right)), None)


@dataclass(frozen=True)
class Challenge:
    """A pushback put to the answer `attempt` recorded, awaiting the candidate's hold or revision."""

    pushback: Pushback
    attempt: AttemptRecord
    variant: Variant

    @property
    def was_right(self) -> bool:
        return self.attempt.verdict == "correct"

    def met(self, revised: Result | None, typed: str | None, *, at_ms: int, duration_ms: int | None) -> PushbackRow:
        """The row of this challenge met: held (`revised` None) or revised to the answer `revised` grades."""
        verdict, score = (self.attempt.verdict, self.attempt.score) if revised is None else (str(revised.verdict), revised.score)
        return PushbackRow(
            id=new_attempt_id(), attempt=self.attempt.id, mock=self.attempt.mock, question=self.attempt.question,
            choice="hold" if revised is None else "revise", response=None if revised is None else typed, score=score,
            verdict=verdict, at_ms=at_ms, duration_ms=duration_ms,
        )  # fmt: skip


def pushback_case(was_right: bool, row: PushbackRow) -> str:
    """Which case a challenge met was: held_right, restated_right (revised to another right answer),
    revised_right (wrong to right), abandoned_right (right to wrong) or kept_wrong."""
    if row.choice == "hold":
        return "held_right" if was_right else "kept_wrong"
    if was_right:
        return "restated_right" if row.verdict == "correct" else "abandoned_right"
    return "revised_right" if row.verdict == "correct" else "kept_wrong"
