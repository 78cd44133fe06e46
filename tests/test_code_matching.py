"""Fault matching on the engine's own outputs: each modelled mistake, injected as a candidate's results,
is named on 50 seeds under every policy; right answers and unmodelled bugs are named as nothing."""

from __future__ import annotations

import numpy as np
import pytest

from quiz.code import TASKS
from quiz.code.run import grade, prepare
from quiz.code.sandbox import CallResult, RunError

SEEDS = range(50)
CASES = [
    (task_id, policy)
    for task_id, task in sorted(TASKS.items())
    for policy in ([{"empty_rows": value} for value in task.policies["empty_rows"]] if task.policies else [None])
]


def results_of(probes, chosen, outputs_of) -> list[CallResult]:
    """A CallResult per call, in run order, from `outputs_of(probe)`: one output per call."""
    return [CallResult(out) for check in chosen for probe in probes[check] for out in outputs_of(probe)]


@pytest.mark.parametrize("task_id, policy", CASES, ids=lambda x: str(x))
def test_each_mistake_is_named_on_fifty_seeds_and_the_engine_passes(task_id, policy):
    task = TASKS[task_id]
    misnamed = []
    for seed in SEEDS:
        task, chosen, full_policy, probes = prepare(task, seed=seed, policy=policy)
        right = grade(task, chosen, full_policy, probes, results_of(probes, chosen, lambda p: p.references), seed=seed)
        assert (right.score, right.misconception) == (1.0, None), seed
        for mistake in task.mistakes:
            if not mistake.applies(full_policy):
                continue
            wrong = results_of(probes, chosen, lambda p: p.mistakes.get(mistake.id, p.references))
            outcome = grade(task, chosen, full_policy, probes, wrong, seed=seed)
            if outcome.misconception != mistake.id or outcome.score == 1.0:
                misnamed.append((seed, mistake.id, outcome.misconception))
    assert not misnamed


def test_two_mistakes_at_once_match_neither():
    # missing scale in the output probe, softmax over queries everywhere else: no one mistake explains both
    task, chosen, policy, probes = prepare("attention", seed=3)
    first = True

    def outputs(probe):
        nonlocal first
        name = "missing_scale" if first else "softmax_over_queries"
        first = False
        return probe.mistakes[name]

    outcome = grade(task, chosen, policy, probes, results_of(probes, chosen, outputs), seed=3)
    assert outcome.score < 1.0 and outcome.misconception is None


def test_an_unmodelled_bug_is_named_as_nothing():
    task, chosen, policy, probes = prepare("softmax", seed=5)
    noisy = results_of(probes, chosen, lambda p: tuple(tuple(a + 0.01 for a in out) for out in p.references))
    outcome = grade(task, chosen, policy, probes, noisy, seed=5)
    assert outcome.score == 0.0 and outcome.misconception is None


def test_calls_that_raised_are_passed_over_and_the_rest_still_name_the_mistake():
    task, chosen, policy, probes = prepare("attention", seed=8)
    failed = CallResult(None, RunError("exception", detail="ValueError: shapes"))
    results = []
    for check in chosen:
        for probe in probes[check]:
            outputs = probe.mistakes.get("double_scale", probe.references)
            results += [failed if check == "shapes" else CallResult(out) for out in outputs]
    outcome = grade(task, chosen, policy, probes, results, seed=8)
    assert outcome.misconception == "double_scale"
    shapes = next(c for c in outcome.checks if c.check == "shapes")
    assert not shapes.passed and shapes.evidence.error.detail == "ValueError: shapes"


def test_a_right_float16_result_from_higher_precision_does_not_hide_the_unstable_softmax():
    # exp of raw scores computed in float64: float32 scores near 1000 still overflow, float16 ones near 15 do not
    task, chosen, policy, probes = prepare("attention", seed=2, checks=["output", "large_scores"])

    def outputs(probe):
        float16 = probe.dtype == "float16"
        return probe.references if float16 else probe.mistakes.get("unstable_softmax", probe.references)

    outcome = grade(task, chosen, policy, probes, results_of(probes, chosen, outputs), seed=2)
    assert outcome.misconception == "unstable_softmax"
    assert np.isnan(probes["large_scores"][0].mistakes["unstable_softmax"][0][0]).all()
