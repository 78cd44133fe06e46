"""What `quiz validate` checks, as a value: every diagnostic of a set of packs, sorted, and counts.

Loading reports what breaks the format, checking what breaks the rules beyond it (claims,
expressions), and self-tests what breaks the answer keys; `quiz validate` prints the result
once and `quiz validate --watch` again after each change. Self-tests of one file share
`FILE_SECONDS` of CPU time: the questions after that are reported untested, so a run ends soon
whatever a pack holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from quiz.authoring.selftest import self_test, time_scale
from quiz.bank import load_bank
from quiz.expressions.budget import Budget, BudgetExceeded
from quiz.format.checks import check_question
from quiz.format.diagnostics import Diagnostic, Location, Report

FILE_SECONDS: Final = 10.0
"""CPU time the self-tests of one file may take at the default seeds (times `time_scale` for
more); questions after that are reported untested. The bundled files take at most 3.5 s."""


@dataclass(frozen=True)
class Validation:
    """The diagnostics of one run, in file and line order, and what was checked.

    `errors` and `warnings` count every problem found, also those only counted past a file's
    listed share (see `Report`).
    """

    diagnostics: list[Diagnostic]
    files: int
    questions: int
    errors: int
    warnings: int

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
    files: dict[Path, Budget] = {}
    for question in bank.questions.values():
        compiled = check_question(question, bank.claims, report)
        if compiled is None or seeds <= 0:
            continue
        where = question.source or Location(Path("<question>"))
        seconds = FILE_SECONDS * time_scale(seeds)
        clock = files.setdefault(where.path, Budget(seconds=seconds, check_interval=0))  # once a question
        try:
            clock.check_time()
        except BudgetExceeded:
            report.warning(where, f"{question.id}: not self-tested: this file's self-tests used their {seconds:g} s of CPU time")
            continue
        with clock.running():
            found = self_test(compiled, seeds)
        for diagnostic in found:
            report.add(diagnostic)
    diagnostics = sorted(report.diagnostics, key=_listing_order)
    questions = len(bank.questions) + len(bank.rejected)
    return Validation(diagnostics, len(bank.files), questions, report.error_count, report.warning_count)


def _listing_order(diagnostic: Diagnostic) -> tuple[str, int, int, int]:
    """By file, then line and column; a file's "more problems" line (no line) comes last."""
    location = diagnostic.location
    return (str(location.path), 0 if location.line else 1, location.line, location.column)


def _count(n: int, noun: str) -> str:
    """`1 error`, `2 errors`: authors read the summary, so it is written as words are."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
