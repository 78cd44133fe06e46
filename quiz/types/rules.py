"""Each question type's rules beyond its model's fields, checked as a pack loads.

Apart from the types' behaviour (`quiz.types.<name>`, which brings the expressions, grading and
numpy): a first start converts and checks every pack with these and the models alone, so loading
the bank, warm cache or cold, imports neither numpy nor the engine. A code question's rules read
its task's interface (`quiz.code.interfaces`), not the task.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Any, Final

from quiz.code.checks import check_problems
from quiz.code.interfaces import get_interface
from quiz.code.starter import starter_problems
from quiz.format.diagnostics import Report
from quiz.format.marks import Where, located
from quiz.format.model import ID_PATTERN, Option, QuestionBase, error_at, option_ids
from quiz.format.suggest import did_you_mean
from quiz.format.yaml_data import YamlMap
from quiz.models.authored import AuthoredTask, authored_interface, definition_problems
from quiz.models.questions import ChoiceQuestion, CodeQuestion, EvidenceQuestion, MultiQuestion, NumericQuestion, OrderQuestion

Rules = Callable[[Any, Where, YamlMap, Report], None]
"""Reports the rules of a type that a question (just converted from the YAML map) breaks, with
`error_at`; the question is still made, so the checks after it run too."""

BY_PLACE: Final = re.compile(
    r"\b(?:\w+ )?of the (?:above|below)\b|\bthan the (?:above|below|others)\b|\b(?:none|all|both|neither) of these\b"
    r"|\b[a-z]\) (?:and|or) [a-z]\)|上記|以上のいずれ|以上のすべて|いずれでもない",
    re.IGNORECASE,
)
"""Option texts that point at other options by place or letter ("none of the above", "a) and b)"):
they read wrongly once the options are shuffled."""


def check_rules(question: QuestionBase, where: Where, raw: YamlMap, report: Report) -> None:
    """Report the rules of `question`'s type that it breaks (a type without rules has none to break)."""
    rules = RULES.get(question.type)
    if rules is not None:
        rules(question, where, raw, report)


def check_numeric(question: NumericQuestion, where: Where, raw: YamlMap, report: Report) -> None:
    """Number, vector and matrix questions: each misconception has a name of its own."""
    names = [m.name for m in question.misconceptions]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        error_at(where, raw, "misconceptions", f"misconception names must be unique: {', '.join(duplicates)}", report)
    accepted = [a.name for a in question.also_accepted]
    twice = sorted({n for n in accepted if accepted.count(n) > 1 or n in names})
    if twice:
        message = f"accepted convention names must be unique and differ from the misconceptions': {', '.join(twice)}"
        error_at(where, raw, "also_accepted", message, report)
    if question.unit is not None:
        _check_unit(question, where, raw, report)
    if accepted and question.convention is None:
        message = "also_accepted needs `convention`: the label of the answer's own convention, so learners read which one each is"
        error_at(where, raw, "also_accepted", message, report)


def _check_unit(question: NumericQuestion, where: Where, raw: YamlMap, report: Report) -> None:
    """A unit only on a number question, and one the answer reader knows."""
    from quiz.answer_text.units import UNITS

    assert question.unit is not None
    if question.type != "number":
        error_at(where, raw, "unit", f"unit applies to number questions, not to {question.type}", report)
    elif question.unit not in UNITS:
        known = sorted({u.symbol for u in UNITS.values()})
        message = f"unknown unit '{question.unit}'{did_you_mean(question.unit, known)}; known: {', '.join(known)}"
        error_at(where, raw, "unit", message, report)


def check_options(where: Where, raw: YamlMap, report: Report, options: tuple[Option, ...], shuffled: bool) -> None:
    """Unique, well-formed option ids (each problem reported); the field's limits bound how many.

    A shuffled option that points at others by place gets a warning: packs written before
    options were shuffled kept "none of the above" last, and `shuffle: false` keeps it there.
    """
    if shuffled:
        for index, option in enumerate(options):
            said = next((m.group(0) for _, text in option.text.items() if (m := BY_PLACE.search(text))), None)
            if said is not None:
                at = located(option, "text") or where.location()
                report.warning(at, f"options[{index}] says '{said}', but options are shown shuffled; add `shuffle: false` to keep the order written")
    ids = option_ids(options)
    for i in ids:
        if not ID_PATTERN.fullmatch(i):
            error_at(where, raw, "options", f"option id '{i}' must be lower-case letters, digits, - or _", report)
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        error_at(where, raw, "options", f"option ids must be unique: {', '.join(duplicates)}", report)


def check_choice(question: ChoiceQuestion | EvidenceQuestion, where: Where, raw: YamlMap, report: Report) -> None:
    """Well-formed options, and the answer given once: one option marked correct, or an expression
    (an evidence question's options and answer are a choice question's)."""
    check_options(where, raw, report, question.options, question.shuffle)
    marked = sum(o.correct for o in question.options)
    if question.answer is None and marked != 1:
        error_at(where, raw, "options", f"mark exactly one option `correct: true` (found {marked}), or give an `answer` expression", report)
    if question.answer is not None and marked:
        error_at(where, raw, "answer", "give either an `answer` expression or `correct: true` on an option, not both", report)


