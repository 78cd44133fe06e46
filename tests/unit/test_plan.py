"""The interview-date plan: on the bundled bank and on a learner's real history file, every claim is
reached before the date, every day stays within its minutes, a missed day plans again within them,
and a plan for tomorrow crams the weakest first."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest
from fsrs import Rating

from history_records import START_MS, attempt, open_store
from quiz.bank import load_bank
from quiz.history.records import to_ms
from quiz.history.scheduling import Review, ReviewScheduler, at_datetime
from quiz.learning.plan import (
    MOCK_MINUTES,
    TARGET_RETENTION,
    Learner,
    PlanDay,
    PlanError,
    PlanQuestion,
    day_kinds,
    make_plan,
    questions_for_plan,
)
from quiz.learning.plan_store import (
    PlanSettings,
    clear_plan_settings,
    learner_from_history,
    load_plan_settings,
    parse_date,
    save_plan_settings,
    stored_plan,
)

TODAY = at_datetime(START_MS).date()


@pytest.fixture(scope="module")
def bank_questions() -> list[PlanQuestion]:
    return questions_for_plan(load_bank().questions.values())


def claims_of(questions: list[PlanQuestion]) -> set[str]:
    return {c for q in questions for c in q.claims}


def planned(plan, kinds=("new", "review")) -> list[str]:
    return [item.question for day in plan.days for item in day.items if item.kind in kinds]


def test_every_claim_and_topic_is_reached_before_the_date_within_the_minutes(bank_questions):
    plan = make_plan(bank_questions, Learner(), TODAY, TODAY + timedelta(days=14), 30)
    by_id = {q.id: q for q in bank_questions}
    studied = set(planned(plan))
    assert claims_of([by_id[q] for q in studied]) == claims_of(bank_questions)
    assert {by_id[q].topic for q in studied} == {q.topic for q in bank_questions}
    assert plan.unreached == ()
    assert [d.day for d in plan.days] == [TODAY + timedelta(days=n) for n in range(14)]
    assert all(day.seconds <= 30 * 60 for day in plan.days)
    # the last days: reviews only, then the mock interview the day before
    assert [d.kind for d in plan.days[-3:]] == ["review", "review", "mock"]
    assert [i.kind for i in plan.days[-1].items] == ["mock"] and plan.days[-1].seconds == MOCK_MINUTES * 60
    assert all(i.kind == "review" for d in plan.days if d.kind == "review" for i in d.items)
    # a new question is new once; after that it is reviewed
    news = planned(plan, ("new",))
    assert len(news) == len(set(news))


def test_the_plan_is_deterministic(bank_questions):
    first = make_plan(bank_questions, Learner(), TODAY, TODAY + timedelta(days=20), 25)
    assert first == make_plan(bank_questions, Learner(), TODAY, TODAY + timedelta(days=20), 25)


def test_what_each_day_is_for():
    assert day_kinds(1) == ["cram"]
    assert day_kinds(2) == ["learn", "review"]
    assert day_kinds(5) == ["learn"] * 4 + ["mock"]
    assert day_kinds(6) == ["learn"] * 4 + ["review", "mock"]
    assert day_kinds(40) == ["learn"] * 36 + ["review"] * 3 + ["mock"]


def record_day(history, plan_day, score=1.0):
    """The learner does what `plan_day` says, at noon of that day, every answer scoring `score`."""
    at = to_ms(datetime.combine(plan_day.day, time(12)).astimezone())
    for n, item in enumerate(i for i in plan_day.items if i.kind != "mock"):
        history.record(attempt(item.question, at + n * 60_000, score=score, verdict="correct" if score >= 0.5 else "incorrect"))


def morning(day: date) -> datetime:
    return datetime.combine(day, time(9)).astimezone()


def test_what_was_done_today_is_taken_from_todays_minutes(tmp_path, bank_questions):
    with open_store(tmp_path / "history.sqlite3") as history:
        save_plan_settings(history, PlanSettings(TODAY + timedelta(days=10), 20), TODAY)
        first = stored_plan(history, bank_questions, morning(TODAY))
        assert first is not None
        done = first.days[0].items[:2]
        record_day(history, PlanDay(TODAY, "learn", done))
        evening = datetime.combine(TODAY, time(18)).astimezone()
        later = stored_plan(history, bank_questions, evening)
    assert later is not None and later.days[0].day == TODAY
    assert later.days[0].seconds <= 20 * 60 - sum(item.seconds for item in done)
    assert {item.question for item in done}.isdisjoint(item.question for item in later.days[0].items)


def test_a_missed_day_plans_again_within_the_daily_minutes(tmp_path, bank_questions):
    interview = TODAY + timedelta(days=10)
    with open_store(tmp_path / "history.sqlite3") as history:
        save_plan_settings(history, PlanSettings(interview, 20), TODAY)
        first = stored_plan(history, bank_questions, morning(TODAY))
        assert first is not None
        record_day(history, first.days[0])  # day one done, day two missed
        again = stored_plan(history, bank_questions, morning(TODAY + timedelta(days=2)))
    assert again is not None and again.days[0].day == TODAY + timedelta(days=2) and again.interview == interview
    assert all(day.seconds <= 20 * 60 for day in again.days)
    assert again.unreached == ()
    # what day one put in the history is reviewed, not new again
    assert {i.question for d in again.days for i in d.items if i.kind == "new"}.isdisjoint(planned(first)[: len(first.days[0].items)])
    # the missed day's new questions are spread over the days left, not piled on the next one
    assert again.days[0].seconds <= 20 * 60 and len(again.days) == 8


def test_a_plan_for_tomorrow_crams_the_weakest_first(tmp_path, bank_questions):
    ids = [q.id for q in bank_questions]
    weak, shaky, strong = ids[0], ids[1], ids[2]
    with open_store(tmp_path / "history.sqlite3") as history:
        start = to_ms(datetime.combine(TODAY - timedelta(days=20), time(12)).astimezone())
        for n in range(3):
            history.record(attempt(strong, start + n * 5 * 86_400_000))
        history.record(attempt(shaky, start))
        history.record(attempt(weak, start, score=0.0, verdict="incorrect", misconception="no_scaling"))
        plan = make_plan(
            bank_questions,
            learner_from_history(history, bank_questions),
            TODAY,
            TODAY + timedelta(days=1),
            10,
            history.scheduler,
        )
    [day] = plan.days
    assert day.kind == "cram" and day.seconds <= 10 * 60
    order = [i.question for i in day.items]
    assert order[:2] == [weak, shaky]  # the one with a misconception, then the least recalled
    assert "mock" not in {i.kind for i in day.items}
    # after the weak ones, questions reaching claims never practised
    assert {i.kind for i in day.items[2:]} == {"new"}


def test_weak_questions_come_back_more_often(tmp_path):
    questions = [PlanQuestion("weak", "t", ("A1",), 60), PlanQuestion("strong", "t", ("A2",), 60)]
    with open_store(tmp_path / "history.sqlite3") as history:
        at = to_ms(datetime.combine(TODAY - timedelta(days=1), time(12)).astimezone())
        history.record(attempt("weak", at - 60_000, score=0.0, verdict="incorrect", misconception="no_scaling"))
        history.record(attempt("weak", at))
        history.record(attempt("strong", at))
        plan = make_plan(questions, learner_from_history(history, questions), TODAY, TODAY + timedelta(days=30), 10)
    reviews = planned(plan, ("review",))
    assert reviews.count("weak") > reviews.count("strong") >= 1


def test_expected_retention_is_the_schedulers_recall_on_the_day():
    """One question studied once today, never again (the plan is one day): its topic's expected
    retention is FSRS's recall of that card on the interview day; a topic never studied is 0."""
    questions = [PlanQuestion("a", "one", ("A1",), 60), PlanQuestion("b", "two", ("B1",), 3600)]
    plan = make_plan(questions, Learner(), TODAY, TODAY + timedelta(days=1), 10)
    scheduler = ReviewScheduler()
    at = datetime.combine(TODAY, time(12), tzinfo=UTC)  # the plan puts each day's study at noon UTC
    card = scheduler.review(scheduler.new_card("a", to_ms(at)), Review(to_ms(at), Rating.Good), 0)
    assert plan.retention["two"] == 0.0 and plan.unreached == ("B1",)
    assert plan.retention["one"] == pytest.approx(scheduler.retrievability(card, at + timedelta(days=1)), abs=1e-4)
    assert plan.retention["one"] > TARGET_RETENTION


