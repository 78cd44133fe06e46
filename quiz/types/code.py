"""The `code` type: the candidate writes a numpy function; the engine runs fixed checks on it and names the bug.

A pack names a task from `quiz.code.TASKS` (which fixes the functions and their signatures), the
checks to run and the policy they run under, and may give a starter: all data, nothing that runs.
Reading a response runs the candidate's file in the sandbox on inputs drawn for the variant's
seed, so each variant (`id#seed`) tests on its own inputs. A file that cannot be run or imported
is an Invalid that records nothing, located at the candidate's line; a file that runs scores the
share of checks passed, and the mistake its outputs match is the misconception, with its label.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Final

from quiz import code
from quiz.answer_text import Invalid
from quiz.base.fieldwise import Fieldwise, record
from quiz.format.marks import located
from quiz.format.model import Text
from quiz.grading.result import Result, finish
from quiz.locale.i18n import tr
from quiz.models.questions import CodeQuestion
from quiz.types.base import Mistake, Problem, QuestionType
from quiz.variants.variant import Variant

if TYPE_CHECKING:
    from quiz.code import AnyTask, CodeOutcome, Limits, RunError

SOURCE_NAME: Final = "solution.py"
"""How messages name the candidate's file when it has no name of its own (the app's editor)."""


@record
class CodeAnswer(Fieldwise):
    """A candidate's file and what its checks gave: the response a code question grades."""

    source: str
    outcome: CodeOutcome


@record
class NotRunnable(Invalid):
    """A file that could not be run or imported: said at its line, and no attempt is recorded."""

    error: RunError | None = None
    output: str = ""

    def message(self, lang: str = "en") -> str:
        if self.error is None:
            return super().message(lang)
        lines = [tr("code.cannot_run", lang), code.describe_error(self.error, lang)]
        if self.output:
            lines += [tr("code.printed", lang), self.output.rstrip("\n")]
        return "\n".join(lines)


def _answer(response: object) -> CodeAnswer:
    """`response` as the CodeAnswer that reading a file gives; anything else is a caller's bug."""
    if not isinstance(response, CodeAnswer):
        raise TypeError(f"a code question grades a CodeAnswer (read runs the file), not {type(response).__name__}")
    return response


def _question(variant: Variant) -> CodeQuestion:
    return TYPE.question_of(variant)


def _task(variant: Variant) -> AnyTask:
    return code.get_task(_question(variant).task)


def starter_of(variant: Variant) -> str:
    """The file the candidate starts from: the question's starter, or the task's default."""
    question = _question(variant)
    return question.starter if question.starter is not None else code.default_starter(_task(variant).interface)


def run_answer(
    variant: Variant,
    source: str,
    *,
    filename: str = SOURCE_NAME,
    limits: Limits | None = None,
    stop: threading.Event | None = None,
) -> CodeAnswer | Invalid:
    """Run the variant's checks on `source` in the sandbox (blocks up to the limits: call it off the
    event loop); an Invalid when there is nothing to run or the file cannot be run or imported."""
    if not source.strip():
        return Invalid("code.empty")
    if source.strip() == starter_of(variant).strip():
        return Invalid("code.unchanged_starter")
    question = _question(variant)
    outcome = code.run_checks(
        question.task,
        source,
        seed=variant.seed,
        checks=question.checks,
        policy=question.policy,
        filename=filename,
        limits=limits if limits is not None else code.Limits(),
        stop=stop,
    )
    if not outcome.runnable:
        return NotRunnable("code.cannot_run", error=outcome.error, output=outcome.output)
    return CodeAnswer(source, outcome)


def _in_both(text_of: Callable[[str, str], str], mistake: str) -> Text:
    """A mistake's label or sentence as a question text in English and Japanese."""
    return Text(en=text_of(mistake, "en"), ja=text_of(mistake, "ja"))


