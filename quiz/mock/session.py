"""A mock interview being sat: the question asked, the two countdowns, grading and recording.

The app's screens drive a session and hold no grading or timing logic. Time is read from
injected clocks: the deadline is the stored start plus the interview's length, so a resumed
interview keeps counting from when it began. Every answer is committed as it is given.

Spoken (explain) questions are self-graded after the interview. Attempts are append-only, so a
spoken answer is not recorded as an attempt until it is self-graded: its notes and time are
committed at once to the history's `mock_self_grades` table (nothing is lost if the process is
killed), and self-grading writes the levels there and the attempt, with the score the levels
give, in one transaction. The report reads both.

Follow-ups form chains: after a question is answered (a planned one or a follow-up), its first
follow-up whose condition fits the answer (`when`: right, wrong or any) and that is not yet asked
or planned is asked next if the time left covers its budget; when none is, the chain ends and the
next planned question is asked. A spoken answer is graded after the interview, so only `any`
follows it. Pushback: a graded answer whose question has a fitting pushback is challenged before
anything else is asked (`challenge`); the candidate holds it (`hold`) or revises it (`revise`),
and the challenge is graded and committed like an answer (quiz.session.pushback). The chain then
branches on the answer that stands. A sitting resumed keeps its chain (each asked row names the
question it follows up) and a challenge not yet met is put again. If the history file cannot be
used the interview still runs, in memory.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from quiz.answer_text.outcome import Invalid
from quiz.bank import Bank
from quiz.format.model import outcome_matches
from quiz.grading.result import Result, Verdict
from quiz.history.graded import attempt_from_grade
from quiz.history.mocks import LEVELS, AskedRow, MockProgress, MockRow, SpokenRow, StoredMock, chain_depth
from quiz.history.pushbacks import PushbackRow
from quiz.history.recorder import Recorder
from quiz.history.records import AttemptRecord, Mode, capped_duration_ms, new_attempt_id
from quiz.mock.clock import Clock, Countdown, StoredStart, interview_clock
from quiz.mock.compose import MockPlan, PlannedQuestion, drawn_variant, variant_seed
from quiz.mock.options import MockOptionsError
from quiz.mock.sitting import options_json, plan_from_json, plan_json, spoken_attempt
from quiz.session.pushback import Challenge, answer_right, pushback_for
from quiz.types.registry import type_of
from quiz.variants.variant import Variant

if TYPE_CHECKING:
    from quiz.format.model import QuestionBase
    from quiz.mock.report import MockReport
    from quiz.types.base import QuestionType

SPOKEN = "explain"
"""The question type answered aloud and self-graded."""


@dataclass(frozen=True)
class SelfGradeItem:
    """A spoken answer awaiting self-grading: the variant (its checklist and model answer) and the notes."""

    id: str
    position: int
    variant: Variant
    notes: str | None
    seconds: float | None
    budget: float

    @property
    def checklist(self) -> tuple[Any, ...]:
        """The points to grade, one level each (Text, in both languages)."""
        return tuple(self.variant.question.rubric)  # type: ignore[attr-defined]


@dataclass
class _Asked:
    row: AskedRow
    variant: Variant
    kind: QuestionType[QuestionBase]
    """The question's type, looked up once when it is asked."""


class CannotResume(Exception):
    """A stored sitting whose options or plan cannot be read back: it was ended as it stands. `str()` says why."""


