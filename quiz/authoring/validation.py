"""What `quiz validate` checks, as a value: every diagnostic of a set of packs, sorted, and counts.

Loading reports what breaks the format, checking what breaks the rules beyond it (claims,
expressions), and self-tests what breaks the answer keys; `quiz validate` prints the result
once and `quiz validate --watch` again after each change.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from quiz.authoring.selftest import self_test
from quiz.bank import load_bank
from quiz.format.checks import check_question
from quiz.format.diagnostics import Diagnostic, Report, Severity


@dataclass(frozen=True)
class Validation:
    """The diagnostics of one run, in file and line order, and what was checked."""

    diagnostics: list[Diagnostic]
    files: int
    questions: int

    @property
    def errors(self) -> int:
        return sum(d.severity is Severity.ERROR for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return sum(d.severity is Severity.WARNING for d in self.diagnostics)

    def failed(self, strict: bool) -> bool:
        """Errors fail a run; with `strict`, warnings too."""
        return bool(self.errors) or (strict and bool(self.warnings))

    def summary(self) -> str:
        """`checked 3 questions in 1 file: 1 error, 0 warnings`."""
        return (
            f"checked {_count(self.questions, 'question')} in {_count(self.files, 'file')}: "
            f"{_count(self.errors, 'error')}, {_count(self.warnings, 'warning')}"
        )


def validate_packs(paths: Sequence[Path] | None, extra: Sequence[Path] = (), seeds: int = 20) -> Validation:
    """Load `paths` (default: the bundled bank and the packs folder) and `extra`, check every
    question and self-test each that compiles with `seeds` seeds (0 skips self-tests)."""
    bank = load_bank(paths or None, extra=extra)
    report = Report()
    report.extend(bank.report)
    for question in bank.rejected:  # its broken rules are reported already: check the rest of it
        check_question(question, bank.claims, report)
    for question in bank.questions.values():
        compiled = check_question(question, bank.claims, report)
        if compiled is not None and seeds > 0:
            for diagnostic in self_test(compiled, seeds):
                add = report.error if diagnostic.severity is Severity.ERROR else report.warning
                add(diagnostic.location, diagnostic.message)
    diagnostics = sorted(report.diagnostics, key=lambda d: (str(d.location.path), d.location.line, d.location.column))
    return Validation(diagnostics, len(bank.files), len(bank.questions) + len(bank.rejected))


def _count(n: int, noun: str) -> str:
    """`1 error`, `2 errors`: authors read the summary, so it is written as words are."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
