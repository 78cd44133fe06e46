"""What `quiz validate` checks, as a value: every diagnostic of a set of packs, sorted, and counts.

Loading reports what breaks the format, checking what breaks the rules beyond it (claims,
expressions), and self-tests what breaks the answer keys; `quiz validate` prints the result
once and `quiz validate --watch` again after each change. Self-tests of one file share
`FILE_SECONDS` of CPU time: the questions after that are reported untested, so a run ends soon
whatever a pack holds.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from quiz.authoring.fields import field_location
from quiz.authoring.selftest import self_test, time_scale
from quiz.bank import load_bank, pack_files
from quiz.bank.links import check_chain_times
from quiz.expressions.budget import Budget, BudgetExceeded
from quiz.format.checks import check_question
from quiz.format.claims import Claims
from quiz.format.compile import CompiledQuestion
from quiz.format.diagnostics import Diagnostic, Report, Severity
from quiz.format.model import QuestionBase
from quiz.mock.options import MAX_MINUTES

log = logging.getLogger(__name__)

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


def validate_packs(
    paths: Sequence[Path] | None, extra: Sequence[Path] = (), seeds: int = 20, workers: int | None = None
) -> Validation:
    """Load `paths` (default: the bundled bank and the packs folder) and `extra`, check every
    question and self-test each that compiles with `seeds` seeds (0 skips self-tests), files in
    up to `workers` processes at once (default: one per core this process may use).

    Named `paths` are checked with the bank they will load with, in the order it loads: the bundled
    bank, the packs folder, then the paths as `--bank` adds them (so an id a bundled question has
    is a clash, and a follow-up may name a bundled question); only the named files' problems are
    reported and their questions tested.
    """
    bank = load_bank(None, extra=[*(paths or ()), *extra])
    checked = _Checked([*paths, *extra]) if paths else None
    ours = (lambda path: True) if checked is None else checked.holds
    report = Report()
    report.extend(bank.report)
    check_chain_times(bank.questions, report, MAX_MINUTES * 60)  # a chain must fit the longest mock
    for question in bank.rejected:  # its broken rules are reported already: check the rest of it
        if ours(field_location(question, None).path):
            check_question(question, bank.claims, report)
    files: dict[Path, list[QuestionBase]] = {}
    for question in bank.questions.values():
        path = field_location(question, None).path
        if ours(path):
            files.setdefault(path, []).append(question)
    found = check_files(list(files.values()), bank.claims, seeds, usable_cores() if workers is None else workers)
    for in_file in files.values():
        for question in in_file:  # in the bank's order, whichever worker checked it
            own, tested = found[question.id]
            report.extend(own)
            for diagnostic in tested:
                report.add(diagnostic)
    if checked is not None:
        report = report.restricted(ours)
    diagnostics = sorted(report.diagnostics, key=_listing_order)
    questions = sum(map(len, files.values())) + sum(ours(field_location(q, None).path) for q in bank.rejected)
    checked_files = sum(map(ours, bank.files))
    return Validation(diagnostics, checked_files, questions, report.error_count, report.warning_count)


class _Checked:
    """The sources `quiz validate` was asked to check, and whether a file is one of them or in one."""

    def __init__(self, sources: Sequence[Path]) -> None:
        self._paths = {s.resolve() for s in sources} | {f.resolve() for s in sources for f in pack_files(s)}

    def holds(self, path: Path) -> bool:
        return path.resolve() in self._paths


def usable_cores() -> int:
    """The cores this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


Findings = dict[str, tuple[Report, list[Diagnostic]]]
"""By question id: the report of its checks, and what its self-test found (nothing when it does not compile)."""


def check_files(files: list[list[QuestionBase]], claims: Claims, seeds: int, workers: int) -> Findings:
    """Check each file's questions and self-test those that compile with `seeds` seeds (0: no
    self-tests). Files are checked in worker processes when there are several of each and the
    system can fork; each worker keeps every CPU-time budget of its own, so a pack stops as
    soon in one."""
    workers = min(workers, len(files))
    if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return {k: v for questions in files for k, v in _check_file(questions, claims, seeds).items()}
    global _SHARED
    _SHARED = (files, claims, seeds)  # forked workers inherit it: nothing is pickled but their findings
    # The largest files first, so that no worker is left with a long one at the end.
    order = sorted(range(len(files)), key=lambda n: -len(files[n]))
    try:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            results = list(pool.map(_check_shared_file, order))
    except BrokenProcessPool as exc:  # a worker killed (out of memory, a signal): check here instead
        log.warning("self-test workers stopped (%s); testing in this process", exc)
        results = [_check_file(questions, claims, seeds) for questions in files]
    finally:
        _SHARED = None
    return {k: v for found in results for k, v in found.items()}


_SHARED: tuple[list[list[QuestionBase]], Claims, int] | None = None


def _check_shared_file(index: int) -> Findings:
    assert _SHARED is not None  # set by check_files before the workers fork
    files, claims, seeds = _SHARED
    return _check_file(files[index], claims, seeds)


def _check_file(questions: list[QuestionBase], claims: Claims, seeds: int) -> Findings:
    """Check one file's questions in order and self-test each that compiles, within the file's
    CPU time for self-tests; a question past it is reported untested."""
    seconds = FILE_SECONDS * time_scale(seeds)
    clock = Budget(seconds=seconds, check_interval=0)  # read once a question
    found: Findings = {}
    for question in questions:
        own = Report()
        compiled = check_question(question, claims, own)
        found[question.id] = (own, [] if compiled is None or seeds <= 0 else _self_test_within(compiled, seeds, clock, seconds))
    return found


def _self_test_within(compiled: CompiledQuestion, seeds: int, clock: Budget, seconds: float) -> list[Diagnostic]:
    """The question's self-test findings on its file's `clock`, or a warning that its `seconds` are used up."""
    try:
        clock.check_time()
    except BudgetExceeded:
        message = f"{compiled.question.id}: not self-tested: this file's self-tests used their {seconds:g} s of CPU time"
        return [Diagnostic(field_location(compiled.question, None), Severity.WARNING, message)]
    with clock.running():
        return self_test(compiled, seeds)


def _listing_order(diagnostic: Diagnostic) -> tuple[str, int, int, int]:
    """By file, then line and column; a file's "more problems" line (no line) comes last."""
    location = diagnostic.location
    return (str(location.path), 0 if location.line else 1, location.line, location.column)


def _count(n: int, noun: str) -> str:
    """`1 error`, `2 errors`: authors read the summary, so it is written as words are."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
