"""The plan's settings kept in the history file, and the learner's cards read from it for planning.

The interview date and the minutes per day are one JSON value in the history's settings table
(row `plan`), so they travel with the history and need no schema change.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from quiz.history.cards import REVIEWED
from quiz.history.records import to_ms
from quiz.history.store import History
from quiz.learning.plan import DEFAULT_MINUTES_PER_DAY, RECENT_DAYS, Learner, Plan, PlanError, PlanQuestion, check_settings, make_plan

PLAN_SETTING = "plan"


@dataclass(frozen=True)
class PlanSettings:
    """What the learner set: the interview date and the minutes a day they can give."""

    interview: date
    minutes_per_day: int = DEFAULT_MINUTES_PER_DAY


def parse_date(text: str) -> date:
    """An interview date as typed (YYYY-MM-DD); PlanError("bad_date") otherwise."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise PlanError("bad_date", text=text) from None


def save_plan_settings(history: History, settings: PlanSettings, today: date) -> None:
    """Check the settings against `today` (PlanError) and keep them in the history file."""
    check_settings(today, settings.interview, settings.minutes_per_day)
    value = json.dumps({"interview": settings.interview.isoformat(), "minutes_per_day": settings.minutes_per_day})
    history.save_setting(PLAN_SETTING, value)


def clear_plan_settings(history: History) -> None:
    history.save_setting(PLAN_SETTING, None)


def load_plan_settings(history: History) -> PlanSettings | None:
    """The stored plan settings, or None when none are set (or what is stored cannot be read)."""
    text = history.setting(PLAN_SETTING)
    if text is None:
        return None
    try:
        raw = json.loads(text)
        minutes = raw["minutes_per_day"]
        if not isinstance(minutes, int):
            return None
        return PlanSettings(date.fromisoformat(raw["interview"]), minutes)
    except (ValueError, KeyError, TypeError):
        return None


def learner_from_history(history: History, questions: Iterable[PlanQuestion], now: datetime | None = None) -> Learner:
    """Each question's review card and review count, the misconceptions made on it (given `now`,
    in the RECENT_DAYS before it), and the suggested seconds of the questions attempted since the
    start of `now`'s day."""
    seconds = {q.id: q.seconds for q in questions}
    cards = {}
    for question in seconds:
        state = history.card(question)
        if state is not None:
            cards[question] = (state.card, state.reviews)
    since = 0 if now is None else to_ms(now - timedelta(days=RECENT_DAYS))
    rows = history.read("SELECT question, count(*) FROM attempts WHERE misconception IS NOT NULL AND at_ms > ? GROUP BY question", (since,))
    spent = 0
    if now is not None:
        start = datetime.combine(now.date(), time(0), tzinfo=now.tzinfo)
        today = history.read(f"SELECT question FROM attempts WHERE at_ms >= ? AND at_ms <= ? AND {REVIEWED}", (to_ms(start), to_ms(now)))
        spent = sum(seconds.get(question, 0) for (question,) in today)
    return Learner(cards, dict(rows), spent)


def stored_plan(history: History, questions: list[PlanQuestion], now: datetime) -> Plan | None:
    """The plan from `now`'s day (an aware local time) with the stored settings; None when none
    are set or the interview is no longer after today (the plan is over)."""
    settings = load_plan_settings(history)
    today = now.date()
    if settings is None or settings.interview <= today:
        return None
    learner = learner_from_history(history, questions, now)
    try:
        return make_plan(questions, learner, today, settings.interview, settings.minutes_per_day, history.scheduler)
    except PlanError:
        return None
