"""A practice session: which questions, in what order, the current variant and its attempt.

The app's screens drive a session and hold no grading logic. Every graded attempt leaves
through one place, the `on_attempt` callback, so history can be added without touching them.
"""

from __future__ import annotations

import difflib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from quiz.bank import Bank
from quiz.format.diagnostics import Report
from quiz.format.checks import check_question
from quiz.format.claims import Claims
from quiz.format.compile import CompiledQuestion
from quiz.format.model import QuestionBase, Text
from quiz.grading.grade import give_up, grade
from quiz.grading.result import Result
from quiz.i18n import DEFAULT_LANGUAGE, tr
from quiz.types.registry import type_of
from quiz.variants.draw import make_variant
from quiz.variants.keys import parse_key
from quiz.variants.variant import Variant, VariantError

MAX_SEED = 10**6


@dataclass(frozen=True)
class Selection:
    """Which questions to practise: all, or by topic, claim, difficulty, or one id/variant key."""

    topic: str | None = None
    claim: str | None = None
    difficulty: int | None = None
    key: str | None = None

    def matches(self, question: QuestionBase) -> bool:
        return (
            (self.topic is None or question.topic == self.topic)
            and (self.claim is None or self.claim in question.refs)
            and (self.difficulty is None or question.difficulty == self.difficulty)
        )


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


class SessionError(Exception):
    """The selection holds no usable question, or names a topic, claim or id the bank lacks.

    `key` names the catalogue message (`session.unknown_topic`) and `params` fill it, so the app
    can say it in the learner's language; `str()` is the English text, for the command line.
    """

    def __init__(self, key: str, /, **params: object) -> None:
        super().__init__(tr(f"session.{key}", DEFAULT_LANGUAGE, **params))
        self.key = key
        self.params = params

    def message(self, lang: str) -> str:
        return tr(f"session.{self.key}", lang, **self.params)


def check_selection(claims: Claims, selection: Selection) -> None:
    """Refuse a topic, claim or variant key the bank cannot have, before anything is drawn."""
    if selection.topic is not None and claims.topics and selection.topic not in claims.topics:
        raise SessionError("unknown_topic", topic=selection.topic, topics=", ".join(claims.topics))
    if selection.claim is not None and claims.claims and selection.claim not in claims.claims:
        close = difflib.get_close_matches(selection.claim.upper(), list(claims.claims), n=1, cutoff=0.5)
        if close:
            raise SessionError("unknown_claim_close", claim=selection.claim, close=close[0])
        raise SessionError("unknown_claim", claim=selection.claim)
    if selection.key is not None:
        try:
            parse_key(selection.key)
        except ValueError:
            raise SessionError("bad_key", key=selection.key) from None


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
        self._compiled: dict[str, CompiledQuestion | None] = {}
        self._first_seed: int | None = None
        check_selection(self.bank.claims, self.selection)
        if self.selection.key:
            question_id, self._first_seed = parse_key(self.selection.key)
            if question_id not in self.bank.questions:
                close = difflib.get_close_matches(question_id, list(self.bank.questions), n=1)
                if close:
                    raise SessionError("unknown_question_close", id=question_id, close=close[0])
                raise SessionError("unknown_question", id=question_id)
            self._order = [question_id]
        else:
            self._order = [q.id for q in self.bank.questions.values() if self.selection.matches(q)]
            self.rng.shuffle(self._order)
        if not self._order:
            raise SessionError("no_match")
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
        raise SessionError("unprepared", problems="; ".join(self.problems[-3:]))

    def fresh_variant(self) -> Variant:
        """A new variant of the current question (new numbers for a parametric one)."""
        assert self.variant is not None, "no current question"
        variant = self._draw(self.variant.question.id, None)
        if variant is None:
            raise SessionError("unprepared", problems=self.problems[-1])
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
        if question_id not in self._compiled:
            report = Report()
            compiled = check_question(self.bank.questions[question_id], self.bank.claims, report)
            self._compiled[question_id] = compiled
            self.problems.extend(str(d) for d in report.errors)
        return self._compiled[question_id]
