"""Checks a question must pass beyond its shape: known topic and claims, valid faults,
compilable expressions and templates; and warnings for what an author should still add.

Each problem is reported at the field at fault (the `topic` line, the claim in `refs`, ...).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path

from engine import Fault
from quiz.base.terminal_text import has_control_characters
from quiz.format.claims import NAMESPACE, Claims, namespace_of
from quiz.format.compile import TRACE_STEPS, CompiledQuestion, compile_question, texts_of
from quiz.format.diagnostics import Location, QuestionReport, Report
from quiz.format.marks import located
from quiz.format.model import Parametric, QuestionBase
from quiz.format.suggest import did_you_mean

ALL_FAULTS = "all"

# A literal decimal number (0.25, 11.09) outside a {{ ... }} template and a `code` span: in a text shown with a drawn
# variant it is either filled in from the variant or a constant fact a test computes.
_TEMPLATE = re.compile(r"\{\{.*?\}\}|`[^`]*`", re.S)  # templates and code spans (`scale=1.0`) are not prose
_DECIMAL = re.compile(r"(?<![\w.\\^_{])\d+\.\d+(?!\w|\.\d)")
# What a double-quoted YAML string makes of a LaTeX command whose name starts with an escape
# letter: "$\theta$" is a tab then "heta", "\frac" a form feed then "rac", "\beta" a backspace.
_YAML_ESCAPES = {
    "\t": ("t", "tab"), "\b": ("b", "backspace"), "\f": ("f", "form feed"),
    "\v": ("v", "vertical tab"), "\a": ("a", "bell"), "\r": ("r", "carriage return"),
}
_ESCAPED_COMMAND = re.compile("([" + "".join(_YAML_ESCAPES) + "])([A-Za-z]+)")


def check_question(question: QuestionBase, claims: Claims, report: Report) -> CompiledQuestion | None:
    """Report every problem of `question`; return it compiled when it has no error."""
    where = question.source or Location(Path("<question>"))
    errors_before = report.error_count  # listed or only counted: a full file's errors count too
    report = QuestionReport(report, question.id)
    if claims.topics and question.topic not in claims.topics:
        at = located(question, "topic") or where
        known = _declared_by(question.topic, "topics", claims.topics)
        report.error(at, f"unknown topic '{question.topic}'{known}{did_you_mean(question.topic, list(claims.topics))}")
    for index, ref in enumerate(question.refs):
        if claims.claims and ref not in claims.claims:
            at = located(question, "refs", index) or where
            report.error(at, f"unknown claim '{ref}' in refs{_declared_by(ref, 'claims', claims.claims)}{did_you_mean(ref, list(claims.claims))}")
    if isinstance(question, Parametric):
        valid = [f.value for f in Fault]
        for name, spec in question.params.items():
            for index, fault in enumerate(spec.fault or ()):
                if fault != ALL_FAULTS and fault not in valid:
                    at = located(spec, "fault", index) or where
                    report.error(at, f"params.{name}.fault: unknown fault '{fault}'{did_you_mean(fault, valid)}; known: {', '.join(valid)}, or all")
        _check_worked(question, where, report)
    _warn(question, where, report)
    compiled = compile_question(question, report)
    return compiled if report.error_count == errors_before else None


def _declared_by(name: str, kind: str, known: Collection[str]) -> str:
    """For a namespaced topic or claim not found (`rope:R9`), what its pack does declare, or that no
    pack loaded declares any under that name; for a bare one, the pack's own it may mean (`R1`
    for `rope:R1`)."""
    namespace = namespace_of(name)
    if namespace is None:
        owned = [k for k in known if k.endswith(NAMESPACE + name)]
        return f": a pack's own {kind[:-1]} is cited with the pack's name, as {', '.join(owned)}" if owned else ""
    declared = [k.removeprefix(namespace + NAMESPACE) for k in known if namespace_of(k) == namespace]
    if declared:
        return f": pack '{namespace}' declares {kind} {', '.join(declared)}"
    return f": no pack loaded declares {kind} under '{namespace}{NAMESPACE}' (a pack declares its own under its `pack:` key)"


def _check_worked(question: Parametric, where: Location, report: Report) -> None:
    """Each `worked:` entry names a parameter or derived value, or a step of one (`run.weights`)."""
    names = [*question.params, *question.derived]
    for name in question.worked:
        head, _, step = name.partition(".")
        if head in names and (not step or step in TRACE_STEPS):
            continue
        known = names + [f"{n}.{s}" for n in question.derived for s in TRACE_STEPS]
        at = located(question, "worked", name) or where
        report.error(
            at, f"worked: '{name}' is not a parameter, a derived value or a step of an attention run (run.weights){did_you_mean(name, known)}"
        )


def _warn(question: QuestionBase, where: Location, report: Report) -> None:
    if question.explanation is None:
        report.warning(where, "no explanation; learners see only the answer")
    if not question.refs:
        report.warning(where, "no refs; the question cannot be practised by claim")
    own_task = getattr(question, "define", None)  # a code question's own task names mistakes too
    for mistake in (*getattr(question, "misconceptions", ()), *getattr(question, "critical", ()), *getattr(own_task, "mistakes", ())):
        if mistake.label is None:
            at = mistake.marks.start if mistake.marks else where
            report.warning(at, f"mistake {mistake.name} has no label; learners see only its feedback")
    for label, text in texts_of(question):
        if text.ja is None:
            report.warning(text.location or where, f"{label} has no Japanese ('ja'); English is shown instead")
        escapes = [(lang, found) for lang, source in text.items() if (found := _escaped_command(source))]
        for lang, (character, command) in escapes:
            report.warning(
                text.location or where,
                f"{label} ({lang}) has a {character} where `{command}` was probably meant: in a double-quoted "
                f"YAML string a backslash starts an escape; write the text in single quotes or as a block scalar (|-)",
            )
        if not escapes and any(has_control_characters(source) for _, source in text.items()):
            report.warning(text.location or where, f"{label} holds control characters (ESC, BEL, ...); they are removed when shown")
    if isinstance(question, Parametric) and question.is_parametric:
        _warn_literal_numbers(question, where, report)


def _escaped_command(source: str) -> tuple[str, str] | None:
    """(the character's name, the LaTeX command) for the first command YAML turned into an escape, in maths."""
    found = _ESCAPED_COMMAND.search(source) if "$" in source else None
    if found is None:
        return None
    character, rest = found.groups()
    return _YAML_ESCAPES[character][1], "\\" + _YAML_ESCAPES[character][0] + rest


def _warn_literal_numbers(question: Parametric, where: Location, report: Report) -> None:
    """A parametric question's explanation and feedback are read beside the drawn numbers: a literal
    decimal there is filled in from the variant, or listed in `checked_numbers` with its test."""
    for label, text in texts_of(question):
        if not (label == "explanation" or label.endswith(".feedback")):
            continue
        for lang, source in text.items():
            for number in dict.fromkeys(_DECIMAL.findall(_TEMPLATE.sub(" ", source))):
                if number not in question.checked_numbers:
                    report.warning(
                        text.location or where,
                        f"{label} ({lang}) states the literal number {number} in a text shown with the variant: "
                        f"fill it from the variant ({{{{ ... }}}}) or, if it is a constant fact, list it under "
                        f"checked_numbers with the test that computes it",
                    )
