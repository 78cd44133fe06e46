"""Statistics of the learner's history, for the statistics screen, the status line and `quiz stats`.

Computed in SQL over the attempts and cards; an attempt counts under the topic and claims recorded
with it, and one recorded before the history kept them (schema v4 and older) under those of the
catalogue the caller gives (question id → topic and claims, from the bank), with the clock. Days
are the learner's local days: `now`'s UTC offset sets where a day begins. A question not reached
in a mock interview counts nowhere here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any, Final

from quiz.history.attempts import read_claims
from quiz.history.cards import REVIEWED
from quiz.history.naming import merged_mistakes, natural_key
from quiz.history.records import local_now, to_ms
from quiz.history.scheduling import PASS_MARK
from quiz.history.store import History

if TYPE_CHECKING:  # types only: the history core loads without the question format
    from quiz.format.model import QuestionBase

DAY_MS: Final = 86_400_000
RECENT_DAYS: Final = 30
CALENDAR_WEEKS: Final = 26
TREND_DAYS: Final = 30
FORECAST_DAYS: Final = 14
_EPOCH_DAY: Final = date(1970, 1, 1)


@dataclass(frozen=True)
class QuestionInfo:
    """What the statistics need to know of a question from the bank."""

    topic: str
    claims: tuple[str, ...] = ()


def catalogue(questions: Iterable[QuestionBase]) -> dict[str, QuestionInfo]:
    """Each question's topic and claims, by id, as the statistics group them."""
    return {q.id: QuestionInfo(q.topic, tuple(q.refs)) for q in questions}


@dataclass(frozen=True)
class Tally:
    """Attempts, the sum of their scores, and how many passed."""

    attempts: int = 0
    score_sum: float = 0.0
    passed: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.attempts + other.attempts, self.score_sum + other.score_sum, self.passed + other.passed)

    @property
    def mean_score(self) -> float | None:
        return self.score_sum / self.attempts if self.attempts else None

    @property
    def pass_rate(self) -> float | None:
        return self.passed / self.attempts if self.attempts else None

    def to_json(self) -> dict[str, Any]:
        return {"attempts": self.attempts, "mean_score": self.mean_score, "passed": self.passed, "pass_rate": self.pass_rate}


@dataclass(frozen=True)
class Window:
    """A tally over the last 30 days and over all time."""

    recent: Tally = field(default_factory=Tally)
    all_time: Tally = field(default_factory=Tally)

    def __add__(self, other: Window) -> Window:
        return Window(self.recent + other.recent, self.all_time + other.all_time)

    def to_json(self) -> dict[str, Any]:
        return {**self.all_time.to_json(), "last_30_days": self.recent.to_json()}


@dataclass(frozen=True)
class Statistics:
    """Everything the statistics screen shows."""

    now: datetime
    topics: dict[str, Window]
    claims: dict[str, Window]
    misconceptions: dict[str, int]
    """Misconception name → times hit, most often first; a mistake under two names counts once (`SAME_MISTAKE`)."""
    calendar: tuple[tuple[date, int], ...]
    """Attempts per day for the last 26 weeks, from a Monday to today."""
    trend: tuple[tuple[date, float], ...]
    """Mean score of each day with attempts in the last 30 days."""
    forecast: tuple[tuple[date, int], ...]
    """Cards due on each of the next 14 days (today includes the overdue ones)."""
    retention: Window
    """True retention: the first review of a card on a day, passed or failed (Again)."""
    streak_days: int
    due_now: int
    today: Tally

    def to_json(self) -> dict[str, Any]:
        return {
            "now": self.now.isoformat(),
            "topics": {name: w.to_json() for name, w in self.topics.items()},
            "claims": {name: w.to_json() for name, w in self.claims.items()},
            "misconceptions": dict(self.misconceptions),
            "calendar": [{"date": d.isoformat(), "attempts": n} for d, n in self.calendar],
            "trend": [{"date": d.isoformat(), "mean_score": s} for d, s in self.trend],
            "forecast": [{"date": d.isoformat(), "due": n} for d, n in self.forecast],
            "retention": self.retention.to_json(),
            "streak_days": self.streak_days,
            "due_now": self.due_now,
            "today": self.today.to_json(),
        }


