"""`quiz import FILE`: add the attempts of an export (JSON Lines or CSV) to your history.

All or nothing: a malformed record is reported with its line number and nothing is added.
Attempts already in your history (by id) are skipped, so importing twice adds nothing.
Exit codes: 0 imported, 1 the file cannot be read or has a malformed record, 2 usage error,
4 the history file cannot be used (the reason is printed).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from quiz.cli.history_access import add_lang_argument


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "import",
        parents=parents,
        help="add the attempts of an exported file to your history",
        description="Add the attempts of a `quiz export` file; all or nothing, and never twice the same attempt.",
    )
    parser.add_argument("file", type=Path, metavar="FILE", help="a JSON Lines or CSV export")
    parser.add_argument("--json", action="store_true", help="print a JSON object with the counts")
    add_lang_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Import the file and say how many attempts were added."""
    from quiz.cli.arguments import CommandError
    from quiz.cli.history_access import history_or_fail
    from quiz.history.transfer import ImportProblem, import_file
    from quiz.locale.i18n import tr
    from quiz.mock.sitting import plan_from_json

    if not args.file.is_file():
        raise CommandError(tr("history.import_missing", args.lang, path=args.file))
    with history_or_fail(args.lang) as history:
        try:
            report = import_file(history, args.file, check_mock=plan_from_json)
        except ImportProblem as exc:
            raise CommandError(tr("history.import_problem", args.lang, path=args.file, line=exc.line, message=exc.message)) from None
        except OSError as exc:
            raise CommandError(f"{args.file}: {exc.strerror or exc}") from None
    if args.json:
        print(json.dumps({"added": report.added, "already_present": report.already_present}))
    else:
        print(tr("history.imported", args.lang, added=report.added, present=report.already_present))
    return 0
