"""Code questions' core: the candidate writes a function in numpy; the engine tests it and names the bug.

No Textual here, and nothing of the quiz but quiz.locale.i18n for the texts. The public API:

- `TASKS` / `get_task(id)`: the function kinds a code question can ask for (quiz.code.tasks).
- `CHECKS` and `check_problems(...)`: the checks an author may name (quiz.code.checks).
- `run_checks(task, source, seed=..., checks=..., policy=...)` → `CodeOutcome` (quiz.code.run);
  `grade_engine(task, seed=...)` grades the engine's own outputs, a question's answer-key self-test;
  `plan(...)` and `grade(plan, results)` are the two halves of run_checks, for results from elsewhere;
  `modelled_results(plan, mistake)` gives the engine's or a modelled mistake's results to grade, and
  `catalogue_findings(plan)` the mistakes that would score full marks or be named wrong, and
  `accepted_faults(plan)` the mistakes outside the checks' scope that they accept (quiz.code.catalogue).
- `confinement_note(lang)`: the sentence to say once where code runs without bubblewrap's namespaces
  (`quiz.code.sandbox.confinement()` gives the level and the reason).
- `render_checklist(outcome, lang)`, `outcome_to_json(outcome, lang)`; `mistake_label` and
  `mistake_sentence` name a mistake in a few words or a sentence (quiz.code.report).
- `default_starter(task)`, `starter_problems(task, starter)`: a starter, and whether one defines the
  task's functions with their parameters; `reference_solution(task_id)`, the task's reference
  solution, shipped as data (quiz.code.starter).

Each name is imported from its module when first used (PEP 562): a question file names its task
and checks (`quiz.code.interfaces`, `quiz.code.checks`) and is checked against the task's functions,
checks and policies (`quiz.code.interfaces`) without loading the tasks, the runner and the
sandbox, which only a code question on screen or graded needs.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from quiz.code.catalogue import AcceptedFault, CatalogueFinding, accepted_faults, catalogue_findings
    from quiz.code.checks import CHECKS, check_problems
    from quiz.code.interfaces import Function
    from quiz.code.outcome import CheckResult, CodeOutcome, Evidence
    from quiz.code.report import check_label, confinement_note, describe_error, mistake_label, mistake_sentence, outcome_to_json, render_checklist
    from quiz.code.run import Plan, grade, grade_engine, modelled_results, plan, run_checks
    from quiz.code.sandbox import Limits, RunError
    from quiz.code.spec import AnyTask, Task
    from quiz.code.starter import default_starter, reference_solution, starter_problems
    from quiz.code.tasks import TASKS, get_task

_HOMES = {
    "AcceptedFault": "catalogue",
    "accepted_faults": "catalogue",
    "CatalogueFinding": "catalogue",
    "catalogue_findings": "catalogue",
    "CHECKS": "checks",
    "check_problems": "checks",
    "CheckResult": "outcome",
    "CodeOutcome": "outcome",
    "Evidence": "outcome",
    "check_label": "report",
    "confinement_note": "report",
    "describe_error": "report",
    "mistake_label": "report",
    "mistake_sentence": "report",
    "outcome_to_json": "report",
    "render_checklist": "report",
    "Plan": "run",
    "grade": "run",
    "grade_engine": "run",
    "modelled_results": "run",
    "plan": "run",
    "run_checks": "run",
    "Limits": "sandbox",
    "RunError": "sandbox",
    "AnyTask": "spec",
    "Function": "interfaces",
    "Task": "spec",
    "default_starter": "starter",
    "reference_solution": "starter",
    "starter_problems": "starter",
    "TASKS": "tasks",
    "get_task": "tasks",
}
"""The module under quiz.code each public name comes from."""

__all__ = [
    "CHECKS",
    "TASKS",
    "AcceptedFault",
    "AnyTask",
    "CatalogueFinding",
    "CheckResult",
    "CodeOutcome",
    "Evidence",
    "Function",
    "Limits",
    "Plan",
    "RunError",
    "Task",
    "accepted_faults",
    "catalogue_findings",
    "check_label",
    "check_problems",
    "confinement_note",
    "default_starter",
    "describe_error",
    "get_task",
    "grade",
    "grade_engine",
    "mistake_label",
    "mistake_sentence",
    "modelled_results",
    "outcome_to_json",
    "plan",
    "reference_solution",
    "render_checklist",
    "run_checks",
    "starter_problems",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use and kept."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'quiz.code' has no attribute {name!r}")
    value = getattr(import_module(f"quiz.code.{home}"), name)
    globals()[name] = value
    return value
