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
    from quiz.bank import Bank
    from quiz.history.stats import Statistics, Window


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
    from quiz.cli.common import load
    from quiz.cli.history_access import history_or_fail
    from quiz.cli.optimize import print_standing
    from quiz.history.personal import standing
    from quiz.history.stats import catalogue, statistics

    bank = load(args)
    with history_or_fail(args.lang) as history:
        result = statistics(history, catalogue(bank.questions.values()))
        scheduling = standing(history)
    if args.json:
        print(json.dumps({**result.to_json(), "fsrs": scheduling.to_json()}, ensure_ascii=False, indent=2))
    else:
        _print(result, bank, args.lang)
        print()
        print_standing(scheduling, args.lang)
    return 0


def _mean(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _print(result: Statistics, bank: Bank, lang: str) -> None:
    """The statistics as learners read them: topics and mistakes by name, claims with their texts."""
    from quiz.history.naming import claim_text, mistake_name, topic_name
    from quiz.locale.i18n import tr

    print(tr("history.stats_today", lang, attempts=result.today.attempts, mean=_mean(result.today.mean_score)))
    rate = result.retention.recent.pass_rate
    print(tr("history.stats_due", lang, due=result.due_now, streak=result.streak_days))
    print(tr("history.stats_retention", lang, rate="–" if rate is None else f"{rate:.0%}", reviews=result.retention.recent.attempts))
    figures = (tr("history.column_attempts", lang), tr("history.column_recent_mean", lang), tr("history.column_mean", lang))

    def tallies(window: Window) -> tuple[str, str, str]:
        return str(window.all_time.attempts), _mean(window.recent.mean_score), _mean(window.all_time.mean_score)

    order = list(bank.claims.topics)  # as claims.yaml lists them, like the statistics screen
    topics = sorted(result.topics.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order))
    print()
    print_columns([(tr("history.stats_topics", lang), *figures), *((topic_name(bank, name, lang), *tallies(w)) for name, w in topics)])
    # A claim's text comes last and whole: cutting it could change what it claims.
    print()
    header = (tr("history.stats_claims", lang), *figures, "")
    print_columns([header, *((name, *tallies(w), claim_text(bank, name, lang)) for name, w in result.claims.items())])
    if result.misconceptions:
        print()
        rows = ((mistake_name(bank, name, lang), str(n)) for name, n in result.misconceptions.items())
        print_columns([(tr("history.stats_misconceptions", lang), ""), *rows])
    print()
    print(tr("history.stats_forecast", lang))
    print("  ".join(f"{day:%m-%d} {count}" for day, count in result.forecast))
