"""Grade a candidate's file for a code task: draw the probes, run them in the sandbox, judge, match."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from quiz.code.checks import check_problems
from quiz.code.drawing import draw_check
from quiz.code.matching import matched_mistake, shows_on
from quiz.code.outcome import CheckResult, CodeOutcome, Evidence
from quiz.code.probes import Probe, judge
from quiz.code.sandbox import Arguments, Call, CallResult, Limits, run_calls
from quiz.code.spec import AnyTask, Policy
from quiz.code.tasks import get_task

RESULT_ELEMENTS_FACTOR = 16  # a result may be this many times the expected size before it is refused


@dataclass(frozen=True)
class Plan:
    """What grading runs: the task, the chosen checks in the task's order, the full policy, the probes."""

    task: AnyTask
    seed: int
    checks: tuple[str, ...]
    policy: Mapping[str, str]
    probes: Mapping[str, tuple[Probe, ...]]  # by check

    def ordered(self) -> list[Probe]:
        """Every probe, check by check: the order of the calls made and of the results."""
        return [probe for check in self.checks for probe in self.probes[check]]

    def calls(self) -> list[Call[Arguments]]:
        """The calls to make, each told how many arrays it returns and how large they may be."""
        return [_as_run(self.task, probe, index) for probe in self.ordered() for index in range(len(probe.calls))]


def plan(task: AnyTask | str, *, seed: int, checks: Sequence[str] | None = None, policy: Policy | None = None) -> Plan:
    """The probes for `seed`; a ValueError when the task, a check or the policy is not known."""
    task = get_task(task) if isinstance(task, str) else task
    problems = check_problems(task.checks, task.policies, checks, policy)
    if problems:
        raise ValueError(f"code task {task.id}: " + "; ".join(problems))
    chosen = tuple(c for c in task.checks if checks is None or c in checks)
    full_policy = {**task.default_policy(), **(policy or {})}
    probes = {check: draw_check(task, check, seed, full_policy) for check in chosen}
    return Plan(task=task, seed=seed, checks=chosen, policy=full_policy, probes=probes)


def run_checks(
    task: AnyTask | str,
    source: str,
    *,
    seed: int,
    checks: Sequence[str] | None = None,
    policy: Policy | None = None,
    filename: str = "solution.py",
    limits: Limits = Limits(),
    stop: threading.Event | None = None,
) -> CodeOutcome:
    """Run `source`'s functions on the inputs drawn for `seed` and grade them check by check.

    checks defaults to every check of the task; policy to the task's defaults (empty_rows:
    zero). `filename` is how messages name the file. A check or policy the task does not have
    is a ValueError (an authoring error, which pack validation reports first with
    `check_problems`). Whatever the file does, the result is an outcome: `error` says when it
    could not be run or imported. Blocks for at most the wall-clock limit and a few seconds;
    setting `stop` from another thread ends the run at once (a `stopped` error).
    """
    planned = plan(task, seed=seed, checks=checks, policy=policy)
    run = run_calls(source, planned.calls(), filename=filename, limits=limits, stop=stop)
    if run.load_error is None:
        return grade(planned, run.calls, output=run.output, truncated=run.output_truncated)
    return CodeOutcome(
        task=planned.task.id,
        seed=seed,
        policy=tuple(planned.policy.items()),
        checks=tuple(CheckResult(check, False, Evidence()) for check in planned.checks),  # the error is said once
        misconception=None,
        score=0.0,
        error=run.load_error,
        output=run.output,
        output_truncated=run.output_truncated,
    )


def grade(planned: Plan, results: Sequence[CallResult], *, output: str = "", truncated: bool = False) -> CodeOutcome:
    """The outcome of `results`, one per call of `planned.calls()`, in that order.

    Apart from running, so that results can come from elsewhere: tests grade the engine's own
    outputs and each mistake's.
    """
    ordered = planned.ordered()
    answers, start = [], 0  # the results of each probe's calls, aligned with `ordered`
    for probe in ordered:
        answers.append(results[start : start + len(probe.calls)])
        start += len(probe.calls)
    mistake = matched_mistake(planned.task, ordered, answers, planned.policy)
    verdicts = iter([judge(probe, answer) for probe, answer in zip(ordered, answers)])
    check_results = []
    for check in planned.checks:
        mine = [next(verdicts) for _ in planned.probes[check]]
        failing = [v for v in mine if not v.passed]
        shown = failing[0] if failing else max(mine, key=lambda v: v.evidence.max_error or 0.0)
        shows = mistake is not None and bool(failing) and shows_on(mistake, planned.probes[check])
        check_results.append(CheckResult(check, not failing, shown.evidence, shows_mistake=shows))
    passed = sum(result.passed for result in check_results)
    return CodeOutcome(
        task=planned.task.id,
        seed=planned.seed,
        policy=tuple(planned.policy.items()),
        checks=tuple(check_results),
        misconception=mistake,
        score=passed / len(check_results),
        error=None,
        output=output,
        output_truncated=truncated,
    )


def grade_engine(
    task: AnyTask | str, *, seed: int, checks: Sequence[str] | None = None, policy: Policy | None = None
) -> CodeOutcome:
    """The engine's own outputs graded as an answer: a code question's answer-key self-test (scores 1)."""
    planned = plan(task, seed=seed, checks=checks, policy=policy)
    return grade(planned, modelled_results(planned, None))


def modelled_results(planned: Plan, mistake: str | None) -> list[CallResult]:
    """What the engine (None) or the modelled mistake `mistake` returns for every call of `planned`:
    graded, they are the answer key's self-test and the mistake catalogue's (every mistake must
    fail a check and be named as itself)."""
    return [
        CallResult(out)
        for probe in planned.ordered()
        for out in (probe.references if mistake is None else probe.mistakes.get(mistake, probe.references))
    ]


def _as_run(task: AnyTask, probe: Probe, index: int) -> Call[Arguments]:
    """The probe's call `index` as the sandbox makes it: how many arrays come back, and a cap on their size."""
    call = probe.calls[index]
    expected = sum(array.size for array in probe.references[index])
    return replace(
        call,
        returns=task.function(call.function).returns,
        max_elements=RESULT_ELEMENTS_FACTOR * expected + 1024,
    )
