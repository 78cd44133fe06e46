"""A mock sitting as history stores it: the options and plan as JSON (and back), and the attempt
a self-graded spoken answer becomes."""

from __future__ import annotations

from typing import Any

from quiz.grading.result import verdict_for
from quiz.history.mocks import MockRow, SpokenRow, self_grade_score
from quiz.history.records import AttemptRecord, Mode
from quiz.mock.compose import MockPlan, PlannedQuestion
from quiz.mock.options import MockOptions


def spoken_attempt(row: SpokenRow) -> AttemptRecord:
    """The attempt a self-graded spoken answer becomes: its id, time and notes, the levels' score."""
    assert row.levels is not None
    score = self_grade_score(row.levels)
    return AttemptRecord(
        id=row.id, at_ms=row.at_ms, question=row.question, version=row.version, key=row.key, seed=row.seed, inputs=row.inputs,
        lang=row.lang, mode=Mode.MOCK, response=row.notes, score=score, verdict=str(verdict_for(score)),
        duration_ms=row.duration_ms, mock=row.mock,
    )  # fmt: skip


def options_json(options: MockOptions) -> dict[str, Any]:
    """The options as stored with a sitting."""
    return {
        "minutes": options.minutes, "questions": options.questions, "topics": list(options.topics),
        "difficulty": options.difficulty, "seed": options.seed, "adaptive": options.adaptive,
    }  # fmt: skip


def plan_json(plan: MockPlan) -> list[dict[str, Any]]:
    return [{"question": q.question_id, "seed": q.seed, "budget": q.budget} for q in plan.questions]


def plan_from_json(row: MockRow) -> MockPlan:
    """The plan stored with a sitting (what was composed then, whatever the bank holds now)."""
    o = row.options
    options = MockOptions(
        minutes=float(o["minutes"]), questions=o.get("questions"), topics=tuple(o.get("topics", ())),
        difficulty=o.get("difficulty"), seed=int(o.get("seed", 0)), adaptive=bool(o.get("adaptive", False)), feedback=row.feedback,
    )  # fmt: skip
    questions = tuple(PlannedQuestion(str(q["question"]), int(q["seed"]), float(q["budget"])) for q in row.plan)
    return MockPlan(row.key, options, questions)