@dataclass(frozen=True)
class _Clock:
    """`now` as the query parameters: milliseconds, the local UTC offset, and day numbers."""

    now: datetime

    @property
    def now_ms(self) -> int:
        return to_ms(self.now)

    @property
    def offset_ms(self) -> int:
        offset = self.now.utcoffset()
        return 0 if offset is None else offset // timedelta(milliseconds=1)

    @property
    def today(self) -> int:
        return (self.now_ms + self.offset_ms) // DAY_MS

    def day_start_ms(self, day: int) -> int:
        return day * DAY_MS - self.offset_ms

    @staticmethod
    def date(day: int) -> date:
        return _EPOCH_DAY + timedelta(days=day)


def statistics(history: History, catalogue: Mapping[str, QuestionInfo], now: datetime | None = None) -> Statistics:
    """All statistics at `now` (default: the current local time)."""
    clock = _Clock(now or local_now())
    topics, claims = _by_topic_and_claim(history, catalogue, clock)
    calendar, trend = _calendar_and_trend(history, clock)
    return Statistics(
        now=clock.now,
        topics=topics,
        claims=claims,
        misconceptions=misconceptions(history, clock.now),
        calendar=calendar,
        trend=trend,
        forecast=forecast(history, clock.now),
        retention=retention(history, clock.now),
        streak_days=streak_days(history, clock.now),
        due_now=due_now(history, clock.now),
        today=today(history, clock.now),
    )


def today(history: History, now: datetime | None = None) -> Tally:
    """Today's attempts and their scores (the status line's "Answered N · mean")."""
    clock = _Clock(now or local_now())
    [(count, total, passed)] = history.read(
        f"SELECT count(*), total(score), total(score >= :pass) FROM attempts WHERE at_ms >= :start AND at_ms <= :now AND {REVIEWED}",
        {"pass": PASS_MARK, "start": clock.day_start_ms(clock.today), "now": clock.now_ms},
    )
    return Tally(count, total, int(passed))


def due_now(history: History, now: datetime | None = None) -> int:
    """How many cards are due at `now` (home's "Review due" count)."""
    [(count,)] = history.read("SELECT count(*) FROM cards WHERE due_ms <= ?", (to_ms(now or local_now()),))
    return int(count)


def misconceptions(history: History, now: datetime | None = None) -> dict[str, int]:
    """Misconception name → times hit, most often first; a mistake under two names counts once (`SAME_MISTAKE`)."""
    rows = history.read(
        """SELECT misconception, count(*) AS hits FROM attempts WHERE misconception IS NOT NULL AND at_ms <= ?
           GROUP BY misconception ORDER BY hits DESC, misconception""",
        (to_ms(now or local_now()),),
    )
    return merged_mistakes(dict(rows))


def forecast(history: History, now: datetime | None = None) -> tuple[tuple[date, int], ...]:
    """Cards due on each of the next 14 local days; today's count includes the overdue cards."""
    clock = _Clock(now or local_now())
    rows = history.read(
        "SELECT max((due_ms + :offset) / :day, :today) AS d, count(*) FROM cards WHERE due_ms < :horizon GROUP BY d",
        {"offset": clock.offset_ms, "day": DAY_MS, "today": clock.today, "horizon": clock.day_start_ms(clock.today + FORECAST_DAYS)},
    )
    due = dict(rows)
    return tuple((clock.date(d), due.get(d, 0)) for d in range(clock.today, clock.today + FORECAST_DAYS))


def retention(history: History, now: datetime | None = None) -> Window:
    """True retention: of each card's first review on a day (after the day it was first seen),
    the share that passed; Again is a failure."""
    clock = _Clock(now or local_now())
    [(count, total, passed, recent_count, recent_total, recent_passed)] = history.read(
        f"""WITH RECURSIVE questions (question) AS (
                -- each question id once, one index seek apiece rather than a pass over the attempts
                SELECT min(question) FROM attempts
                UNION ALL
                SELECT (SELECT min(question) FROM attempts WHERE question > questions.question) FROM questions WHERE question IS NOT NULL
            ),
            tallies (tally) AS MATERIALIZED (
                -- A question's attempts grouped by day keep each day's first (min picks the row that
                -- score comes from); skipping the first day leaves the reviews after it was learnt.
                -- Sorting each question's few days is cheaper than a window over all the attempts.
                SELECT (SELECT json_array(count(*), total(score), total(score >= :pass), total(day >= :recent),
                                          total(CASE WHEN day >= :recent THEN score END), total(day >= :recent AND score >= :pass))
                        FROM (SELECT (at_ms + :offset) / :day AS day, min(at_ms), score FROM attempts
                              WHERE question = questions.question AND {REVIEWED} AND at_ms <= :now
                              GROUP BY day ORDER BY day LIMIT -1 OFFSET 1))
                FROM questions WHERE question IS NOT NULL
            )
            SELECT {", ".join(f"total(json_extract(tally, '$[{n}]'))" for n in range(6))} FROM tallies""",
        {"recent": clock.today - RECENT_DAYS + 1, "pass": PASS_MARK, "offset": clock.offset_ms, "day": DAY_MS, "now": clock.now_ms},
    )
    return Window(Tally(int(recent_count), recent_total, int(recent_passed)), Tally(int(count), total, int(passed)))


