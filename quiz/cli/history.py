"""`quiz history`: the attempts in your history, newest first.

Exit codes: 0 listed, 1 unknown question id (no attempts and not in the bank), 2 usage error,
4 the history file cannot be used (the reason is printed).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from quiz.cli.columns import print_columns
from quiz.cli.history_access import add_lang_argument

if TYPE_CHECKING:  # the history loads lazily, off `quiz --help`'s path
    from quiz.history.records import AttemptRecord

DEFAULT_LIMIT = 20


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "history",
        parents=parents,
        help="list your attempts, newest first",
        description="List the attempts in your history, newest first. Exit 4 when the history file cannot be used.",
    )
    parser.add_argument("--limit", type=int, default=DEFAULT_LIMIT, metavar="N", help=f"at most N attempts (default {DEFAULT_LIMIT}; 0 for all)")
    parser.add_argument("--question", metavar="ID", help="only the attempts at this question")
    parser.add_argument("--json", action="store_true", help="print a JSON array")
    add_lang_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the attempts as a table or as JSON objects."""
    from quiz.cli.arguments import CommandError
    from quiz.cli.history_access import history_or_fail

    if args.limit < 0:
        raise CommandError("--limit cannot be negative (0 lists every attempt)", 2)
    with history_or_fail(args.lang) as history:
        attempts = history.attempts(limit=args.limit or None, question=args.question)
        # A mock still running that keeps its verdicts for its report: the app shows none yet, nor does this.
        withheld = {mock.id for mock in history.running_mocks() if mock.feedback == "end"}
    if not attempts and args.question is not None:
        _check_question_exists(args)
    if args.json:
        print(json.dumps([attempt_json(a, a.mock in withheld) for a in attempts], ensure_ascii=False, indent=2))
        return 0
    _print_table(attempts, withheld, args.lang)
    return 0


def attempt_json(attempt: AttemptRecord, withheld: bool = False) -> dict[str, Any]:
    """An attempt as `quiz history --json` prints it; `withheld` (a running mock's, verdicts kept
    for its report) leaves out how it was graded: score, verdict and misconception are null."""
    from quiz.history.transfer import iso_utc

    graded: dict[str, Any] = {"score": attempt.score, "verdict": attempt.verdict, "misconception": attempt.misconception}
    if withheld:
        graded = dict.fromkeys(graded)
    return {
        "id": attempt.id,
        "at": iso_utc(attempt.at_ms),
        "key": attempt.key,
        "question": attempt.question,
        "version": attempt.version,
        "seed": attempt.seed,
        "inputs": attempt.inputs,
        "mode": attempt.mode,
        "mock": attempt.mock,
        "lang": attempt.lang,
        "response": attempt.response,
        **graded,
        "withheld": withheld,
        "hints": attempt.hints,
        "revealed": attempt.revealed,
        "seconds": None if attempt.duration_ms is None else attempt.duration_ms / 1000,
    }


def _check_question_exists(args: argparse.Namespace) -> None:
    """No attempts at `--question`: stop (exit 1) when the bank has no such question either."""
    from quiz.cli.common import find_variant, load

    bank = load(args)
    if args.question not in bank.questions:
        find_variant(bank, args.question, None)  # raises with the closest ids


def _print_table(attempts: list[AttemptRecord], withheld: set[str], lang: str) -> None:
    from quiz.history.scheduling import at_datetime
    from quiz.locale.i18n import tr

    if not attempts:
        print(tr("history.no_attempts", lang))
        return
    rows = [
        (
            at_datetime(a.at_ms).astimezone().strftime("%Y-%m-%d %H:%M"),
            a.key,
            tr(f"history.mode_{a.mode}", lang),
            *((tr("history.withheld", lang), "–") if a.mock in withheld else (tr(f"grade.{a.verdict}", lang), f"{a.score:.2f}")),
            "" if a.duration_ms is None else f"{a.duration_ms / 1000:.0f} s",
        )
        for a in attempts
    ]
    header = tuple(tr(f"history.column_{name}", lang) for name in ("when", "question", "mode", "verdict", "score", "time"))
    print_columns([header, *rows])

