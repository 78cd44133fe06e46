"""A mock sitting as history stores it: the options and plan as JSON (and back), and the attempt
a self-graded spoken answer becomes."""

from __future__ import annotations

import math
from typing import Any, TypeGuard

from quiz.format.model import QuestionBase
from quiz.grading.result import verdict_for
from quiz.history.mocks import MockRow, SpokenRow, self_grade_score
from quiz.history.records import AttemptRecord, Mode
from quiz.mock.compose import MockPlan, PlannedQuestion
from quiz.mock.options import MockOptions, MockOptionsError


def spoken_attempt(row: SpokenRow, question: QuestionBase) -> AttemptRecord:
    """The attempt a self-graded spoken answer to `question` becomes: its id, time and notes, the
    levels' score, and the question's topic and claims."""
    assert row.levels is not None
    score = self_grade_score(row.levels)
    return AttemptRecord(
        id=row.id, at_ms=row.at_ms, question=row.question, version=row.version, key=row.key, seed=row.seed, inputs=row.inputs,
        lang=row.lang, mode=Mode.MOCK, response=row.notes, score=score, verdict=str(verdict_for(score)),
        duration_ms=row.duration_ms, mock=row.mock, topic=question.topic, claims=tuple(question.refs),
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
    """The plan stored with a sitting (what was composed then, whatever the bank holds now), read
    with the options' own rules; MockOptionsError when a field is of the wrong kind or out of range
    (a file changed by hand, or an import of one)."""
    o = row.options
    if not isinstance(o, dict):
        raise MockOptionsError("the options are not an object")
    minutes, seed = o.get("minutes"), o.get("seed", 0)
    questions, difficulty, topics = o.get("questions"), o.get("difficulty"), o.get("topics", [])
    if not _number(minutes):
        raise MockOptionsError(f"minutes must be a number, got {minutes!r}")
    if not _integer(seed) or not (questions is None or _integer(questions)) or not (difficulty is None or _integer(difficulty)):
        raise MockOptionsError("seed, questions and difficulty must be whole numbers (questions and difficulty may be null)")
    if not isinstance(topics, list) or not all(isinstance(topic, str) for topic in topics):
        raise MockOptionsError("topics must be a list of topic names")
    if not isinstance(o.get("adaptive", False), bool):
        raise MockOptionsError(f"adaptive must be true or false, got {o.get('adaptive')!r}")
    options = MockOptions(
        minutes=float(minutes), questions=questions, topics=tuple(topics), difficulty=difficulty, seed=seed,
        adaptive=o.get("adaptive", False), feedback=row.feedback,
    )  # fmt: skip
    if not isinstance(row.plan, list):
        raise MockOptionsError("the plan is not a list")
    questions_planned = []
    for planned in row.plan:
        if not isinstance(planned, dict) or not isinstance(planned.get("question"), str):
            raise MockOptionsError("a planned question has no question id")
        if not _integer(planned.get("seed")) or not _number(planned.get("budget")) or planned["budget"] < 0:
            raise MockOptionsError(f"planned question {planned['question']!r} needs a whole seed and a budget of 0 seconds or more")
        questions_planned.append(PlannedQuestion(planned["question"], planned["seed"], float(planned["budget"])))
    return MockPlan(row.key, options, tuple(questions_planned))


def _integer(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: object) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
