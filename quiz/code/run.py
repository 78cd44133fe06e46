"""Grade a candidate's file for a code task: draw the probes, run them in the sandbox, judge, match."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from quiz.code.checks import check_problems
from quiz.code.drawing import draw_check
from quiz.code.matching import matched_mistake, shows_on
from quiz.code.outcome import CheckResult, CodeOutcome, Evidence
from quiz.code.probes import Probe, judge
from quiz.code.sandbox import Call, CallResult, Limits, run_calls
from quiz.code.spec import Policy, Task
from quiz.code.tasks import get_task

RESULT_ELEMENTS_FACTOR = 16  # a result may be this many times the expected size before it is refused


def prepare(task: Task | str, *, seed: int, checks: Sequence[str] | None = None, policy: Policy | None = None):
    """The task, the checks to run, the full policy and each check's probes; ValueError on a bad choice."""
    task = get_task(task) if isinstance(task, str) else task
    problems = check_problems(task.checks, task.policies, checks, policy)
    if problems:
        raise ValueError(f"code task {task.id}: " + "; ".join(problems))
    chosen = tuple(c for c in task.checks if checks is None or c in checks)  # the task's order
    full_policy = {**task.default_policy(), **(policy or {})}
    probes = {check: draw_check(task, check, seed, full_policy) for check in chosen}
    return task, chosen, full_policy, probes


def run_checks(
    task: Task | str,
    source: str,
    *,
    seed: int,
    checks: Sequence[str] | None = None,
    policy: Policy | None = None,
    filename: str = "solution.py",
    limits: Limits = Limits(),
) -> CodeOutcome:
    """Run `source`'s functions on the inputs drawn for `seed` and grade them check by check.

    checks defaults to every check of the task; policy to the task's defaults (empty_rows:
    zero). A check or policy the task does not have is a ValueError (an authoring error, which
    pack validation reports first with `check_problems`). Whatever the file does, the result is
    an outcome: `error` says when it could not be run or imported.
    """
    task, chosen, full_policy, probes = prepare(task, seed=seed, checks=checks, policy=policy)
    ordered = [(check, probe) for check in chosen for probe in probes[check]]
    calls = [_as_run(task, probe, index) for _, probe in ordered for index in range(len(probe.calls))]
    run = run_calls(source, calls, filename=filename, limits=limits)
    if run.load_error is not None:
        failed = tuple(CheckResult(check, False, Evidence()) for check in chosen)  # the error is said once
        return CodeOutcome(
            task=task.id,
            seed=seed,
            policy=tuple(full_policy.items()),
            checks=failed,
            misconception=None,
            score=0.0,
            error=run.load_error,
            output=run.output,
            output_truncated=run.output_truncated,
        )
    return grade(task, chosen, full_policy, probes, run.calls, seed=seed, output=run.output, truncated=run.output_truncated)


def grade(
    task: Task,
    chosen: Sequence[str],
    policy: Policy,
    probes: Mapping[str, Sequence[Probe]],
    results: Sequence[CallResult],
    *,
    seed: int,
    output: str = "",
    truncated: bool = False,
) -> CodeOutcome:
    """The outcome of `results`, the candidate's results for every probe's calls in check order.

    Separate from running so that the mistakes can be graded on the engine's own outputs.
    """
    per_probe: list[Sequence[CallResult]] = []
    position = 0
    for check in chosen:
        for probe in probes[check]:
            per_probe.append(results[position : position + len(probe.calls)])
            position += len(probe.calls)
    flat = [probe for check in chosen for probe in probes[check]]
    mistake = matched_mistake(task, flat, per_probe, policy)
    verdicts = iter(judge(probe, probe_results) for probe, probe_results in zip(flat, per_probe))
    check_results = []
    for check in chosen:
        judged = [next(verdicts) for _ in probes[check]]
        failing = [v for v in judged if not v.passed]
        shown = failing[0] if failing else max(judged, key=lambda v: v.evidence.max_error or 0.0)
        shows = mistake is not None and bool(failing) and shows_on(mistake, probes[check])
        check_results.append(CheckResult(check, not failing, shown.evidence, shows_mistake=shows))
    passed = sum(result.passed for result in check_results)
    return CodeOutcome(
        task=task.id,
        seed=seed,
        policy=tuple(policy.items()),
        checks=tuple(check_results),
        misconception=mistake,
        score=passed / len(check_results) if check_results else 0.0,
        error=None,
        output=output,
        output_truncated=truncated,
    )


def _as_run(task: Task, probe: Probe, index: int) -> Call:
    """The probe's call `index` as the sandbox makes it: how many arrays come back, and a cap on their size."""
    call = probe.calls[index]
    expected = sum(array.size for array in probe.references[index])
    return replace(
        call,
        returns=task.function(call.function).returns,
        max_elements=RESULT_ELEMENTS_FACTOR * expected + 1024,
    )
