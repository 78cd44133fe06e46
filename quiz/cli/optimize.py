"""`quiz optimize`: fit FSRS to your reviews now and print both parameter sets' figures on your
history and which one schedules your reviews (the app also fits by itself every few answers).

Exit codes: 0 fitted (or kept the defaults, saying why), 2 usage error, 4 the history file cannot
be used (the reason is printed).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from quiz.cli.history_access import add_lang_argument

if TYPE_CHECKING:  # the history loads lazily, off `quiz --help`'s path
    from quiz.history.personal import Standing


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "optimize",
        parents=parents,
        help="fit the review scheduler (FSRS) to your history",
        description=(
            "Fit FSRS's parameters to your reviews with its optimizer, score them and the defaults on "
            "your history (log-loss, RMSE over bins) and schedule with the fitted set only when it is "
            "better and there are enough reviews. Exit 4 when the history file cannot be used."
        ),
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object")
    add_lang_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Refit, then print the figures of both sets and the one in use."""
    from quiz.cli.history_access import history_or_fail
    from quiz.history import personal

    with history_or_fail(args.lang) as history:
        personal.refit(history)
        state = personal.standing(history)
    if args.json:
        print(json.dumps(state.to_json(), ensure_ascii=False, indent=2))
    else:
        print_standing(state, args.lang)
    return 0


def print_standing(state: Standing, lang: str) -> None:
    """The figures table, which set is in use and why, and the desired retention (also `quiz stats`)."""
    from quiz.cli.columns import print_columns
    from quiz.history import personal
    from quiz.locale.i18n import tr

    print(tr("history.fsrs_title", lang))
    print_columns(personal.figure_rows(state.fit, lang))
    print(personal.status_text(state, lang))
    print(tr("history.fsrs_retention", lang, retention=f"{state.desired_retention:.2f}"))
