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
from quiz.format.diagnostics import Location
from quiz.format.marks import located
from quiz.format.model import Text
from quiz.grading.result import Result, finish
from quiz.locale.i18n import tr
from quiz.models.questions import CodeQuestion
from quiz.types.base import Mistake, Problem, QuestionType
from quiz.variants.variant import Variant

if TYPE_CHECKING:
    from quiz.code import AnyTask, CodeOutcome, Limits, RunError
    from quiz.models.authored import AuthoredTask

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


_AUTHORED: dict[int, tuple[AuthoredTask, AnyTask]] = {}
"""Each pack-defined task made once, by its definition (kept beside it, so that no id is reused)."""


def task_of(question: CodeQuestion, *, fresh: bool = False) -> AnyTask:
    """The question's task: a built-in one, or the one its `define:` describes, made once for what
    reads its functions and checks and afresh (`fresh`) for a run, whose evaluations it budgets."""
    if question.define is None:
        return code.get_task(question.task_id)
    from quiz.types.code_authored import authored_task  # the evaluator, only for a pack's own task

    if fresh:
        return authored_task(question.task_id, question.define)
    found = _AUTHORED.get(id(question.define))
    if found is None:
        found = _AUTHORED[id(question.define)] = (question.define, authored_task(question.task_id, question.define))
    return found[1]


def _task(variant: Variant) -> AnyTask:
    return task_of(_question(variant))


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
    try:
        outcome = code.run_checks(
            task_of(question, fresh=True),
            source,
            seed=variant.seed,
            checks=question.checks,
            policy=question.policy,
            filename=filename,
            limits=limits if limits is not None else code.Limits(),
            stop=stop,
        )
    except ValueError as error:  # a pack's own task whose expressions fail on these inputs (validate says where)
        if question.define is None:
            raise
        return Invalid("code.task_broken", {"detail": str(error)})
    if not outcome.runnable:
        return NotRunnable("code.cannot_run", error=outcome.error, output=outcome.output)
    return CodeAnswer(source, outcome)


def _in_both(text_of: Callable[[str, str], str], mistake: str) -> Text:
    """A mistake's label or sentence as a question text in English and Japanese."""
    return Text(en=text_of(mistake, "en"), ja=text_of(mistake, "ja"))


def _named(variant: Variant, mistake: str) -> tuple[Text, Text]:
    """A mistake's label and sentence in both languages: the pack's own for a variant its definition names."""
    definition = _question(variant).define
    own = next((m for m in definition.mistakes if m.name == mistake), None) if definition is not None else None
    if own is not None:
        return own.label or Text(en=mistake.replace("_", " ")), own.feedback
    return _in_both(code.mistake_label, mistake), _in_both(code.mistake_sentence, mistake)


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

