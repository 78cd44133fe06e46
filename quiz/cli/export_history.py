"""`quiz export`: every attempt of your history as JSON Lines or CSV (UTF-8 with a BOM).

Exit codes: 0 exported, 1 the output file already exists or cannot be written, 2 usage error,
4 the history file cannot be used (the reason is printed).
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from quiz.cli.history_access import add_lang_argument


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "export",
        parents=parents,
        help="write your history to a file (JSON Lines or CSV)",
        description="Write every attempt, oldest first, to FILE or to standard output. An existing FILE is never overwritten.",
    )
    parser.add_argument("--format", choices=("jsonl", "csv"), help="jsonl (default) or csv; FILE ending in .csv means csv")
    parser.add_argument("-o", "--output", type=Path, metavar="FILE", help="the file to create (default: standard output)")
    add_lang_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Export to a new file (removed again if the export fails) or to standard output."""
    from quiz.cli.arguments import CommandError
    from quiz.cli.history_access import history_or_fail
    from quiz.history.transfer import export
    from quiz.locale.i18n import tr

    fmt = args.format or ("csv" if args.output is not None and args.output.suffix.lower() == ".csv" else "jsonl")
    with history_or_fail(args.lang) as history:
        if args.output is None:
            out = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="")
            try:
                count = export(history, out, fmt, terminal=sys.stdout.isatty())  # ESC and the like never raw
            finally:
                out.flush()
                out.detach()
        else:
            try:
                handle = args.output.open("x", encoding="utf-8", newline="")
            except FileExistsError:
                raise CommandError(tr("history.export_exists", args.lang, path=args.output)) from None
            except OSError as exc:
                raise CommandError(f"{args.output}: {exc.strerror or exc}") from None
            try:
                with handle:
                    count = export(history, handle, fmt)
            except BaseException:
                args.output.unlink(missing_ok=True)  # the half-written file is ours to remove
                raise
    print(tr("history.exported", args.lang, count=count, path=args.output or "-"), file=sys.stderr)
    return 0
