"""Fault matching on the engine's own outputs: each modelled mistake, injected as a candidate's results,
is named on 50 seeds under every policy; right answers and unmodelled bugs are named as nothing."""

from __future__ import annotations

import numpy as np
import pytest

from quiz.code import TASKS
from quiz.code.run import Plan, grade, grade_engine, plan
from quiz.code.sandbox import CallResult, RunError

SEEDS = range(50)
CASES = [
    (task_id, policy)
    for task_id, task in sorted(TASKS.items())
    for policy in ([{"empty_rows": value} for value in task.policies["empty_rows"]] if task.policies else [None])
]


def results_of(planned: Plan, outputs_of) -> list[CallResult]:
    """A CallResult per call, in run order, from `outputs_of(probe)`: one output per call of the probe."""
    return [CallResult(out) for probe in planned.ordered() for out in outputs_of(probe)]


@pytest.mark.parametrize("task_id, policy", CASES, ids=lambda x: str(x))
def test_each_mistake_is_named_on_fifty_seeds_and_the_engine_passes(task_id, policy):
    misnamed = []
    for seed in SEEDS:
        planned = plan(task_id, seed=seed, policy=policy)
        right = grade(planned, results_of(planned, lambda p: p.references))
        assert (right.score, right.misconception) == (1.0, None), seed
        for mistake in planned.task.mistakes:
            if not mistake.applies(planned.policy):
                continue
            outcome = grade(planned, results_of(planned, lambda p, m=mistake.id: p.mistakes.get(m, p.references)))
            if outcome.misconception != mistake.id or outcome.score == 1.0:
                misnamed.append((seed, mistake.id, outcome.misconception))
    assert not misnamed


def test_two_mistakes_at_once_match_neither():
    # missing scale in the output probe, softmax over queries everywhere else: no one mistake explains both
    planned = plan("attention", seed=3)
    first = planned.ordered()[0]

    def outputs(probe):
        return probe.mistakes["missing_scale" if probe is first else "softmax_over_queries"]

    outcome = grade(planned, results_of(planned, outputs))
    assert outcome.score < 1.0 and outcome.misconception is None


def test_an_unmodelled_bug_is_named_as_nothing():
    planned = plan("softmax", seed=5)
    outcome = grade(planned, results_of(planned, lambda p: tuple(tuple(a + 0.01 for a in out) for out in p.references)))
    assert outcome.score == 0.0 and outcome.misconception is None


def test_calls_that_raised_are_passed_over_and_the_rest_still_name_the_mistake():
    planned = plan("attention", seed=8)
    failed = CallResult(None, RunError("exception", detail="ValueError: shapes"))
    results = []
    for check in planned.checks:
        for probe in planned.probes[check]:
            outputs = probe.mistakes.get("double_scale", probe.references)
            results += [failed if check == "shapes" else CallResult(out) for out in outputs]
    outcome = grade(planned, results)
    assert outcome.misconception == "double_scale"
    shapes = next(c for c in outcome.checks if c.check == "shapes")
    assert not shapes.passed and shapes.evidence.error.detail == "ValueError: shapes"


def test_a_right_float16_result_from_higher_precision_does_not_hide_the_unstable_softmax():
    # exp of raw scores computed in float64: float32 scores near 1000 still overflow, float16 ones near 15 do not
    planned = plan("attention", seed=2, checks=["output", "large_scores"])

    def outputs(probe):
        return probe.references if probe.dtype == "float16" else probe.mistakes.get("unstable_softmax", probe.references)

    outcome = grade(planned, results_of(planned, outputs))
    assert outcome.misconception == "unstable_softmax"
    assert np.isnan(planned.probes["large_scores"][0].mistakes["unstable_softmax"][0][0]).all()


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_the_engine_graded_as_an_answer_passes_every_check(task_id):
    for seed in range(5):
        outcome = grade_engine(task_id, seed=seed)
        assert (outcome.score, outcome.misconception, outcome.error) == (1.0, None, None)
        assert [c.check for c in outcome.checks] == list(TASKS[task_id].checks)