SCAFFOLD_DEFINED = r"""id: <ID>
type: code
topic: <TOPIC>
refs: [<CLAIM>]
time: 600
# A function of your own, defined as data: its inputs are drawn for every check and the engine's
# reference is an expression (the same language as `answer:` elsewhere). Nothing here runs as
# Python; only the candidate's solution runs, in the sandbox.
define:
  function: attend_cache           # the def line the candidate writes: attend_cache(q, k_cache, v_cache)
  sizes: {H: [1, 3], t: [3, 8]}    # each size drawn from [min, max] for every check (at most 64)
  choose: {d: [4, 8]}              # or picked from a list
  inputs:                          # the parameters, in order: drawn arrays (shape, dtype) or values
    q: {shape: [H, 1, d]}          # float: standard normal entries; dtype: bool draws a mask
    k_cache: {shape: [H, t, d]}
    v_cache: {shape: [H, t, d]}
  reference: scaled_dot_product_attention(q, k_cache, v_cache)
  # causal: [q, k, v]              # the inputs whose axis -2 runs over positions: offers causal_leak
  # scores: [q, k_cache]           # the query and the key of the scores: offers large_scores
  mistakes:                        # named wrong variants: a solution that matches one is told it
    - name: unscaled
      label:
        en: the scores left unscaled
        ja: スコアをスケールしていない
      answer: scaled_dot_product_attention(q, k_cache, v_cache, scale=1.0)
      feedback:
        en: Your scores are not divided by √d, so the softmax is too sharp.
        ja: スコアを √d で割っていないため、softmax が鋭くなりすぎています。
# checks: [output, shapes]         # the checks that apply (default: all of them)
prompt:
  en: |-
    `attend_cache(q, k_cache, v_cache)` returns the attention of one new query (H, 1, d) over the
    cached keys and values (H, t, d).
  ja: |-
    `attend_cache(q, k_cache, v_cache)` は、新しい 1 個のクエリ (H, 1, d) がキャッシュされたキーと値
    (H, t, d) に注意した結果を返します。
explanation:
  en: |-
    Scores $q K^\top / \sqrt{d}$, a softmax over the cached keys, then the weighted sum of the values.
  ja: |-
    スコア $q K^\top / \sqrt{d}$ をキャッシュされたキーについて softmax し、値の重み付き和を取ります。
"""
"""What `quiz new --type code --own-task` writes: a question defining its own task that passes `quiz validate --strict`."""


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
        if (outcome.task, outcome.seed) != (question.task_id, variant.seed):
            raise ValueError(f"the checks ran for {outcome.task} with seed {outcome.seed}, not for {variant.key}")
        mistake = outcome.misconception
        named: dict[str, Any] = {}
        if mistake is not None:
            label, sentence = _named(variant, mistake)
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
        return {"task": _question(variant).task_id, **self.answer_json(variant, lang), "policy": _policy(variant), "starter": starter_of(variant)}

    def graded_json(self, variant: Variant, response: Any, lang: str) -> dict[str, Any]:
        outcome = _answer(response).outcome
        data = code.outcome_to_json(outcome, lang)
        if outcome.misconception is not None and _question(variant).define is not None:
            data["misconception_text"] = _named(variant, outcome.misconception)[1].get(lang)  # the pack's own feedback
        return {"code": data}

    def starter(self, variant: Variant) -> str | None:
        return starter_of(variant)

    def reference_solution(self, variant: Variant) -> str | None:
        """The task's reference solution, shipped with the quiz: it passes every check of the task. A
        task the pack defines has none to show (its reference is an expression, not code)."""
        task = _question(variant).task
        return None if task is None else code.reference_solution(task)

    def marked_response(self, variant: Variant, result: Result, response: Any, lang: str) -> str | None:
        """The ✓/✗ checklist with each check's evidence; the mistake itself is named by the feedback."""
        if not isinstance(response, CodeAnswer):
            return None
        return code.render_checklist(response.outcome, lang, name_mistake=False)

    def mistakes(self, variant: Variant) -> list[Mistake]:
        """The task's modelled mistakes under the question's policy, most common first: the checks
        name the first one a candidate's outputs match. None has a value of its own to show."""
        policy = _policy(variant)
        named = [(m.id, *_named(variant, m.id)) for m in _task(variant).mistakes if m.applies(policy)]
        return [Mistake(mistake, label, None, "", 0.0, sentence) for mistake, label, sentence in named]

    def self_test(self, variant: Variant) -> Iterator[Problem]:
        """On this variant's inputs the engine's own outputs must pass every check, and the outputs of
        every modelled mistake that the question's checks are meant to reveal must fail one and be
        named as that mistake: no wrong solution in the task's catalogue scores full marks, and no mistake
        outside the chosen checks' scope passes them all (they would accept a wrong solution)."""
        question = _question(variant)
        authored = question.define is not None
        at = _definition_at(question, "reference") if authored else located(question, "task")
        key = "the reference's" if authored else "the engine's"
        try:
            planned = code.plan(task_of(question, fresh=True), seed=variant.seed, checks=question.checks, policy=question.policy)
        except ValueError as error:  # a pack's own task whose expressions fail on the drawn inputs
            if not authored:
                raise
            field = getattr(error, "field", "")
            yield Problem(_definition_at(question, field), f"define.{field}: {error}" if field else f"define: {error}")
            return
        outcome = code.grade(planned, code.modelled_results(planned, None))
        failing = [r.check for r in outcome.checks if not r.passed]
        if failing or outcome.score != 1.0:
            yield Problem(at, f"{key} own outputs fail checks, so the answer key does not grade as correct", f"failing: {', '.join(failing)}")
        if outcome.misconception is not None:
            yield Problem(at, f"{key} own outputs match a named mistake", outcome.misconception)
        identical: set[str] = set()
        if authored:
            from quiz.code.matching import shows_on

            for mistake in planned.task.mistakes:
                if not shows_on(mistake.id, planned.ordered()):
                    identical.add(mistake.id)
                    yield Problem(
                        _definition_at(question, f"mistakes.{mistake.id}"),
                        f"the wrong variant {mistake.id} gives the reference's outputs on every draw of the checks run",
                        advice="write the mistake's own expression (or remove it): a solution cannot be told it makes a mistake that changes nothing",
                    )
        for found in code.catalogue_findings(planned):
            if found.mistake in identical:
                continue
            where = _definition_at(question, f"mistakes.{found.mistake}") if authored else at
            if found.full_marks:
                yield Problem(
                    where,
                    f"the mistake {found.mistake} scores full marks: none of the checks run ({', '.join(planned.checks)}) tells it from {key[:-2]}",
                    advice="draw the checks' inputs so that it shows, or run a check that reveals it",
                )
            else:
                named = "as no mistake" if found.named is None else f"as {found.named}"
                yield Problem(
                    where,
                    f"the mistake {found.mistake} is named {named}",
                    advice=f"draw the checks' inputs so that its outputs differ from {key} and from the other mistakes'",
                )
        for fault in code.accepted_faults(planned):
            if fault.mistake in identical:
                continue
            checks = ", ".join(fault.add)
            yield Problem(
                located(question, "checks"),
                f"the checks chosen accept a wrong solution: the mistake {fault.mistake} scores full marks",
                advice=f"add {checks} to checks (or leave checks out to run them all)" if checks else "leave checks out to run them all",
            )


def _definition_at(question: CodeQuestion, field: str) -> Location | None:
    """Where a field of the question's definition stands: `reference`, `mistakes.NAME`, `inputs.NAME.value`."""
    definition = question.define
    if definition is None:
        return located(question, "task")
    head, _, rest = field.partition(".")
    name = rest.partition(".")[0]
    if head == "mistakes":
        index = next((i for i, m in enumerate(definition.mistakes) if m.name == name), None)
        mistake = definition.mistakes[index] if index is not None else None
        return located(mistake, "answer") if mistake is not None else located(definition, "mistakes")
    return located(definition, head, name or None) or located(question, "define")


TYPE = CodeType()