def check_evidence(question: EvidenceQuestion, where: Where, raw: YamlMap, report: Report) -> None:
    """Options as for a choice question; figure ids well formed and unique, at least one figure
    telling, and each telling figure saying why (the feedback quotes it)."""
    check_choice(question, where, raw, report)  # the options and the answer are a choice question's
    seen: set[str] = set()
    for index, figure in enumerate(question.figures):
        at = located(figure, "id") or where.location()
        if not ID_PATTERN.fullmatch(figure.id):
            report.error(at, f"figures[{index}]: figure id '{figure.id}' must be lower-case letters, digits, - or _")
        elif figure.id in seen:  # reported at the second use, where the slip is
            report.error(at, f"figures[{index}]: figure id '{figure.id}' is already used by a figure above; ids must be unique")
        seen.add(figure.id)
        if figure.telling and figure.why is None:
            message = f"figures[{index}] ({figure.id}) is telling but has no `why`: the feedback says why it tells"
            report.error(located(figure, "telling") or at, message)
    if question.figures and not any(f.telling for f in question.figures):
        error_at(where, raw, "figures", "mark at least one figure `telling: true`: the one a good candidate asks for first", report)


def check_multi(question: MultiQuestion, where: Where, raw: YamlMap, report: Report) -> None:
    """Well-formed options, at least one of them correct."""
    check_options(where, raw, report, question.options, question.shuffle)
    if not any(o.correct for o in question.options):
        error_at(where, raw, "options", "mark at least one option `correct: true`", report)


def check_order(question: OrderQuestion, where: Where, raw: YamlMap, report: Report) -> None:
    """Item ids used once, and each critical pair naming two of them."""
    ids = [item.id for item in question.items if item.id is not None]
    seen: set[str] = set()
    for index, item in enumerate(question.items):
        if item.id is None:
            continue
        if item.id in seen:  # reported at the second use, where the slip is
            message = f"items[{index}]: item id '{item.id}' is already used by an item above; ids must be unique"
            report.error(located(question, "items", index) or where.location(), message)
        seen.add(item.id)
    for pair in question.critical:
        unknown = [f"{i}{did_you_mean(i, ids)}" for i in pair.pair if i not in ids]
        if unknown:
            known = f"the item ids are {', '.join(dict.fromkeys(ids))}" if ids else "no item has an id: write {id: mask, text: ...}"
            message = f"critical pair {pair.name} names unknown item ids: {', '.join(unknown)}; {known}"
            report.error(located(pair, "pair") or where.location(), message)


def check_code(question: CodeQuestion, where: Where, raw: YamlMap, report: Report) -> None:
    """Checks and policy the task offers, and a plain-text starter defining the task's functions."""
    if ("task" in raw) == ("define" in raw):
        message = "give exactly one of task (a built-in task) or define (a task of your own)"
        error_at(where, raw, "define" if "define" in raw else "task", message, report)
        return
    if question.task is None and question.define is None:
        return  # the one given could not be read, and says so at its line
    if question.define is not None:
        check_definition(question.define, report)
        task = authored_interface(question.task_id, question.define)
    else:
        task = get_interface(question.task_id)
    for problem in check_problems(task.checks, task.policies, question.checks, None):
        error_at(where, raw, "checks", f"checks: {problem}", report)
    for problem in check_problems(task.checks, task.policies, None, question.policy):
        error_at(where, raw, "policy", f"policy: {problem}", report)
    if question.starter is not None:
        unsafe = _unsafe_character(question.starter)
        problems = [unsafe] if unsafe else starter_problems(task, question.starter)
        for problem in problems:
            error_at(where, raw, "starter", f"starter: {problem}", report)


def check_definition(definition: AuthoredTask, report: Report) -> None:
    """A task definition's sizes, shapes and named inputs, each problem at the field it is in."""
    for key, item, message in definition_problems(definition):
        at = located(definition, key, item[0] if item else None)
        if at is not None:  # a definition read from a file; one built in code has no place to name
            report.error(at, f"define: {message}")


def _unsafe_character(text: str) -> str | None:
    """A control or format character (an escape sequence, a bidirectional override), which a
    starter shown in a terminal or an editor must not carry; None when there is none."""
    for number, line in enumerate(text.split("\n"), 1):
        for char in line:
            if char != "\t" and unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co"):
                return f"line {number} holds the control character U+{ord(char):04X}; a starter is plain text"
    return None


def check_explain(question: QuestionBase, where: Where, raw: YamlMap, report: Report) -> None:
    """Spoken questions are self-graded after the interview, so nothing can branch on their answer while it runs."""
    if question.pushback:
        message = "pushback: a spoken (explain) answer is self-graded after the interview, so a challenge to it cannot be graded"
        error_at(where, raw, "pushback", message, report)
    for index, follow_up in enumerate(question.follow_ups):
        if follow_up.when != "any":
            where_item = located(question, "follow_ups", index)
            message = (
                f"follow_ups: '{follow_up.id}' is asked when the answer is {follow_up.when}, but a spoken (explain) answer is "
                "self-graded after the interview; use when: any"
            )
            if where_item is None:
                error_at(where, raw, "follow_ups", message, report)
            else:
                report.error(where_item, message)


RULES: Final[dict[str, Rules]] = {
    "number": check_numeric,
    "vector": check_numeric,
    "matrix": check_numeric,
    "choice": check_choice,
    "multi": check_multi,
    "order": check_order,
    "code": check_code,
    "explain": check_explain,
    "evidence": check_evidence,
}
"""The rules of each type that has any, by its `type` name (true/false has none beyond its fields)."""
