"""Real solutions through the real sandbox: every task's reference passes every check, and every wrong
solution fails with the mistake it makes named. The references ship with the quiz (quiz/code/solutions/,
shown to the candidate after passing or giving up); the wrong ones live in tests/code_solutions/<task>/."""

from __future__ import annotations

import zlib
from functools import cache

import pytest

from quiz.code import TASKS, CodeOutcome, reference_solution, run_checks
from solution_files import WRONG, solution, solution_path

REFERENCE_SEEDS = (0, 1, 2)


def wrong_solutions() -> list[tuple[str, str]]:
    return sorted((path.parent.name, path.stem) for path in WRONG.glob("*/*.py"))


def seed_for(task: str, name: str) -> int:
    """A different seed per solution, the same on every run."""
    return zlib.crc32(f"{task}/{name}".encode()) % 1000


@cache
def graded(task: str, name: str, seed: int, empty_rows: str | None = None) -> CodeOutcome:
    policy = {"empty_rows": empty_rows} if empty_rows else None
    return run_checks(task, solution(task, name), seed=seed, policy=policy, filename=f"{name}.py")


def test_every_task_has_a_shipped_reference_and_a_wrong_solution_for_each_of_its_mistakes():
    assert {path.stem for path in solution_path("attention", "reference").parent.glob("*.py")} == set(TASKS)
    for task_id, task in TASKS.items():
        assert reference_solution(task_id) == solution(task_id, "reference")
        files = {path.stem for path in (WRONG / task_id).glob("*.py")}
        # empty_rows_zero is the zero-policy reference graded under the NaN policy
        expected = {mistake.id for mistake in task.mistakes} - {"empty_rows_zero"}
        assert files == expected, task_id


@pytest.mark.parametrize("task", sorted(TASKS))
@pytest.mark.parametrize("seed", REFERENCE_SEEDS)
def test_the_reference_solution_passes_every_check(task, seed):
    outcome = graded(task, "reference", seed)
    assert outcome.error is None
    assert [c.check for c in outcome.checks] == list(TASKS[task].checks)
    failing = {c.check: c.evidence for c in outcome.checks if not c.passed}
    assert not failing
    assert (outcome.score, outcome.misconception) == (1.0, None)


@pytest.mark.parametrize("task, name", wrong_solutions())
def test_a_wrong_solution_fails_with_its_mistake_named(task, name):
    outcome = graded(task, name, seed_for(task, name))
    assert outcome.error is None
    assert outcome.score < 1.0
    assert outcome.misconception == name
    assert any(c.shows_mistake for c in outcome.checks if not c.passed)


@pytest.mark.parametrize("task", ["attention", "softmax"])
def test_under_the_nan_policy_the_zero_reference_is_the_mistake_and_the_nan_one_is_right(task):
    zeros = graded(task, "reference", 4, "nan")
    assert zeros.misconception == "empty_rows_zero"
    assert [c.check for c in zeros.checks if not c.passed] == ["fully_masked_rows"]
    nans = graded(task, "empty_rows_nan", 4, "nan")
    assert (nans.score, nans.misconception) == (1.0, None)


def test_every_check_of_every_task_has_a_wrong_solution_that_fails_it():
    for task_id, task in TASKS.items():
        failed = {
            check.check
            for found_task, name in wrong_solutions()
            if found_task == task_id
            for check in graded(task_id, name, seed_for(task_id, name)).checks
            if not check.passed
        }
        assert failed == set(task.checks), task_id


BOOLEAN_ONES = """\
import numpy as np


def attention(q, k, v, mask=None):
    # True wherever the engine's output is not zero: once cast and compared, it passed every check
    return np.ones((*q.shape[:-1], v.shape[-1]), dtype=bool)
"""


def test_a_boolean_result_where_floats_are_due_fails_every_check_as_the_wrong_form():
    outcome = run_checks("attention", BOOLEAN_ONES, seed=0, checks=["output", "shapes", "boolean_mask", "causal_leak", "large_scores"])
    assert outcome.error is None and outcome.score == 0.0 and outcome.misconception is None
    for check in outcome.checks:
        assert check.evidence.mismatch is not None and check.evidence.mismatch.got == "bool", check.check