@pytest.mark.parametrize(
    ("interview", "minutes", "key"),
    [
        (TODAY - timedelta(days=1), 30, "past"),
        (TODAY, 30, "today"),
        (TODAY + timedelta(days=400), 30, "too_far"),
        (TODAY + timedelta(days=5), 2, "bad_minutes"),
        (TODAY + timedelta(days=5), 1000, "bad_minutes"),
    ],
)
def test_dates_and_minutes_it_cannot_use_are_refused(interview, minutes, key):
    with pytest.raises(PlanError) as caught:
        make_plan([], Learner(), TODAY, interview, minutes)
    assert caught.value.key == key


@pytest.mark.parametrize("text", ["2026-13-01", "next friday", "", "2026/12/20"])
def test_a_malformed_date_is_refused(text):
    with pytest.raises(PlanError) as caught:
        parse_date(text)
    assert caught.value.key == "bad_date"


def test_the_settings_are_kept_in_the_history_file(tmp_path):
    path = tmp_path / "history.sqlite3"
    with open_store(path) as history:
        assert load_plan_settings(history) is None
        version = history.read("PRAGMA user_version")
        save_plan_settings(history, PlanSettings(date(2025, 7, 1), 45), TODAY)
    with open_store(path) as history:
        assert load_plan_settings(history) == PlanSettings(date(2025, 7, 1), 45)
        assert history.read("PRAGMA user_version") == version  # no schema change
        clear_plan_settings(history)
        assert load_plan_settings(history) is None
        with pytest.raises(PlanError):
            save_plan_settings(history, PlanSettings(TODAY, 45), TODAY)
        assert load_plan_settings(history) is None
