"""The task's modelled mistakes graded as answers: each one a question's checks are meant to reveal
must fail a check and be named as itself, or a wrong solution would score full marks or be named wrong."""

from __future__ import annotations

from dataclasses import dataclass

from quiz.code.run import Plan, grade, modelled_results


@dataclass(frozen=True)
class CatalogueFinding:
    """A modelled mistake that, graded on a plan's inputs, scores full marks or is named otherwise."""

    mistake: str
    score: float
    named: str | None  # the mistake its outputs were named as (None: none)

    @property
    def full_marks(self) -> bool:
        return self.score == 1.0


def in_scope(planned: Plan) -> list[str]:
    """The mistakes the plan's checks are meant to reveal (`Task.reveals`) under its policy, in the task's order.

    Others are out of the question's scope: masking before scaling is no mistake when every mask is boolean.
    """
    revealed = {mistake for check in planned.checks for mistake in planned.task.reveals.get(check, ())}
    return [m.id for m in planned.task.mistakes if m.id in revealed and m.applies(planned.policy)]


def catalogue_findings(planned: Plan) -> list[CatalogueFinding]:
    """Every mistake in scope whose outputs score full marks on `planned`, or are named as another mistake or none."""
    findings = []
    for mistake in in_scope(planned):
        outcome = grade(planned, modelled_results(planned, mistake))
        if outcome.score == 1.0 or outcome.misconception != mistake:
            findings.append(CatalogueFinding(mistake, outcome.score, outcome.misconception))
    return findings


@dataclass(frozen=True)
class AcceptedFault:
    """A modelled mistake outside the plan's scope that scores full marks: a wrong solution its checks accept."""

    mistake: str
    add: tuple[str, ...]  # the checks not run that are meant to reveal it, in the task's order


def accepted_faults(planned: Plan) -> list[AcceptedFault]:
    """Every mistake of the task that none of the plan's checks is meant to reveal and that scores full
    marks on its inputs, with the checks to add; mistakes that are none without a check's inputs
    (`Task.only_with`) are passed over, as are those in scope (`catalogue_findings` judges them)."""
    task, scope = planned.task, set(in_scope(planned))
    found = []
    for mistake in task.mistakes:
        excused = mistake.id in task.only_with and not set(task.only_with[mistake.id]) & set(planned.checks)
        if mistake.id in scope or excused or not mistake.applies(planned.policy):
            continue
        if grade(planned, modelled_results(planned, mistake.id)).score == 1.0:
            add = tuple(c for c in task.checks if c not in planned.checks and mistake.id in task.reveals.get(c, ()))
            found.append(AcceptedFault(mistake.id, add))
    return found