def _chosen_checks(variant: Variant) -> list[str]:
    """The checks the question runs, in the task's order."""
    chosen = _question(variant).checks
    return [c for c in _task(variant).checks if chosen is None or c in chosen]


def _policy(variant: Variant) -> dict[str, str]:
    """The policy the checks run under: the task's defaults, overridden by the question's."""
    return {**_task(variant).default_policy(), **_question(variant).policy}


def _checks_json(variant: Variant, lang: str) -> list[dict[str, str]]:
    """Each check's id and learner-facing label."""
    return [{"id": check, "label": code.check_label(check, lang, _policy(variant), _task(variant).id)} for check in _chosen_checks(variant)]


def _signatures(variant: Variant) -> str:
    return ", ".join(f"`{f.signature}`" for f in _task(variant).functions)


SCAFFOLD = r"""id: <ID>
type: code
# The topic and the claims this question covers (ids from questions/claims.yaml):
# learners practise by topic or by claim.
topic: <TOPIC>
refs: [<CLAIM>]
time: 300                     # seconds a candidate should need (a mock interview plans with it)
# The function to write, from the fixed list of tasks (`quiz schema` lists them): it fixes the
# function's name and parameters. A pack never carries code that runs, only which checks to apply.
task: causal_mask
# checks: [output, shapes]    # the task's checks to run (default: all of them)
prompt:
  en: |-
    `causal_mask(L, S)` returns the boolean causal mask for L queries and S keys: shape (L, S),
    `True` where query $i$ may attend to key $j$, that is where $j \le i$.
  ja: |-
    `causal_mask(L, S)` は、L 個のクエリと S 個のキーに対する因果マスクを真偽値で返します。
    形は (L, S) で、クエリ $i$ がキー $j$ に注意してよい所、つまり $j \le i$ の所で `True` です。
# starter: |                  # the file the candidate starts from (default: the def line)
#   import numpy as np
explanation:
  en: |-
    `np.arange(S)[None, :] <= np.arange(L)[:, None]` is `True` exactly where $j \le i$.
  ja: |-
    `np.arange(S)[None, :] <= np.arange(L)[:, None]` はちょうど $j \le i$ の所で `True` になります。
"""
"""What `quiz new --type code` writes: a commented question that passes `quiz validate --strict`."""


