"""`quiz review --list`: the review cards that are due, most overdue first.

Exit codes: 0 listed, 2 usage error, 4 the history file cannot be used (the reason is printed).
"""

from __future__ import annotations

import argparse
import json

from quiz.commands.columns import print_columns
from quiz.commands.history_access import add_lang_argument


def add_parser(subparsers: argparse._SubParsersAction, parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "review",
        parents=parents,
        help="list the questions due for review",
        description="List the questions due for review with their memory state. Exit 4 when the history file cannot be used.",
    )
    # Required for now: reviewing the due questions in the app comes with the app's review screen.
    parser.add_argument("--list", action="store_true", required=True, help="print the due cards")
    parser.add_argument("--json", action="store_true", help="print a JSON array")
    add_lang_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Print the due cards: question, due, stability (days), difficulty (1-10), retrievability."""
    from quiz.commands.history_access import history_or_fail
    from quiz.history.scheduling import to_ms
    from quiz.history.stats import local_now
    from quiz.history.transfer import iso_utc
    from quiz.i18n import tr

    with history_or_fail(args.lang) as history:
        due = history.due(local_now())
    if args.json:
        cards = [
            {"question": d.question, "due": iso_utc(to_ms(d.due)), "stability": d.stability, "difficulty": d.difficulty, "retrievability": d.retrievability, "reviews": d.reviews}
            for d in due
        ]
        print(json.dumps(cards, ensure_ascii=False, indent=2))
        return 0
    if not due:
        print(tr("history.nothing_due", args.lang))
        return 0
    header = tuple(tr(f"history.column_{name}", args.lang) for name in ("question", "due", "stability", "difficulty", "retrievability"))
    rows = [(d.question, f"{d.due.astimezone():%Y-%m-%d %H:%M}", f"{d.stability:.1f} d", f"{d.difficulty:.1f}", f"{d.retrievability:.0%}") for d in due]
    print_columns([header, *rows])
    return 0
