"""`quiz plan`: set the interview date and the minutes a day, and print the day-by-day plan with the
expected recall per topic on the interview day.

Exit codes: 0 printed (or cleared), 1 no plan is set or its interview has passed, 2 usage error or
a date or minutes the plan cannot use, 4 the history file cannot be used (the reason is printed).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from quiz.cli.history_access import add_lang_argument

if TYPE_CHECKING:  # the plan loads lazily, off `quiz --help`'s path
    from quiz.format.claims import Claims
    from quiz.learning.plan import Plan

CHART_WIDTH = 20


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], parents: list[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "plan",
        parents=parents,
        help="a day-by-day study plan up to your interview date",
        description=(
            "Set your interview date (kept in your history file) and print the plan to it: every claim "
            "reached before the date within your minutes a day, the weak questions more often, the last "
            "days for review and a mock interview. Exit 1 when no plan is set, 2 for a date it cannot use, "
            "4 when the history file cannot be used."
        ),
    )
    parser.add_argument("--interview", metavar="DATE", help="your interview date, YYYY-MM-DD (kept until --clear)")
    parser.add_argument("--minutes-per-day", type=int, metavar="N", help="minutes you can study a day (default 30, kept)")
    parser.add_argument("--clear", action="store_true", help="forget the plan")
    parser.add_argument("--json", action="store_true", help="print a JSON object (every day's questions too)")
    add_lang_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Change the stored settings as asked, then print the plan from today."""
    from quiz.cli.arguments import CommandError
    from quiz.cli.common import load
    from quiz.cli.history_access import history_or_fail
    from quiz.history.records import local_now
    from quiz.learning.plan import DEFAULT_MINUTES_PER_DAY, PlanError, questions_for_plan
    from quiz.learning.plan_store import (
        PlanSettings,
        clear_plan_settings,
        load_plan_settings,
        parse_date,
        save_plan_settings,
        stored_plan,
    )
    from quiz.locale.i18n import tr

    lang = args.lang
    if args.clear and (args.interview or args.minutes_per_day is not None):
        raise CommandError(tr("plan.clear_alone", lang), 2)
    now = local_now()
    today = now.date()
    bank = load(args)
    with history_or_fail(lang) as history:
        if args.clear:
            clear_plan_settings(history)
            print(tr("plan.cleared", lang))
            return 0
        stored = load_plan_settings(history)
        try:
            if args.interview is not None or args.minutes_per_day is not None:
                if args.interview is not None:
                    interview = parse_date(args.interview)
                elif stored is not None:
                    interview = stored.interview  # only the minutes change
                else:
                    raise CommandError(tr("plan.none", lang))
                minutes = args.minutes_per_day
                if minutes is None:
                    minutes = stored.minutes_per_day if stored else DEFAULT_MINUTES_PER_DAY
                save_plan_settings(history, PlanSettings(interview, minutes), today)
                stored = PlanSettings(interview, minutes)
        except PlanError as exc:
            raise CommandError(tr(f"plan.{exc.key}", lang, **exc.params), 2) from None
        if stored is None:
            raise CommandError(tr("plan.none", lang))
        plan = stored_plan(history, questions_for_plan(bank.questions.values()), now)
    if plan is None:
        raise CommandError(tr("plan.over", lang, interview=stored.interview.isoformat()))
    if args.json:
        print(json.dumps(plan.to_json(), ensure_ascii=False, indent=2))
    else:
        print_plan(plan, bank.claims, lang)
    return 0


def print_plan(plan: Plan, claims: Claims, lang: str) -> None:
    """The plan as a day-by-day table, then a bar chart of the expected recall per topic."""
    from quiz.cli.columns import display_width, print_columns
    from quiz.locale.i18n import tr

    print(tr("plan.heading", lang, interview=plan.interview.isoformat(), days=plan.days_left, minutes=plan.minutes_per_day))
    print()
    header = tuple(tr(f"plan.column_{name}", lang) for name in ("date", "kind", "new", "reviews", "minutes"))
    rows = [
        (day.day.isoformat(), tr(f"plan.kind_{day.kind}", lang), str(day.count("new")), str(day.count("review")), f"{day.seconds / 60:.0f}")
        for day in plan.days
    ]
    print_columns([header, *rows])
    print()
    print(tr("plan.retention_heading", lang))
    labels = {topic: claims.topics[topic].label(lang) if topic in claims.topics else topic for topic in plan.retention}
    width = max((display_width(label) for label in labels.values()), default=0)
    for topic, recall in plan.retention.items():
        filled = round(recall * CHART_WIDTH)
        label = labels[topic]
        print(f"  {label}{' ' * (width - display_width(label))}  {'█' * filled}{'░' * (CHART_WIDTH - filled)}  {recall:4.0%}")
    if plan.unreached:
        print()
        print(tr("plan.unreached", lang, claims=", ".join(plan.unreached)))
