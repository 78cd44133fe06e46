"""`quiz stats`: what the statistics screen shows, from your history.

Exit codes: 0 printed, 2 usage error, 4 the history file cannot be used (the reason is printed).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from quiz.cli.columns import print_columns
from quiz.cli.history_access import add_lang_argument

if TYPE_CHECKING:  # the history loads lazily, off `quiz --help`'s path
    from quiz.history.stats import Statistics


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "stats",
        parents=parents,
        help="statistics of your history",
        description=(
            "Accuracy by topic and claim (last 30 days and all time), misconceptions, due reviews, "
            "streak, true retention and how well the review scheduler's parameters fit your history. Exit 4 when the history file cannot be used."
        ),
    )
    parser.add_argument("--json", action="store_true", help="print a JSON object (also the calendar, trend and forecast)")
    add_lang_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Compute the statistics at the current local time and print them."""
    from quiz.cli.history_access import history_or_fail, load_catalogue
    from quiz.cli.optimize import print_standing
    from quiz.history.personal import standing
    from quiz.history.stats import statistics

    catalogue = load_catalogue(args)
    with history_or_fail(args.lang) as history:
        result = statistics(history, catalogue)
        scheduling = standing(history)
    if args.json:
        print(json.dumps({**result.to_json(), "fsrs": scheduling.to_json()}, ensure_ascii=False, indent=2))
    else:
        _print(result, args.lang)
        print()
        print_standing(scheduling, args.lang)
    return 0


def _mean(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _print(result: Statistics, lang: str) -> None:
    from quiz.locale.i18n import tr

    print(tr("history.stats_today", lang, attempts=result.today.attempts, mean=_mean(result.today.mean_score)))
    rate = result.retention.recent.pass_rate
    print(tr("history.stats_due", lang, due=result.due_now, streak=result.streak_days))
    print(tr("history.stats_retention", lang, rate="–" if rate is None else f"{rate:.0%}", reviews=result.retention.recent.attempts))
    for title, groups in (("history.stats_topics", result.topics), ("history.stats_claims", result.claims)):
        print()
        header = (tr(title, lang), tr("history.column_attempts", lang), tr("history.column_recent_mean", lang), tr("history.column_mean", lang))
        rows = [(name, str(w.all_time.attempts), _mean(w.recent.mean_score), _mean(w.all_time.mean_score)) for name, w in groups.items()]
        print_columns([header, *rows])
    if result.misconceptions:
        print()
        print_columns([(tr("history.stats_misconceptions", lang), ""), *((name, str(n)) for name, n in result.misconceptions.items())])
    print()
    print(tr("history.stats_forecast", lang))
    print("  ".join(f"{day:%m-%d} {count}" for day, count in result.forecast))