class CodeType(QuestionType[CodeQuestion]):
    name = "code"
    model = CodeQuestion
    scaffold = SCAFFOLD
    scaffold_topic = "implementation"

    def read(self, variant: Variant, text: str) -> Any | Invalid:
        """Reading a file is running it: the checks' outcome, or why the file cannot be run."""
        return run_answer(variant, text)

    def grade(self, variant: Variant, response: Any, hints_used: int = 0) -> Result:
        """The share of checks passed; the mistake the outputs match is named, with its label."""
        outcome = _answer(response).outcome
        question = _question(variant)
        if (outcome.task, outcome.seed) != (question.task, variant.seed):
            raise ValueError(f"the checks ran for {outcome.task} with seed {outcome.seed}, not for {variant.key}")
        mistake = outcome.misconception
        named: dict[str, Any] = {}
        if mistake is not None:
            label, sentence = _in_both(code.mistake_label, mistake), _in_both(code.mistake_sentence, mistake)
            named = {"misconception": mistake, "label": label, "feedback": (sentence,)}
        details = {
            "passed": [r.check for r in outcome.checks if r.passed],
            "failed": [r.check for r in outcome.checks if not r.passed],
        }
        return finish(question, outcome.score, hints_used, details=details, **named)

    def revealed_answer(self, variant: Variant) -> Any:
        return None  # no reference solution travels in a pack: the checks are the key

    def answer_text(self, variant: Variant, lang: str) -> str:
        checks = [f"- {check['label']}" for check in _checks_json(variant, lang)]
        return "\n".join([tr("code.answer_key", lang, functions=_signatures(variant)), *checks])

    def answer_json(self, variant: Variant, lang: str) -> Any:
        return {"functions": [f.signature for f in _task(variant).functions], "checks": _checks_json(variant, lang)}

    def how_to_answer(self, variant: Variant, lang: str) -> list[str]:
        checks = [f"- {check['label']}" for check in _checks_json(variant, lang)]
        return [tr("code.write", lang, functions=_signatures(variant)), tr("code.checks_to_run", lang), *checks]

    def response_text(self, variant: Variant, response: Any) -> str:
        return _answer(response).source

    def response_json(self, response: Any) -> Any:
        return _answer(response).source

    def extra_json(self, variant: Variant, lang: str) -> dict[str, Any]:
        return {"task": _question(variant).task, **self.answer_json(variant, lang), "policy": _policy(variant), "starter": starter_of(variant)}

    def graded_json(self, variant: Variant, response: Any, lang: str) -> dict[str, Any]:
        return {"code": code.outcome_to_json(_answer(response).outcome, lang)}

    def starter(self, variant: Variant) -> str | None:
        return starter_of(variant)

    def reference_solution(self, variant: Variant) -> str | None:
        """The task's reference solution, shipped with the quiz: it passes every check of the task."""
        return code.reference_solution(_question(variant).task)

    def marked_response(self, variant: Variant, result: Result, response: Any, lang: str) -> str | None:
        """The ✓/✗ checklist with each check's evidence; the mistake itself is named by the feedback."""
        if not isinstance(response, CodeAnswer):
            return None
        return code.render_checklist(response.outcome, lang, name_mistake=False)

    def mistakes(self, variant: Variant) -> list[Mistake]:
        """The task's modelled mistakes under the question's policy, most common first: the checks
        name the first one a candidate's outputs match. None has a value of its own to show."""
        policy = _policy(variant)
        return [
            Mistake(m.id, _in_both(code.mistake_label, m.id), None, "", 0.0, _in_both(code.mistake_sentence, m.id))
            for m in _task(variant).mistakes
            if m.applies(policy)
        ]

    def self_test(self, variant: Variant) -> Iterator[Problem]:
        """On this variant's inputs the engine's own outputs must pass every check, and the outputs of
        every modelled mistake that the question's checks are meant to reveal must fail one and be
        named as that mistake: no wrong solution in the task's catalogue scores full marks, and no mistake
        outside the chosen checks' scope passes them all (they would accept a wrong solution)."""
        question = _question(variant)
        at = located(question, "task")
        planned = code.plan(question.task, seed=variant.seed, checks=question.checks, policy=question.policy)
        outcome = code.grade(planned, code.modelled_results(planned, None))
        failing = [r.check for r in outcome.checks if not r.passed]
        if failing or outcome.score != 1.0:
            yield Problem(at, "the engine's own outputs fail checks, so the answer key does not grade as correct", f"failing: {', '.join(failing)}")
        if outcome.misconception is not None:
            yield Problem(at, "the engine's own outputs match a named mistake", outcome.misconception)
        for found in code.catalogue_findings(planned):
            if found.full_marks:
                yield Problem(
                    at,
                    f"the mistake {found.mistake} scores full marks: none of the checks run ({', '.join(planned.checks)}) tells it from the engine",
                    advice="draw the checks' inputs so that it shows, or run a check that reveals it",
                )
            else:
                named = "as no mistake" if found.named is None else f"as {found.named}"
                yield Problem(
                    at,
                    f"the mistake {found.mistake} is named {named}",
                    advice="draw the checks' inputs so that its outputs differ from the engine's and from the other mistakes'",
                )
        for fault in code.accepted_faults(planned):
            checks = ", ".join(fault.add)
            yield Problem(
                located(question, "checks"),
                f"the checks chosen accept a wrong solution: the mistake {fault.mistake} scores full marks",
                advice=f"add {checks} to checks (or leave checks out to run them all)" if checks else "leave checks out to run them all",
            )


TYPE = CodeType()
