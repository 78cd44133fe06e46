"""The learner's picture by claim on a real history file: weak claims by recall, score and
misconceptions, the misconceptions that recur, and the questions recommended next (today's plan
while one is set)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from history_records import DAY_MS, START_MS, attempt, open_store
from quiz.history.scheduling import at_datetime
from quiz.learning.picture import learner_picture
from quiz.learning.plan import PlanQuestion
from quiz.learning.plan_store import PlanSettings, save_plan_settings, stored_plan

NOW = at_datetime(START_MS + 3 * DAY_MS)
QUESTIONS = [
    PlanQuestion("scale", "scaling", ("A1", "A2"), 60),
    PlanQuestion("scale-again", "scaling", ("A1",), 60),
    PlanQuestion("softmax", "softmax", ("B1",), 60),
    PlanQuestion("mask", "masking", ("C1",), 60),
]


@pytest.fixture
def history(tmp_path):
    with open_store(tmp_path / "history.sqlite3") as history:
        # scale: wrong twice with the same misconception, then right; softmax: right, recently
        for n in range(2):
            history.record(attempt("scale", START_MS + n * 60_000, score=0.0, verdict="incorrect", misconception="no_scaling"))
        history.record(attempt("scale", START_MS + 120_000))
        history.record(attempt("softmax", START_MS + 2 * DAY_MS))
        yield history


def test_weak_claims_recurring_misconceptions_and_what_to_take_next(history):
    picture = learner_picture(history, QUESTIONS, NOW)
    assert [c.claim for c in picture.weak] == ["A1", "A2"]  # scale's claims: misconceptions twice, mean 1/3
    a1 = picture.weak[0]
    assert (a1.questions, a1.studied, a1.misconceptions) == (2, 1, 2)
    assert a1.mean_score == pytest.approx(1 / 3)
    assert a1.recall == pytest.approx(history.scheduler.retrievability(history.card("scale").card, NOW))
    assert [(r.name, r.times, r.claims) for r in picture.recurring] == [("no_scaling", 2, ("A1", "A2"))]
    # the weak claims' studied question once, then the claim never practised
    assert picture.next_questions == ("scale", "mask")
    assert picture.never_practised == 1


def test_with_a_plan_the_next_questions_are_the_plans(history):
    save_plan_settings(history, PlanSettings(NOW.date() + timedelta(days=6), 10), NOW.date())
    plan = stored_plan(history, QUESTIONS, NOW)
    assert plan is not None
    first = [i.question for i in plan.days[0].items]
    assert learner_picture(history, QUESTIONS, NOW).next_questions[: len(first)] == tuple(first)[:5]
