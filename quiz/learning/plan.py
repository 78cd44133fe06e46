"""A day-by-day study plan up to an interview date, from the bank and the learner's review cards.

Every day stays within the learner's minutes (each question costs its suggested time). Learning
days first introduce enough of the questions that reach the claims nobody has practised yet to
have every claim reached before the last learning day, then the reviews FSRS says are due (the
weak questions, with a misconception or a low recall, are rated Hard in the simulation, so they
come back sooner, and they go first), then more new questions while minutes remain. The last
days before the interview are review only, and the day before it holds one full mock interview.
A plan for tomorrow is a cram plan: the weakest first, then the claims never practised.

Planning is a forward simulation with the history's own FSRS scheduler: each planned review is
assumed to pass, so the recall it predicts for the interview day is what following the plan
gives. The plan depends only on its inputs (no clock, no randomness): a missed day simply plans
again from the new today, with each day still within the minutes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from math import ceil
from typing import Any, Final, Literal

from fsrs import Card, Rating

from quiz.history.records import to_ms
from quiz.history.scheduling import Review, ReviewScheduler
from quiz.mock.options import DEFAULT_MINUTES as DEFAULT_MOCK_MINUTES

DEFAULT_MINUTES_PER_DAY: Final = 30
MIN_MINUTES_PER_DAY: Final = 5
MAX_MINUTES_PER_DAY: Final = 480
MAX_DAYS: Final = 366
"""How far ahead an interview may be (a plan is a day-by-day list: a year of it is plenty)."""
MOCK_MINUTES: Final = round(DEFAULT_MOCK_MINUTES)
"""A full mock interview's length (`quiz mock`'s default), shortened to the day's minutes."""
TARGET_RETENTION: Final = 0.90
"""A card is due for review once its predicted recall falls below this..."""
WEAK_TARGET_RETENTION: Final = 0.95
"""...and a weak card's once below this, so weak ones come back more often."""
WEAK_RECALL: Final = 0.80
"""A question recalled with a probability below this today is weak."""
MAX_REVIEW_DAYS: Final = 3
RECENT_DAYS: Final = 30
"""Misconceptions made within this many days make a question weak (one long left behind does not)."""
_DAY_TIME: Final = time(12, tzinfo=UTC)  # every planned session is put at noon of its day

DayKind = Literal["learn", "review", "mock", "cram"]
ItemKind = Literal["new", "review", "mock"]


class PlanError(ValueError):
    """The interview date or the minutes cannot make a plan; `key` names the catalogue message."""

    def __init__(self, key: str, /, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True)
class PlanQuestion:
    """What planning needs of a question: its topic, the claims it cites and its suggested time."""

    id: str
    topic: str
    claims: tuple[str, ...]
    seconds: int


@dataclass(frozen=True)
class Learner:
    """What the history says of the learner: each reviewed question's FSRS card and review count,
    and how many misconceptions were made on each question lately (RECENT_DAYS)."""

    cards: Mapping[str, tuple[Card, int]] = field(default_factory=dict)
    misconceptions: Mapping[str, int] = field(default_factory=dict)
    seconds_today: int = 0
    """What the learner has studied today already (the suggested times of today's attempts),
    taken from today's minutes."""


@dataclass(frozen=True)
class PlanItem:
    """One thing to do on a day: a new question, a review, or the mock interview (`question` "")."""

    kind: ItemKind
    question: str
    seconds: int
    topic: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "question": self.question or None, "seconds": self.seconds, "topic": self.topic or None}


@dataclass(frozen=True)
class PlanDay:
    """One day of the plan and what it holds, in the order to do it."""

    day: date
    kind: DayKind
    items: tuple[PlanItem, ...]

    @property
    def seconds(self) -> int:
        return sum(item.seconds for item in self.items)

    def count(self, kind: ItemKind) -> int:
        return sum(item.kind == kind for item in self.items)

    def to_json(self) -> dict[str, Any]:
        return {
            "date": self.day.isoformat(),
            "kind": self.kind,
            "minutes": round(self.seconds / 60, 1),
            "new": self.count("new"),
            "reviews": self.count("review"),
            "items": [item.to_json() for item in self.items],
        }


@dataclass(frozen=True)
class Plan:
    """The plan from `today` to the day before `interview`, and what it leads to on the day."""

    today: date
    interview: date
    minutes_per_day: int
    days: tuple[PlanDay, ...]
    retention: dict[str, float]
    """Each topic's expected recall on the interview day: the mean over its questions of FSRS's
    predicted recall, a question never studied counting 0."""
    unreached: tuple[str, ...]
    """Claims no studied or planned question reaches (their questions do not fit the minutes)."""

    @property
    def days_left(self) -> int:
        return (self.interview - self.today).days

    def to_json(self) -> dict[str, Any]:
        return {
            "today": self.today.isoformat(),
            "interview": self.interview.isoformat(),
            "days_left": self.days_left,
            "minutes_per_day": self.minutes_per_day,
            "retention": self.retention,
            "unreached_claims": list(self.unreached),
            "days": [day.to_json() for day in self.days],
        }


