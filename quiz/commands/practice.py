"""`quiz practice` (and plain `quiz`): open the app, optionally straight into a selection."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from quiz.i18n import LANGUAGES

if TYPE_CHECKING:  # the session module loads numpy and the bank: only when the app starts
    from quiz.practice.session import Selection


def add_parser(subparsers: argparse._SubParsersAction, parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "practice",
        parents=parents,
        help="practise questions in the terminal app",
        description="Open the app on the first question of a selection (all questions by default).",
    )
    parser.add_argument("--topic", help="only this topic")
    parser.add_argument("--claim", help="only questions citing this claim (e.g. B4)")
    parser.add_argument("--difficulty", type=int, choices=(1, 2, 3), help="only this difficulty")
    parser.add_argument("--id", dest="key", metavar="ID|KEY", help="one question, by id or variant key (id#seed)")
    parser.add_argument("--lang", choices=LANGUAGES, help="interface language (default: your setting)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Start the app on the selection the options describe; a topic, claim or key that cannot
    exist stops here, before the app opens (whether any question matches needs the whole bank,
    which the app loads)."""
    from quiz.bank import bundled_claims
    from quiz.commands.common import check_or_fail
    from quiz.format.diagnostics import Report
    from quiz.practice.session import Selection

    selection = Selection(topic=args.topic, claim=args.claim, difficulty=args.difficulty, key=args.key)
    check_or_fail(bundled_claims(Report()), selection)
    return launch(args, selection)


def launch(args: argparse.Namespace, selection: Selection | None) -> int:
    """Build the app with `make_app` and run it until the learner quits."""
    from quiz.ui.app import make_app

    app = make_app(args.bank, lang=getattr(args, "lang", None), start=selection)
    app.run()
    return 0
