"""Checks a question must pass beyond its shape: known topic and claims, valid faults,
compilable expressions and templates; and warnings for what an author should still add."""

from __future__ import annotations

from pathlib import Path

from engine import Fault
from quiz.format.diagnostics import Location, Report
from quiz.format.claims import Claims
from quiz.format.compile import CompiledQuestion, compile_question, texts_of
from quiz.format.convert import did_you_mean
from quiz.format.model import Parametric, QuestionBase

ALL_FAULTS = "all"


def check_question(question: QuestionBase, claims: Claims, report: Report) -> CompiledQuestion | None:
    """Report every problem of `question`; return it compiled when it has no error."""
    where = question.source or Location(Path("<question>"))
    errors_before = len(report.errors)
    if claims.topics and question.topic not in claims.topics:
        report.error(where, f"{question.id}: unknown topic '{question.topic}'{did_you_mean(question.topic, list(claims.topics))}")
    for ref in question.refs:
        if claims.claims and ref not in claims.claims:
            report.error(where, f"{question.id}: unknown claim '{ref}' in refs{did_you_mean(ref, list(claims.claims))}")
    if isinstance(question, Parametric):
        valid = [f.value for f in Fault]
        for name, spec in question.params.items():
            for fault in spec.fault or ():
                if fault != ALL_FAULTS and fault not in valid:
                    report.error(where, f"params.{name}.fault: unknown fault '{fault}'{did_you_mean(fault, valid)}; known: {', '.join(valid)}, or all")
    _warn(question, where, report)
    compiled = compile_question(question, report)
    return compiled if len(report.errors) == errors_before else None


def _warn(question: QuestionBase, where: Location, report: Report) -> None:
    if question.explanation is None:
        report.warning(where, f"{question.id}: no explanation; learners see only the answer")
    if not question.refs:
        report.warning(where, f"{question.id}: no refs; the question cannot be practised by claim")
    for mistake in (*getattr(question, "misconceptions", ()), *getattr(question, "critical", ())):
        if mistake.label is None:
            report.warning(where, f"{question.id}: mistake {mistake.name} has no label; learners see only its feedback")
    for label, text in texts_of(question):
        if text.ja is None:
            report.warning(text.location or where, f"{question.id}: {label} has no Japanese ('ja'); English is shown instead")
