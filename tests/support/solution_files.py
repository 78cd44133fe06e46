"""The code tasks' solutions as the tests use them: each task's reference, shipped with the quiz in
quiz/code/solutions/<task>.py, and a wrong one per modelled mistake in tests/code_solutions/<task>/."""

from __future__ import annotations

from pathlib import Path

from places import TESTS
from quiz.code.starter import SOLUTIONS as REFERENCES

WRONG = TESTS / "code_solutions"


def solution_path(task: str, name: str) -> Path:
    """The file of the solution `name` ("reference", or a mistake's id) to the task `task`."""
    return REFERENCES / f"{task}.py" if name == "reference" else WRONG / task / f"{name}.py"


def solution(task: str, name: str) -> str:
    return solution_path(task, name).read_text(encoding="utf-8")
