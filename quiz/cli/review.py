"""`quiz review`: practise the questions due for review in the app; with `--list`, print the
due cards instead, most overdue first.

Exit codes: 0 done (or nothing due), 2 usage error, 4 the history file cannot be used (the
reason is printed).
"""

from __future__ import annotations

import argparse
import json

from quiz.cli.columns import print_columns
from quiz.history.records import Mode
from quiz.locale.i18n import LANGUAGES


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "review",
        parents=parents,
        help="practise the questions due for review (--list: print them)",
        description=(
            "Open the app on the questions due for review, most overdue first; with --list, print "
            "them with their memory state instead. Exit 4 when the history file cannot be used."
        ),
    )
    parser.add_argument("--list", action="store_true", help="print the due cards instead of practising them")
    parser.add_argument("--json", action="store_true", help="with --list: print a JSON array")
    # Without --list the app's own language setting applies unless one is given.
    parser.add_argument("--lang", choices=LANGUAGES, help="language (default: en for --list, your setting in the app)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Practise the due questions in the app, or with `--list` print them."""
    if args.list:
        return list_due(args, args.lang or "en")
    if args.json:
        from quiz.cli.arguments import CommandError

        raise CommandError("--json prints data: use it with --list", 2)
    return practise_due(args)


def practise_due(args: argparse.Namespace) -> int:
    """Open the app on the questions due now that the bank holds, in review mode."""
    from quiz.bank import Selection
    from quiz.cli.common import load
    from quiz.cli.history_access import history_or_fail
    from quiz.cli.practice import launch
    from quiz.history.records import local_now
    from quiz.history.settings import load_settings
    from quiz.locale.i18n import tr

    lang = args.lang or load_settings()[0].language
    bank = load(args)
    with history_or_fail(lang) as history:
        due = [card.question for card in history.due(local_now()) if card.question in bank.questions]
    if not due:
        print(tr("history.nothing_due", lang))
        return 0
    return launch(args, Selection(ids=tuple(due)), bank, mode=Mode.REVIEW)


def list_due(args: argparse.Namespace, lang: str) -> int:
    """Print the due cards: question, due, stability (days), difficulty (1-10), retrievability."""
    from quiz.cli.history_access import history_or_fail
    from quiz.history.records import local_now, to_ms
    from quiz.history.transfer import iso_utc
    from quiz.locale.i18n import tr

    with history_or_fail(lang) as history:
        due = history.due(local_now())
    if args.json:
        cards = [
            {
                "question": d.question,
                "due": iso_utc(to_ms(d.due)),
                "stability": d.stability,
                "difficulty": d.difficulty,
                "retrievability": d.retrievability,
                "reviews": d.reviews,
            }
            for d in due
        ]
        print(json.dumps(cards, ensure_ascii=False, indent=2))
        return 0
    if not due:
        print(tr("history.nothing_due", lang))
        return 0
    header = tuple(tr(f"history.column_{name}", lang) for name in ("question", "due", "stability", "difficulty", "retrievability"))
    rows = [
        (d.question, f"{d.due.astimezone():%Y-%m-%d %H:%M}", f"{d.stability:.1f} d", f"{d.difficulty:.1f}", f"{d.retrievability:.0%}")
        for d in due
    ]
    print_columns([header, *rows])
    return 0
