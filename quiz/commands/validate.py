"""`quiz validate`: check question files like a compiler and print `path:line:col: ...`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_parser(subparsers: argparse._SubParsersAction, parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "validate",
        parents=parents,
        help="check question files and report errors and warnings",
        description="Check question files. Default: the bundled bank and your packs folder.",
    )
    parser.add_argument("paths", nargs="*", type=Path, metavar="PATH", help="question files or folders")
    parser.add_argument("--strict", action="store_true", help="fail on warnings too")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    parser.add_argument(
        "--seeds",
        type=int,
        default=20,
        metavar="N",
        help="self-test each parametric question with N seeds (default 20; 0 skips self-tests)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Load, convert and check every question; exit 1 on errors (or warnings with --strict)."""
    # Imported here so `quiz --help` does not pay for numpy and the bank.
    from quiz.bank import load_bank
    from quiz.format.diagnostics import Report
    from quiz.format.checks import check_question
    from quiz.authoring.selftest import self_test

    bank = load_bank(args.paths or None, extra=args.bank)
    report = Report()
    report.extend(bank.report)
    for question in bank.rejected:  # broken rules reported already; their expressions too
        check_question(question, bank.claims, report)
    for question in bank.questions.values():
        compiled = check_question(question, bank.claims, report)
        if compiled is not None and args.seeds > 0:
            report.diagnostics.extend(self_test(compiled, args.seeds))
    diagnostics = sorted(report.diagnostics, key=lambda d: (str(d.location.path), d.location.line, d.location.column))
    failed = bool(report.errors) or (args.strict and bool(report.warnings))
    summary = {
        "files": len(bank.files),
        "questions": len(bank.questions) + len(bank.rejected),
        "errors": len(report.errors),
        "warnings": len(report.warnings),
    }
    if args.format == "json":
        json.dump({"ok": not failed, **summary, "diagnostics": [d.as_json() for d in diagnostics]}, sys.stdout, ensure_ascii=False, indent=2)
        print()
    else:
        for diagnostic in diagnostics:
            print(diagnostic)
        print(
            f"checked {_count(summary['questions'], 'question')} in {_count(summary['files'], 'file')}: "
            f"{_count(summary['errors'], 'error')}, {_count(summary['warnings'], 'warning')}"
        )
    return 1 if failed else 0


def _count(n: int, noun: str) -> str:
    """`1 error`, `2 errors`: authors read the summary, so it is written as words are."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
