"""`quiz validate`: check question files like a compiler and print `path:line:col: ...`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from quiz.cli.arguments import CommandError


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]) -> None:
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
    parser.add_argument(
        "--watch",
        action="store_true",
        help="check again whenever a file changes and print only what changed (Ctrl+C stops)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Load, convert and check every question; exit 1 on errors (or warnings with --strict)."""
    # Imported here so `quiz --help` does not pay for numpy and the bank.
    from quiz.authoring.validation import validate_packs

    if args.seeds < 0:
        raise CommandError("--seeds cannot be negative", 2)
    if args.watch:
        return _watch(args)
    result = validate_packs(args.paths or None, args.bank, args.seeds)
    failed = result.failed(args.strict)
    if args.format == "json":
        summary = {"files": result.files, "questions": result.questions, "errors": result.errors, "warnings": result.warnings}
        data = {"ok": not failed, **summary, "diagnostics": [d.as_json() for d in result.diagnostics]}
        json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
        print()
    else:
        for diagnostic in result.diagnostics:
            print(diagnostic)
        print(result.summary())
    return 1 if failed else 0


def _watch(args: argparse.Namespace) -> int:
    from quiz.authoring.validation import validate_packs
    from quiz.authoring.watch import watch
    from quiz.bank import default_sources

    if args.format != "text":
        raise CommandError("--watch prints text; leave out --format json", 2)
    paths = [*(args.paths or default_sources()), *args.bank]
    watch(paths, lambda: validate_packs(args.paths or None, args.bank, args.seeds), sys.stdout)
    return 0