def streak_days(history: History, now: datetime | None = None) -> int:
    """Consecutive local days with attempts, up to today (or up to yesterday while today has none)."""
    clock = _Clock(now or local_now())
    attempted = (
        "EXISTS (SELECT 1 FROM attempts WHERE at_ms >= ({day}) * :day - :offset AND at_ms < ({day} + 1) * :day - :offset"
        f" AND at_ms <= :now AND {REVIEWED})"
    )
    # One statement walking back a day at a time (an index seek each) while the day had attempts.
    [(streak,)] = history.read(
        f"""WITH RECURSIVE days (day, attempted) AS (
                SELECT :today, {attempted.format(day=":today")}
                UNION ALL
                SELECT day - 1, {attempted.format(day="day - 1")} FROM days WHERE attempted OR day = :today
            )
            SELECT total(attempted) FROM days""",
        {"today": clock.today, "day": DAY_MS, "offset": clock.offset_ms, "now": clock.now_ms},
    )
    return int(streak)


def _by_topic_and_claim(history: History, catalogue: Mapping[str, QuestionInfo], clock: _Clock) -> tuple[dict[str, Window], dict[str, Window]]:
    # All time in one pass over the placing index, three sums an attempt; the last 30 days apart,
    # from the time index (so the pass over everything does not compute six). An attempt counts
    # under the topic and claims recorded with it; one recorded before they were (NULL) under
    # those the bank gives its question now.
    tally = f"SELECT question, topic, claims, count(*), total(score), total(score >= :pass) FROM attempts WHERE {REVIEWED} AND at_ms <= :now"
    params = {"pass": PASS_MARK, "now": clock.now_ms, "start": clock.day_start_ms(clock.today - RECENT_DAYS + 1)}
    all_time = history.read(f"{tally} GROUP BY question, topic, claims", params)
    recent_rows = history.read(f"{tally} AND at_ms >= :start GROUP BY question, topic, claims", params)
    recent = {(question, topic, claims): Tally(count, total, int(passed)) for question, topic, claims, count, total, passed in recent_rows}
    topics: dict[str, Window] = {}
    by_claim: dict[str, Window] = {}
    for question, topic, claims, count, total, passed in all_time:
        recorded = read_claims(claims)
        info = QuestionInfo(topic, recorded or ()) if topic is not None else catalogue.get(question)
        if info is None:  # recorded before v5 and no longer in the bank: its topic and claims are unknown
            continue
        window = Window(recent.get((question, topic, claims), Tally()), Tally(count, total, int(passed)))
        topics[info.topic] = topics.get(info.topic, Window()) + window
        for claim in info.claims:
            by_claim[claim] = by_claim.get(claim, Window()) + window
    return dict(sorted(topics.items())), dict(sorted(by_claim.items(), key=lambda item: natural_key(item[0])))


def _calendar_and_trend(history: History, clock: _Clock) -> tuple[tuple[tuple[date, int], ...], tuple[tuple[date, float], ...]]:
    monday = clock.today - clock.date(clock.today).weekday()
    first = monday - (CALENDAR_WEEKS - 1) * 7
    rows = history.read(
        f"""SELECT (at_ms + :offset) / :day AS d, count(*), avg(score) FROM attempts
            WHERE at_ms >= :start AND at_ms <= :now AND {REVIEWED} GROUP BY d""",
        {"offset": clock.offset_ms, "day": DAY_MS, "start": clock.day_start_ms(first), "now": clock.now_ms},
    )
    daily = {d: (count, mean) for d, count, mean in rows}
    calendar = tuple((clock.date(d), daily.get(d, (0, 0.0))[0]) for d in range(first, clock.today + 1))
    trend = tuple((clock.date(d), daily[d][1]) for d in range(clock.today - TREND_DAYS + 1, clock.today + 1) if d in daily)
    return calendar, trend
