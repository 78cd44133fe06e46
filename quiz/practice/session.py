"""A practice session: which questions, in what order, the current variant and its attempt.

The app's screens drive a session and hold no grading logic. Every graded attempt leaves
through one place, the `on_attempt` callback, so history can be added without touching them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from quiz.bank import Bank, Selection, SelectionError
from quiz.format.compile import CompiledQuestion
from quiz.format.model import Text
from quiz.grading.grade import give_up, grade
from quiz.grading.result import Result
from quiz.types.registry import type_of
from quiz.variants.draw import make_variant
from quiz.variants.variant import Variant, VariantError

MAX_SEED = 10**6


@dataclass(frozen=True)
class Attempt:
    """One graded attempt, as history will store it: enough to rebuild the variant without drawing."""

    question_id: str
    version: str
    key: str
    seed: int
    inputs: dict[str, Any]
    response: Any
    score: float
    raw_score: float
    verdict: str
    hints_used: int
    misconception: str | None
    answered_at: datetime


@dataclass
class PracticeSession:
    """Questions matching a selection, asked one variant at a time."""

    bank: Bank
    selection: Selection = field(default_factory=Selection)
    on_attempt: Callable[[Attempt], None] | None = None
    rng: random.Random = field(default_factory=random.Random)
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    problems: list[str] = field(default_factory=list)
    """Questions skipped because they could not be compiled or drawn, for the screen to show."""

    def __post_init__(self) -> None:
        self._order = self.bank.select(self.selection)
        self._first_seed = self.bank.find(self.selection.key)[1] if self.selection.key else None
        if not self.selection.key:
            self.rng.shuffle(self._order)
        if not self._order:
            raise SelectionError("no_match")
        self._position = -1
        self.answered = 0
        self.score_total = 0.0
        self.variant: Variant | None = None
        self.hints_shown = 0
        self.result: Result | None = None

    @property
    def size(self) -> int:
        """How many questions the selection holds."""
        return len(self._order)

    @property
    def mean_score(self) -> float:
        return self.score_total / self.answered if self.answered else 0.0

    def next_question(self) -> Variant:
        """Move to the next question (going round again after the last) and draw its variant."""
        for _ in range(len(self._order)):
            self._position = (self._position + 1) % len(self._order)
            variant = self._draw(self._order[self._position], self._take_first_seed())
            if variant is not None:
                return variant
        raise SelectionError("unprepared", problems="; ".join(self.problems[-3:]))

    def fresh_variant(self) -> Variant:
        """A new variant of the current question (new numbers for a parametric one)."""
        assert self.variant is not None, "no current question"
        variant = self._draw(self.variant.question.id, None)
        if variant is None:
            raise SelectionError("unprepared", problems=self.problems[-1])
        return variant

    def next_hint(self) -> Text | None:
        """Reveal the next hint of the current question, or None when all are shown."""
        assert self.variant is not None and self.result is None
        hints = self.variant.question.hints
        if self.hints_shown >= len(hints):
            return None
        self.hints_shown += 1
        return hints[self.hints_shown - 1]

    def submit(self, response: Any) -> Result:
        """Grade `response` to the current variant and record the attempt."""
        assert self.variant is not None and self.result is None, "already answered"
        return self._record(grade(self.variant, response, self.hints_shown), response)

    def reveal(self) -> Result:
        """Give up: show the answer and record a zero."""
        assert self.variant is not None and self.result is None, "already answered"
        return self._record(give_up(self.variant, self.hints_shown), None)

    def _record(self, result: Result, response: Any) -> Result:
        variant = self.variant
        assert variant is not None
        self.result = result
        self.answered += 1
        self.score_total += result.score
        if self.on_attempt is not None:
            self.on_attempt(
                Attempt(
                    question_id=variant.question.id,
                    version=variant.question.version,
                    key=variant.key,
                    seed=variant.seed,
                    inputs=variant.inputs,
                    response=None if response is None else type_of(variant.question).response_json(response),
                    score=result.score,
                    raw_score=result.raw_score,
                    verdict=str(result.verdict),
                    hints_used=result.hints_used,
                    misconception=result.misconception,
                    answered_at=self.clock(),
                )
            )
        return result

    def _take_first_seed(self) -> int | None:
        seed, self._first_seed = self._first_seed, None
        return seed

    def _draw(self, question_id: str, seed: int | None) -> Variant | None:
        compiled = self._compile(question_id)
        if compiled is None:
            return None
        try:
            variant = make_variant(compiled, self.rng.randrange(MAX_SEED) if seed is None else seed)
        except VariantError as exc:
            self.problems.append(str(exc))
            return None
        self.variant, self.hints_shown, self.result = variant, 0, None
        return variant

    def _compile(self, question_id: str) -> CompiledQuestion | None:
        compiled = self.bank.compiled(question_id)
        if compiled is None:
            self.problems.extend(str(d) for d in self.bank.problems(question_id))
        return compiled
