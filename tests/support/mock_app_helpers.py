"""Mock interviews for the app's tests: a plan of chosen questions, a clock the test moves, and the
app opened straight into the interview with its clocks' timer off (the test ticks them)."""

from __future__ import annotations

from quiz.bank import Bank
from quiz.mock.compose import MockPlan, PlannedQuestion, bank_fingerprint, variant_seed
from quiz.mock.options import MockOptions, mock_key
from quiz.ui.app import QuizApp, make_app

WALL = 1_750_000_000.0  # 2025-06-15T15:06:40Z


class SetClock:
    """The interview clock and the wall clock, moved together by the test."""

    def __init__(self) -> None:
        self.now = 5_000.0

    def __call__(self) -> float:
        return self.now

    def wall(self) -> float:
        return WALL + self.now


def plan_of(bank: Bank, *question_ids: str, minutes: float = 10.0, seed: int = 3) -> MockPlan:
    """A plan asking exactly these questions, in this order."""
    options = MockOptions(minutes=minutes, seed=seed, questions=len(question_ids))
    questions = tuple(PlannedQuestion(i, variant_seed(seed, i), float(bank.questions[i].time)) for i in question_ids)
    return MockPlan(mock_key(options, bank_fingerprint(bank)), options, questions)


def mock_app(bank: Bank, plan: MockPlan | None, clock: SetClock, lang: str = "en", feedback: str = "end", **kwargs: object) -> QuizApp:
    """The app on `bank`, opened on `plan` (home when None), keeping the interview's time on `clock`."""
    return make_app(bank=bank, lang=lang, mock=plan, mock_feedback=feedback, mock_clock=clock, mock_wall=clock.wall, mock_ticking=False, **kwargs)  # type: ignore[arg-type]
