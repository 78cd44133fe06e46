"""A practice session: which questions, in what order, the current variant and its attempt.

The app's screens drive a session and hold no grading logic. Every graded attempt leaves
through one place, straight to the `sink` the session is given (the history's recorder), as the
record history stores, with the time taken measured on the monotonic clock. A round asks each selected question once; after the last one
`next_question` says the round is over, and `summary()` tells how it went. A graded answer
whose question has a fitting pushback is challenged (`challenge`): the learner holds it
(`hold`) or revises it (`revise`), and the challenge is graded and committed to the sink, linked
to the attempt (quiz.session.pushback); the screen holds the feedback back until then.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from quiz.bank import Bank, Selection, SelectionError
from quiz.expressions.budget import Budget, BudgetExceeded
from quiz.format.compile import CompiledQuestion
from quiz.format.model import QuestionBase, Text
from quiz.grading.result import Result
from quiz.history.graded import attempt_from_grade
from quiz.history.pushbacks import PushbackRow
from quiz.history.records import AttemptRecord, Mode, now_ms
from quiz.practice.summary import RoundEntry, RoundSummary, summarise
from quiz.session.pushback import Challenge, pushback_for
from quiz.types.draw import make_variant
from quiz.types.registry import type_of

if TYPE_CHECKING:
    from quiz.session import AttemptSink
    from quiz.types.base import QuestionType
from quiz.variants.variant import Variant, VariantError

MAX_SEED = 10**6


@dataclass
class PracticeSession:
    """Questions matching a selection, asked one variant at a time."""

    bank: Bank
    selection: Selection = field(default_factory=Selection)
    sink: AttemptSink | None = None
    """Where each graded attempt is committed as it is graded (None: nowhere, as `quiz grade` without --record)."""
    rng: random.Random = field(default_factory=random.Random)
    lang: str = "en"
    mode: Mode = Mode.PRACTICE
    """What history files the attempts under: `practice`, or `review` for a round of due questions."""
    clock: Callable[[], float] = time.monotonic
    """Seconds on a clock that only moves forward: the time taken on each question."""
    wall_clock: Callable[[], int] = now_ms
    """UTC epoch milliseconds: when an attempt is graded (the app's clock, which tests fix)."""
    problems: list[str] = field(default_factory=list)
    """Questions skipped because they could not be compiled or drawn, for the screen to show."""

    def _warm_up_first(self) -> None:
        """Put the first question of the easiest level drawn at the front: a shuffled round starts
        easy, as a mock interview does, and goes on in its shuffled order."""
        questions = self.bank.questions
        if self._order:
            easiest = min(questions[i].difficulty for i in self._order)
            first = next(i for i in self._order if questions[i].difficulty == easiest)
            self._order.remove(first)
            self._order.insert(0, first)

    def __post_init__(self) -> None:
        self._order = self.bank.select(self.selection)
        self._first_seed = self.bank.find(self.selection.key)[1] if self.selection.key else None
        if not self.selection.key and not self.selection.ids:  # a list of ids is asked in its order
            self.rng.shuffle(self._order)
            self._warm_up_first()
        if not self._order:
            raise SelectionError("no_match")
        self._position = -1
        self.answered = 0
        self.score_total = 0.0
        self.variant: Variant | None = None
        self.hints_shown = 0
        self.result: Result | None = None
        self.last_attempt: AttemptRecord | None = None
        self.challenge: Challenge | None = None
        """The pushback put to the last answer, awaiting `hold` or `revise`."""
        """The record of the last graded attempt, as given to the sink."""
        self.kind: QuestionType[QuestionBase] | None = None
        """The current question's type, looked up once when it is drawn."""
        self.round: list[RoundEntry] = []
        """The questions of this round as shown, with their results (None while unanswered)."""
        self._shown_at = 0.0

    @property
    def size(self) -> int:
        """How many questions the selection holds."""
        return len(self._order)

    @property
    def mean_score(self) -> float:
        return self.score_total / self.answered if self.answered else 0.0

    @property
    def round_over(self) -> bool:
        """Every question of the selection has been shown once."""
        return self._position >= len(self._order) - 1

    def next_question(self) -> Variant | None:
        """Move to the next question of the round and draw its variant; None after the last.

        Questions that cannot be drawn are skipped, but only for as long as one variant's CPU
        budget: the screen waiting on this stays responsive whatever the packs hold.
        """
        searching = Budget(check_interval=0)  # checked once a question
        with searching.running():
            self.challenge = None  # one not met is left so: the answer stands
            while not self.round_over:
                self._position += 1
                variant = self._draw(self._order[self._position], self._take_first_seed())
                if variant is not None:
                    self.round.append(RoundEntry(variant, None))
                    return variant
                try:
                    searching.check_time()
                except BudgetExceeded:
                    break
        if not self.round:
            raise SelectionError("unprepared", problems="; ".join(self.problems[-3:]))
        return None

    def summary(self) -> RoundSummary:
        """How the round went so far: scores by topic, what was missed, which mistakes were made."""
        return summarise(self.bank, self.round)

    def fresh_variant(self) -> Variant:
        """A new variant of the current question (new numbers for a parametric one)."""
        assert self.variant is not None, "no current question"
        variant = self._draw(self.variant.question.id, None)
        if variant is None:
            raise SelectionError("unprepared", problems=self.problems[-1])
        self.round[-1] = RoundEntry(variant, None)
        return variant

    def next_hint(self) -> Text | None:
        """Reveal the next hint of the current question, or None when all are shown."""
        assert self.variant is not None and self.result is None
        hints = self.variant.question.hints
        if self.hints_shown >= len(hints):
            return None
        self.hints_shown += 1
        return hints[self.hints_shown - 1]

    def submit(self, response: Any, typed: str | None = None) -> Result:
        """Grade `response` to the current variant and record the attempt; `typed` is the text as
        the learner typed it (the type writes the response as text when there is none)."""
        assert self.variant is not None and self.result is None, "already answered"
        assert self.kind is not None
        if typed is None:
            typed = self.kind.response_text(self.variant, response)
        result = self._record(self.kind.grade(self.variant, response, self.hints_shown), typed)
        assert self.last_attempt is not None
        pushback = pushback_for(self.variant, self.last_attempt)
        self.challenge = None if pushback is None else Challenge(pushback, self.last_attempt, self.variant)
        return result

    def hold(self) -> PushbackRow:
        """Meet the challenge by keeping the answer; graded and committed."""
        return self._meet(None, None)

    def revise(self, response: Any, typed: str | None = None) -> PushbackRow:
        """Meet the challenge with a new answer (`response`, as the answer widget gives it); graded and committed."""
        challenge = self.challenge
        assert challenge is not None and self.kind is not None, "no challenge is being put"
        if typed is None:
            typed = self.kind.response_text(challenge.variant, response)
        return self._meet(self.kind.grade(challenge.variant, response), typed)

    def _meet(self, revised: Result | None, typed: str | None) -> PushbackRow:
        challenge = self.challenge
        assert challenge is not None, "no challenge is being put"
        now = self.wall_clock()
        row = challenge.met(revised, typed, at_ms=now, duration_ms=max(0, now - challenge.attempt.at_ms))
        self.challenge = None
        if self.sink is not None:
            self.sink.record_pushback(row)
        return row

    def reveal(self) -> Result:
        """Give up: show the answer and record a zero."""
        assert self.variant is not None and self.result is None, "already answered"
        assert self.kind is not None
        return self._record(self.kind.give_up(self.variant, self.hints_shown), None)

    def _record(self, result: Result, typed: str | None) -> Result:
        variant = self.variant
        assert variant is not None
        self.result = result
        self.answered += 1
        self.score_total += result.score
        self.round[-1] = RoundEntry(variant, result)
        seconds = self.clock() - self._shown_at
        record = attempt_from_grade(variant, result, response=typed, lang=self.lang, mode=self.mode, seconds=seconds, at_ms=self.wall_clock())
        self.last_attempt = record
        if self.sink is not None:
            self.sink.record(record)
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
        self.kind = type_of(variant.question)
        self._shown_at = self.clock()
        return variant

    def _compile(self, question_id: str) -> CompiledQuestion | None:
        compiled = self.bank.compiled(question_id)
        if compiled is None:
            self.problems.extend(str(d) for d in self.bank.problems(question_id))
        return compiled
