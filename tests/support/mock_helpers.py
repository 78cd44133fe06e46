"""Mock interviews for the tests: a fixed plan on the bundled bank, a clock the test moves, and
right answers to whatever is asked."""

from __future__ import annotations

from typing import Any

from quiz.bank import load_bank
from quiz.history.recorder import Recorder
from quiz.mock.compose import MockPlan, PlannedQuestion, bank_fingerprint, variant_seed
from quiz.mock.options import MockOptions, mock_key
from quiz.mock.session import MockSession
from quiz.types.registry import type_of
from quiz.variants.variant import Variant

BANK = load_bank()
WALL_START = 1_750_000_000.0  # 2025-06-15T15:06:40Z


class FakeClock:
    """The interview clock and the wall clock, both moved by the test."""

    def __init__(self, start: float = 5_000.0) -> None:
        self.now = start
        self.wall_offset = WALL_START - start

    def __call__(self) -> float:
        return self.now

    def wall(self) -> float:
        return self.now + self.wall_offset

    def advance(self, seconds: float) -> None:
        self.now += seconds


def plan_of(*question_ids: str, minutes: float = 30.0, seed: int = 3) -> MockPlan:
    """A plan asking exactly these questions, in this order."""
    options = MockOptions(minutes=minutes, seed=seed, questions=len(question_ids))
    questions = tuple(PlannedQuestion(i, variant_seed(seed, i), float(BANK.questions[i].time)) for i in question_ids)
    return MockPlan(mock_key(options, bank_fingerprint(BANK)), options, questions)


def start(plan: MockPlan, clock: FakeClock, *, lang: str = "en", recorder: Recorder | None = None) -> MockSession:
    return MockSession.start(BANK, plan, recorder or Recorder(), lang=lang, clock=clock, wall=clock.wall)


def right_answer(variant: Variant) -> Any:
    """A response that grades as correct (not for code or spoken questions)."""
    kind = type_of(variant.question)
    if kind.name == "evidence":  # the best play: the best first request, then the right fault
        return kind.read(variant, kind.answer_json(variant, "en"))
    answer = kind.revealed_answer(variant)
    return next(iter(answer)) if kind.name == "choice" else answer


def answer_rightly(session: MockSession, clock: FakeClock, seconds: float = 20.0) -> None:
    """Spend `seconds` on the current question and give the right answer (notes when spoken)."""
    variant = session.current
    assert variant is not None
    clock.advance(seconds)
    if type_of(variant.question).name == "explain":
        session.submit("notes: variance grows with d_k", "notes: variance grows with d_k")
    else:
        session.submit(right_answer(variant))