def check_settings(today: date, interview: date, minutes_per_day: int) -> None:
    """PlanError unless the interview is after today, at most a year ahead, and the minutes sensible."""
    if interview <= today:
        raise PlanError("past" if interview < today else "today", interview=interview.isoformat(), today=today.isoformat())
    if (interview - today).days > MAX_DAYS:
        raise PlanError("too_far", interview=interview.isoformat(), days=MAX_DAYS)
    if not MIN_MINUTES_PER_DAY <= minutes_per_day <= MAX_MINUTES_PER_DAY:
        raise PlanError("bad_minutes", minutes=minutes_per_day, low=MIN_MINUTES_PER_DAY, high=MAX_MINUTES_PER_DAY)


def day_kinds(days: int) -> list[DayKind]:
    """What each of `days` days before the interview is for: learning, then up to three review
    days (one per five learning days), then the mock interview the day before; one day is cram."""
    if days == 1:
        return ["cram"]
    if days == 2:
        return ["learn", "review"]
    review = min(MAX_REVIEW_DAYS, (days - 1) // 5)
    learn: list[DayKind] = ["learn"] * (days - 1 - review)
    last: list[DayKind] = ["review"] * review
    return [*learn, *last, "mock"]


def make_plan(
    questions: Sequence[PlanQuestion],
    learner: Learner,
    today: date,
    interview: date,
    minutes_per_day: int = DEFAULT_MINUTES_PER_DAY,
    scheduler: ReviewScheduler | None = None,
) -> Plan:
    """The plan from `today` to the day before `interview`; PlanError for dates or minutes it cannot use."""
    check_settings(today, interview, minutes_per_day)
    return _Planner(questions, learner, today, interview, minutes_per_day, scheduler or ReviewScheduler()).run()


def study_time(day: date) -> datetime:
    """When a planned day's study is put: noon UTC of that day."""
    return datetime.combine(day, _DAY_TIME)


class _Planner:
    """The simulation behind `make_plan`: the cards as they would be after each planned day."""

    def __init__(
        self,
        questions: Sequence[PlanQuestion],
        learner: Learner,
        today: date,
        interview: date,
        minutes: int,
        scheduler: ReviewScheduler,
    ) -> None:
        self.questions = {q.id: q for q in sorted(questions, key=lambda q: q.id)}
        self.today, self.interview, self.capacity = today, interview, minutes * 60
        self.spent_today = learner.seconds_today
        self.minutes = minutes
        self.scheduler = scheduler
        self.cards: dict[str, tuple[Card, int]] = {q: c for q, c in learner.cards.items() if q in self.questions}
        now = study_time(today)
        self.weak = {
            q
            for q in self.questions
            if learner.misconceptions.get(q, 0) > 0 or (q in self.cards and self._recall(q, now) < WEAK_RECALL)
        }
        self.reached = {claim for q in self.cards for claim in self.questions[q].claims}
        self.cover = self._cover_order()

    def run(self) -> Plan:
        kinds = day_kinds((self.interview - self.today).days)
        learning_days = sum(kind == "learn" for kind in kinds)
        days = []
        for offset, kind in enumerate(kinds):
            day = self.today + timedelta(days=offset)
            if kind == "mock":
                items: list[PlanItem] = [PlanItem("mock", "", min(MOCK_MINUTES, self.minutes) * 60)]
            elif kind == "cram":
                items = self._cram(day)
            elif kind == "review":
                items = self._review_day(day)
            else:
                items = self._learning_day(day, learning_days)
                learning_days -= 1
            days.append(PlanDay(day, kind, tuple(items)))
        unreached = sorted({c for q in self.questions.values() for c in q.claims} - self.reached)
        return Plan(self.today, self.interview, self.minutes, tuple(days), self._retention(), tuple(unreached))

    # --- the days ------------------------------------------------------------------------

    def _learning_day(self, day: date, learning_days_left: int) -> list[PlanItem]:
        """This day's share of the claim-reaching questions, then the due reviews, then new ones."""
        day_plan = self._day(day)
        quota = ceil(sum(self.questions[q].seconds for q in self.cover) / learning_days_left)
        while self.cover and day_plan.used < quota and self._study(day_plan, self.cover[0], day):
            self.cover.pop(0)
        for question in self._due(day):
            self._study(day_plan, question, day)
        for question in [*self.cover, *self._others(day)]:
            if self._study(day_plan, question, day) and question in self.cover:
                self.cover.remove(question)
        return day_plan.items

    def _review_day(self, day: date) -> list[PlanItem]:
        """Reviews only: what is due, then what would be recalled least on the interview day."""
        day_plan = self._day(day)
        for question in [*self._due(day), *self._weakest_on(self.interview)]:
            if question not in day_plan.done:
                self._study(day_plan, question, day)
        return day_plan.items

    def _cram(self, day: date) -> list[PlanItem]:
        """The one day there is: the weak questions, then the claims never practised, then the rest
        of what is recalled least tomorrow."""
        day_plan = self._day(day)
        weak = sorted(self.weak & self.cards.keys(), key=lambda q: (self._recall(q, study_time(day)), q))
        for question in [*weak, *self.cover, *self._weakest_on(self.interview)]:
            if question not in day_plan.done:
                self._study(day_plan, question, day)
        return day_plan.items

    def _day(self, day: date) -> _Day:
        """An empty day, with today's minutes less what was studied today already."""
        return _Day(max(0, self.capacity - self.spent_today) if day == self.today else self.capacity)

    # --- choosing ------------------------------------------------------------------------

    def _cover_order(self) -> list[str]:
        """Questions never studied that reach the claims not reached yet, greedily: each next one
        reaches the most claims still missing per minute (ties: the shorter, then by id); a question
        longer than a day's minutes is never planned."""
        missing = {c for q in self.questions.values() for c in q.claims} - self.reached
        order: list[str] = []
        candidates = [q for q in self.questions.values() if q.id not in self.cards and q.claims and q.seconds <= self.capacity]
        while missing:
            best = min(candidates, key=lambda q: (-len(missing & set(q.claims)) / q.seconds, q.seconds, q.id), default=None)
            if best is None or not missing & set(best.claims):
                break
            order.append(best.id)
            missing -= set(best.claims)
            candidates.remove(best)
        return order

    def _others(self, day: date) -> list[str]:
        """The questions never studied nor covering anything missing: weak topics first, then by id."""
        recall = self._topic_recall(study_time(day))
        rest = [q for q in self.questions.values() if q.id not in self.cards and q.id not in self.cover]
        return [q.id for q in sorted(rest, key=lambda q: (recall.get(q.topic, 0.0), q.id))]

    def _due(self, day: date) -> list[str]:
        """The studied questions due on `day`: the weak first, then the least recalled."""
        at = study_time(day)
        due = [q for q in self.cards if self._recall(q, at) < (WEAK_TARGET_RETENTION if q in self.weak else TARGET_RETENTION)]
        return sorted(due, key=lambda q: (q not in self.weak, self._recall(q, at), q))

    def _weakest_on(self, day: date) -> list[str]:
        at = study_time(day)
        return sorted(self.cards, key=lambda q: (self._recall(q, at), q))

    # --- the simulation ------------------------------------------------------------------

    def _study(self, day_plan: _Day, question: str, day: date) -> bool:
        """Put `question` on `day` when it fits and is not there yet, and review its card as passed."""
        info = self.questions[question]
        if question in day_plan.done or day_plan.used + info.seconds > day_plan.capacity:
            return False
        kind: ItemKind = "review" if question in self.cards else "new"
        day_plan.add(PlanItem(kind, question, info.seconds, info.topic))
        at_ms = to_ms(study_time(day))
        rating = Rating.Hard if question in self.weak else Rating.Good
        card, reviews = self.cards.get(question) or (self.scheduler.new_card(question, at_ms), 0)
        self.cards[question] = (self.scheduler.review(card, Review(at_ms, rating), reviews), reviews + 1)
        self.reached.update(info.claims)
        return True

    def _recall(self, question: str, at: datetime) -> float:
        entry = self.cards.get(question)
        return 0.0 if entry is None else self.scheduler.retrievability(entry[0], at)

    def _topic_recall(self, at: datetime) -> dict[str, float]:
        by_topic: dict[str, list[float]] = {}
        for question in self.questions.values():
            by_topic.setdefault(question.topic, []).append(self._recall(question.id, at))
        return {topic: sum(values) / len(values) for topic, values in sorted(by_topic.items())}

    def _retention(self) -> dict[str, float]:
        return {topic: round(value, 4) for topic, value in self._topic_recall(study_time(self.interview)).items()}


class _Day:
    """The items put on one day so far, and the seconds they take."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.used = 0
        self.items: list[PlanItem] = []
        self.done: set[str] = set()

    def add(self, item: PlanItem) -> None:
        self.items.append(item)
        self.done.add(item.question)
        self.used += item.seconds


def questions_for_plan(questions: Iterable[Any]) -> list[PlanQuestion]:
    """The planning view of bank questions (anything with id, topic, refs and time)."""
    return [PlanQuestion(q.id, q.topic, tuple(q.refs), int(q.time)) for q in questions]