class MockSession:
    """One sitting of a mock interview. Use `start` or `resume`."""

    def __init__(self, bank: Bank, plan: MockPlan, recorder: Recorder, row: MockRow, *, clock: Clock, wall: Clock, boot: str | None) -> None:
        self.bank = bank
        self.plan = plan
        self.recorder = recorder
        self.mock_id = row.id
        self.feedback = row.feedback
        self.lang = row.lang
        self._row = row
        self._clock = clock
        self._wall = wall
        start = StoredStart(row.start_clock, row.start_wall, row.start_boot)
        # The interview's start on `clock`: the stored start, wherever this process began.
        self._origin = clock() - start.elapsed(clock, wall, boot)
        self._asked: list[_Asked] = []
        self._attempts: list[AttemptRecord] = []
        self._spoken: list[SpokenRow] = []
        self._pushbacks: list[PushbackRow] = []
        self._challenge: Challenge | None = None
        self._queue: list[PlannedQuestion] = list(plan.questions)
        self._progress = MockProgress(row.id)  # written when the step that made it ends
        self._last_position = 0  # of the questions asked, stored ones included
        self.finished = False

    # -- starting and resuming ------------------------------------------------------------------

    @classmethod
    def start(
        cls, bank: Bank, plan: MockPlan, recorder: Recorder, *, lang: str, feedback: str = "end",
        clock: Clock = interview_clock, wall: Clock = time.time, boot: str | None = None,
    ) -> MockSession:  # fmt: skip
        """Start `plan` now: the sitting is stored, then its first question is asked. `boot` is
        this boot's id (default: the system's; tests give one)."""
        if feedback not in ("end", "each"):
            raise ValueError(f"feedback must be end or each, got {feedback!r}")
        start = StoredStart.now(clock, wall, boot)
        row = MockRow(
            id=new_attempt_id(), key=plan.key, options=options_json(plan.options), plan=plan_json(plan), lang=lang,
            feedback=feedback, start_clock=start.clock, start_wall=start.wall, start_boot=start.boot,
            started_ms=int(start.wall * 1000),
        )  # fmt: skip
        session = cls(bank, plan, recorder, row, clock=clock, wall=wall, boot=boot)
        session._progress.mock = row
        session._advance()
        session._save()
        return session

    @classmethod
    def resume(
        cls, bank: Bank, recorder: Recorder, mock_id: str, *, clock: Clock = interview_clock, wall: Clock = time.time, boot: str | None = None
    ) -> MockSession | None:
        """The stored sitting `mock_id` again, its clock running from its stored start (by the
        wall clock after a reboot): the unanswered question asked again, or, past the deadline,
        closed as over time. A finished sitting comes back finished (its spoken answers may
        still await self-grading). None when it is not stored (or the history cannot be read);
        CannotResume, once the sitting is closed as it stands, when its stored plan cannot be read."""
        stored = recorder.stored_mock(mock_id)
        if stored is None:
            return None
        try:
            plan = plan_from_json(stored.row)
        except MockOptionsError as exc:  # changed by hand or imported so: ended as it stands, never offered again
            recorder.save_mock(MockProgress(mock_id, finished_ms=recorder.now_ms()))
            raise CannotResume(str(exc)) from None
        session = cls(bank, plan, recorder, stored.row, clock=clock, wall=wall, boot=boot)
        session._restore(stored)
        session._save()
        return session

    def _restore(self, stored: StoredMock) -> None:
        self._attempts = list(stored.attempts)
        self._spoken = list(stored.spoken)
        self._pushbacks = list(stored.pushbacks)
        self._last_position = max((row.position for row in stored.asked), default=0)
        for row in stored.asked:
            variant = self._variant(row.question, row.seed)
            if variant is not None:
                self._asked.append(_Asked(row, variant, type_of(variant.question)))
        asked_ids = {a.row.question for a in self._asked}
        self._queue = [p for p in self.plan.questions if p.question_id not in asked_ids]
        if stored.row.status == "finished":
            self.finished = True
            return
        if self._asked and self.current is None:  # a challenge put and not yet met is put again
            self._challenge = self._challenge_to(self._asked[-1])
        if self.check_deadline():
            self.time_out(None)
        elif self.current is None and self._challenge is None:
            self._advance()

    # -- what is being asked --------------------------------------------------------------------

    @property
    def current(self) -> Variant | None:
        """The question being asked; None once the interview is finished."""
        if self.finished or not self._asked:
            return None
        last = self._asked[-1]
        return None if self._answered(last.row.question) else last.variant

    @property
    def position(self) -> tuple[int, int]:
        """(1-based number of the current question, planned total including follow-ups asked)."""
        follow_ups = sum(1 for a in self._asked if a.row.follow_up_of is not None)
        return len(self._asked), len(self.plan.questions) + follow_ups

    @property
    def is_follow_up(self) -> bool:
        return bool(self._asked) and self._asked[-1].row.follow_up_of is not None

    @property
    def depth(self) -> int:
        """How deep in its chain the current (or last) question is: 0 for a planned one, 1 for its follow-up, ..."""
        return chain_depth([a.row for a in self._asked], len(self._asked) - 1) if self._asked else 0

    @property
    def challenge(self) -> Challenge | None:
        """The pushback put to the last answer, awaiting `hold` or `revise`; None when there is none."""
        return None if self.finished else self._challenge

    @property
    def interview(self) -> Countdown:
        """The whole interview's countdown, from its stored start."""
        return Countdown(self._origin, self.plan.options.seconds, self._clock)

    @property
    def question(self) -> Countdown:
        """The current (or last) question's countdown over its budget; over time, it stays open."""
        if not self._asked:
            return Countdown(self._origin, 0.0, self._clock)
        row = self._asked[-1].row
        return Countdown(self._origin + row.shown_s, row.budget, self._clock)

    @property
    def last_attempt(self) -> AttemptRecord | None:
        """The record of the last attempt (graded, timed out or not reached), committed by the step that made it."""
        return self._attempts[-1] if self._attempts else None

    def check_deadline(self) -> bool:
        """True when the interview's deadline has passed."""
        return self.interview.over()

    # -- answering ------------------------------------------------------------------------------

    def submit(self, response: Any, typed: str | None = None) -> Result:
        """Grade `response` to the current question, commit it, then ask the next question.

        A spoken question is not graded now: its notes (`typed`, or `response` when text) are
        kept for self-grading, and the Result says so with `details["self_grade"]` (the item's id,
        score 0 until graded). Past the deadline the answer still counts and the interview ends.
        """
        variant = self.current
        assert variant is not None, "no question is being asked"
        kind = self._asked[-1].kind
        if kind.name == SPOKEN:
            notes = typed if typed is not None else response if isinstance(response, str) else None
            result = self._keep_spoken(variant, notes)
        else:
            if typed is None:
                typed = kind.response_text(variant, response)
            result = self._grade(variant, kind, response, typed)
            if not self.check_deadline():
                self._challenge = self._challenge_to(self._asked[-1])
        if self.check_deadline():
            self._close()
        elif self._challenge is None:
            self._advance()
        self._save()
        return result

    def hold(self) -> PushbackRow:
        """Meet the challenge by keeping the answer; graded, committed, then the next question is asked."""
        return self._meet(None, None)

    def revise(self, response: Any, typed: str | None = None) -> PushbackRow:
        """Meet the challenge with a new answer (`response`, read by the question's type); graded,
        committed, then the next question is asked."""
        challenge = self._challenge
        assert challenge is not None, "no challenge is being put"
        kind = type_of(challenge.variant.question)
        if typed is None:
            typed = kind.response_text(challenge.variant, response)
        return self._meet(kind.grade(challenge.variant, response), typed)

    def _meet(self, revised: Result | None, typed: str | None) -> PushbackRow:
        challenge = self._challenge
        assert challenge is not None, "no challenge is being put"
        now = self._now_ms()
        row = challenge.met(revised, typed, at_ms=now, duration_ms=max(0, now - challenge.attempt.at_ms))
        self._challenge = None
        self._pushbacks.append(row)
        self._progress.pushbacks.append(row)
        if self.check_deadline():
            self._close()
        else:
            self._advance()
        self._save()
        return row

    def time_out(self, typed: str | None) -> None:
        """The deadline passed: `typed` counts if it reads as an answer to the current question
        (else "no answer", never an empty answer graded); every question not reached is recorded
        as such, and the interview ends. Nothing happens once it has ended."""
        if self.finished:
            return
        self._challenge = None  # a challenge not met when time is up is not graded: the answer stands
        variant = self.current
        if variant is not None:
            kind = self._asked[-1].kind
            text = (typed or "").strip()
            if kind.name == SPOKEN and text:
                self._keep_spoken(variant, typed)
            else:
                response = kind.read(variant, typed) if typed and text else None
                if response is None or isinstance(response, Invalid):
                    self._record(self._ungraded(variant, "no_answer", typed if text else None, self._taken()))
                else:
                    self._grade(variant, kind, response, typed)
        self._close()
        self._save()

    def _grade(self, variant: Variant, kind: QuestionType[QuestionBase], response: Any, typed: str | None) -> Result:
        result = kind.grade(variant, response)
        seconds, at_ms = self._taken(), self._now_ms()
        attempt = attempt_from_grade(variant, result, response=typed, lang=self.lang, mode=Mode.MOCK, seconds=seconds, at_ms=at_ms, mock=self.mock_id)
        self._record(attempt)
        return result

    def _keep_spoken(self, variant: Variant, notes: str | None) -> Result:
        seconds = self._taken()
        row = SpokenRow(
            id=new_attempt_id(), mock=self.mock_id, position=self._asked[-1].row.position, question=variant.question.id,
            version=variant.question.version, key=variant.key, seed=variant.seed, inputs=variant.inputs, lang=self.lang,
            notes=notes or None, at_ms=self._now_ms(), duration_ms=capped_duration_ms(seconds, variant.question.time),
        )  # fmt: skip
        self._spoken.append(row)
        self._progress.spoken.append(row)
        return Result(score=0.0, verdict=Verdict.INCORRECT, raw_score=0.0, details={"self_grade": row.id})

    def _close(self) -> None:
        """Record every question not reached and finish the interview."""
        for planned in self._queue:
            variant = self._variant(planned.question_id, planned.seed)
            if variant is not None:
                self._record(self._ungraded(variant, "not_reached", None, None))
        self._queue = []
        self._finish()

    def _finish(self) -> None:
        self.finished = True
        self._row = replace(self._row, status="finished", finished_ms=self._now_ms())
        self._progress.finished_ms = self._row.finished_ms

    def _advance(self) -> None:
        """Ask the next question: a follow-up if one fits the time left, else the next planned."""
        follow_up = self._follow_up()
        if follow_up is not None and self._ask(follow_up, self._asked[-1].row.question):
            return
        while self._queue:
            planned = self._queue.pop(0)
            if self._ask(planned, None):
                return
        self._finish()

    def _follow_up(self) -> PlannedQuestion | None:
        """The next question of the chain the last answer is on, if one fits its answer and the time left."""
        if not self._asked:
            return None
        last = self._asked[-1]
        right = self._stands_right(last.row.question)
        taken = {a.row.question for a in self._asked} | {p.question_id for p in self._queue}
        for link in last.variant.question.follow_ups:
            question_id = link.id
            if not outcome_matches(link.when, right) or question_id in taken or question_id not in self.bank.questions:
                continue
            budget = float(self.bank.questions[question_id].time)
            if self.interview.remaining() < budget:
                return None
            return PlannedQuestion(question_id, variant_seed(self.plan.options.seed, question_id), budget)
        return None

    def _stands_right(self, question_id: str) -> bool | None:
        """Whether the answer to `question_id` stands right after any challenge (None: not graded yet)."""
        attempt = next((a for a in reversed(self._attempts) if a.question == question_id), None)
        if attempt is None:
            return None
        met = next((p for p in self._pushbacks if p.attempt == attempt.id), None)
        return answer_right(met.verdict if met is not None else attempt.verdict)

    def _challenge_to(self, asked: _Asked) -> Challenge | None:
        """The challenge to put to `asked`'s graded answer: its question's fitting pushback, unless already met."""
        attempt = next((a for a in reversed(self._attempts) if a.question == asked.row.question), None)
        if attempt is None or any(p.attempt == attempt.id for p in self._pushbacks):
            return None
        pushback = pushback_for(asked.variant, attempt)
        return None if pushback is None else Challenge(pushback, attempt, asked.variant)

    def _ask(self, planned: PlannedQuestion, follow_up_of: str | None) -> bool:
        variant = self._variant(planned.question_id, planned.seed)
        if variant is None:
            return False
        shown = self.interview.elapsed()
        self._last_position += 1
        row = AskedRow(self.mock_id, self._last_position, planned.question_id, planned.seed, planned.budget, follow_up_of, shown)
        self._asked.append(_Asked(row, variant, type_of(variant.question)))
        self._progress.asked.append(row)
        return True

    # -- self-grading and the report ------------------------------------------------------------

    def pending_self_grades(self) -> list[SelfGradeItem]:
        """The spoken answers not yet self-graded, in the order given."""
        items = []
        for row in self._spoken:
            if row.levels is not None:
                continue
            variant = self._variant(row.question, row.seed)
            if variant is None:
                continue
            budget = next((a.row.budget for a in self._asked if a.row.question == row.question), float(variant.question.time))
            seconds = None if row.duration_ms is None else row.duration_ms / 1000
            items.append(SelfGradeItem(row.id, row.position, variant, row.notes, seconds, budget))
        return items

    def self_grade(self, item_id: str, levels: Sequence[str]) -> None:
        """Grade a spoken answer, one level per checklist point; its attempt is then recorded."""
        index = next((n for n, row in enumerate(self._spoken) if row.id == item_id), None)
        if index is None:
            raise KeyError(item_id)
        row = self._spoken[index]
        if row.levels is not None:
            raise ValueError(f"{item_id} is already self-graded")
        variant = self._variant(row.question, row.seed)
        assert variant is not None
        levels = tuple(levels)
        points = len(variant.question.rubric)  # type: ignore[attr-defined]
        if len(levels) != points or any(level not in LEVELS for level in levels):
            raise ValueError(f"give one of {', '.join(LEVELS)} for each of the {points} checklist points, got {list(levels)}")
        graded = replace(row, levels=levels, graded_ms=self._now_ms())
        attempt = spoken_attempt(graded, variant.question)
        self._spoken[index] = graded
        self._attempts.append(attempt)
        self.recorder.self_grade(graded, attempt)

    def stored(self) -> StoredMock:
        """The sitting as history keeps it (from memory: the same whether or not the file is usable)."""
        return StoredMock(self._row, tuple(a.row for a in self._asked), tuple(self._attempts), tuple(self._spoken), tuple(self._pushbacks))

    def report(self) -> MockReport:
        """The report of this sitting, compared with the candidate's earlier finished mocks."""
        from quiz.mock.report import build_report

        return build_report(self.bank, self.stored(), self.recorder.earlier_mocks(self.mock_id))

    # -- helpers ----------------------------------------------------------------------------------

    def _answered(self, question_id: str) -> bool:
        return any(a.question == question_id for a in self._attempts) or any(s.question == question_id for s in self._spoken)

    def _taken(self) -> float:
        return self.question.elapsed()

    def _now_ms(self) -> int:
        return int(self._wall() * 1000)

    def _record(self, attempt: AttemptRecord) -> None:
        self._attempts.append(attempt)
        self._progress.attempts.append(attempt)

    def _save(self) -> None:
        """Commit what this step added, in one transaction, before the caller sees its result."""
        progress, self._progress = self._progress, MockProgress(self.mock_id)
        if progress:
            self.recorder.save_mock(progress)

    def _ungraded(self, variant: Variant, verdict: str, typed: str | None, seconds: float | None) -> AttemptRecord:
        question = variant.question
        return AttemptRecord(
            id=new_attempt_id(), at_ms=self._now_ms(), question=question.id, version=question.version, key=variant.key,
            seed=variant.seed, inputs=variant.inputs, lang=self.lang, mode=Mode.MOCK, response=typed, score=0.0, verdict=verdict,
            duration_ms=None if seconds is None else capped_duration_ms(seconds, question.time), mock=self.mock_id,
            topic=question.topic, claims=tuple(question.refs),
        )  # fmt: skip

    def _variant(self, question_id: str, seed: int) -> Variant | None:
        return drawn_variant(self.bank, question_id, seed)

