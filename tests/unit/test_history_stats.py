"""Statistics from a real store, checked against a plain Python count over the same attempts,
with an injected clock in a time zone away from UTC (days begin at local midnight)."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from history_records import DAY_MS, START_MS, attempt, open_store
from quiz.history import stats
from quiz.history.naming import SAME_MISTAKE
from quiz.history.scheduling import PASS_MARK, at_datetime
from quiz.history.stats import QuestionInfo

TOKYO = timezone(timedelta(hours=9))
NOW = at_datetime(START_MS + 200 * DAY_MS).astimezone(TOKYO)
CATALOGUE = {
    "softmax-two": QuestionInfo("softmax", ("B1", "B4")),
    "softmax-jacobian": QuestionInfo("softmax", ("B4",)),
    "scaling-variance": QuestionInfo("scaling", ("A1",)),
    "causal-weights-3x3": QuestionInfo("masking", ("C2", "B1")),
}


def local_day(at_ms: int) -> date:
    return at_datetime(at_ms).astimezone(TOKYO).date()


def random_history(seed: int = 4):
    """Six months of practice with gaps, on the catalogue's questions and one no longer in it."""
    rng = random.Random(seed)
    records = []
    for day in range(200):
        if rng.random() < 0.35:
            continue
        for _ in range(rng.randint(1, 6)):
            question = rng.choice([*CATALOGUE, "retired-question"])
            at_ms = START_MS + day * DAY_MS + rng.randint(0, DAY_MS - 1)
            outcome = rng.choice(["right", "hint", "wrong", "reveal", "partial", "not_reached"])
            changes = {
                "right": {},
                "hint": {"score": 0.75, "hints": 1},
                "wrong": {"score": 0.0, "verdict": "incorrect", "misconception": rng.choice(["no_scaling", "no_max_shift"])},
                "reveal": {"score": 0.0, "verdict": "revealed", "revealed": True, "response": None},
                "partial": {"score": rng.choice([0.25, 0.5, 0.75]), "verdict": "partial"},
                "not_reached": {"score": 0.0, "verdict": "not_reached", "mode": "mock", "response": None},
            }[outcome]
            records.append(attempt(question, at_ms=at_ms, **changes))
    later = attempt("softmax-two", at_ms=START_MS + 201 * DAY_MS)  # after `now`: not counted yet
    return records, later


@pytest.fixture(scope="module")
def seeded(tmp_path_factory):
    records, later = random_history()
    with open_store(tmp_path_factory.mktemp("stats") / "history.sqlite3") as store:
        for record in sorted(records, key=lambda r: r.at_ms):
            store.record(record)
        store.record(later)
        yield store, [r for r in records if r.verdict != "not_reached"]


def tally(records):
    return {
        "attempts": len(records),
        "mean_score": sum(r.score for r in records) / len(records) if records else None,
        "passed": sum(r.score >= PASS_MARK for r in records),
    }


def test_topics_and_claims_match_a_plain_count(seeded):
    store, records = seeded
    result = stats.statistics(store, CATALOGUE, NOW).to_json()
    recent_start = NOW.date() - timedelta(days=29)
    by_topic, by_claim = defaultdict(list), defaultdict(list)
    for r in records:
        if r.question in CATALOGUE:
            by_topic[CATALOGUE[r.question].topic].append(r)
            for claim in CATALOGUE[r.question].claims:
                by_claim[claim].append(r)
    for got, expected in ((result["topics"], by_topic), (result["claims"], by_claim)):
        assert got.keys() == expected.keys()
        for name, group in expected.items():
            recent = [r for r in group if local_day(r.at_ms) >= recent_start]
            assert {k: got[name][k] for k in ("attempts", "passed")} == {k: tally(group)[k] for k in ("attempts", "passed")}
            assert got[name]["mean_score"] == pytest.approx(tally(group)["mean_score"])
            assert got[name]["last_30_days"]["attempts"] == len(recent)
            assert got[name]["last_30_days"]["mean_score"] == pytest.approx(tally(recent)["mean_score"])


def test_misconceptions_are_counted_most_often_first_each_under_one_name(seeded):
    store, records = seeded
    expected = Counter(SAME_MISTAKE.get(r.misconception, r.misconception) for r in records if r.misconception)
    got = stats.statistics(store, CATALOGUE, NOW).misconceptions
    assert got == dict(expected) and list(got.values()) == sorted(got.values(), reverse=True)


def test_the_calendar_covers_26_weeks_from_a_monday_in_local_days(seeded):
    store, records = seeded
    calendar = stats.statistics(store, CATALOGUE, NOW).calendar
    days = [d for d, _ in calendar]
    assert days[0].weekday() == 0 and days[-1] == NOW.date() and len(days) == 25 * 7 + NOW.weekday() + 1
    assert days == [days[0] + timedelta(days=n) for n in range(len(days))]
    per_day = Counter(local_day(r.at_ms) for r in records)
    assert dict(calendar) == {d: per_day.get(d, 0) for d in days}


def test_the_trend_is_the_mean_score_of_each_recent_day_with_attempts(seeded):
    store, records = seeded
    trend = stats.statistics(store, CATALOGUE, NOW).trend
    first = NOW.date() - timedelta(days=29)
    scores = defaultdict(list)
    for r in records:
        if local_day(r.at_ms) >= first:
            scores[local_day(r.at_ms)].append(r.score)
    assert [d for d, _ in trend] == sorted(scores)
    for d, mean in trend:
        assert mean == pytest.approx(sum(scores[d]) / len(scores[d]))


def test_true_retention_counts_each_cards_first_review_of_a_day(seeded):
    store, records = seeded
    first_seen = {}
    first_of_day = {}
    for r in sorted(records, key=lambda r: r.at_ms):
        first_seen.setdefault(r.question, local_day(r.at_ms))
        first_of_day.setdefault((r.question, local_day(r.at_ms)), r)
    reviews = [r for (q, d), r in first_of_day.items() if d > first_seen[q]]
    recent = [r for r in reviews if local_day(r.at_ms) > NOW.date() - timedelta(days=30)]
    retention = stats.statistics(store, CATALOGUE, NOW).retention
    assert (retention.all_time.attempts, retention.all_time.passed) == (len(reviews), sum(r.score >= PASS_MARK for r in reviews))
    assert (retention.recent.attempts, retention.recent.passed) == (len(recent), sum(r.score >= PASS_MARK for r in recent))
    assert retention.all_time.score_sum == pytest.approx(sum(r.score for r in reviews))
    assert retention.recent.score_sum == pytest.approx(sum(r.score for r in recent))


def test_retention_takes_the_first_attempt_of_a_day_not_the_best(tmp_path):
    now = datetime(2025, 7, 10, 20, 0, tzinfo=TOKYO)
    day_before = int((now - timedelta(days=1)).timestamp() * 1000)
    with open_store(tmp_path / "history.sqlite3") as store:
        store.record(attempt(at_ms=day_before - 3 * DAY_MS))  # learnt: not a review
        store.record(attempt(at_ms=day_before - 60_000, score=0.0, verdict="incorrect"))  # forgotten: Again
        store.record(attempt(at_ms=day_before))  # the same day again: not a first review
        store.record(attempt(at_ms=int(now.timestamp() * 1000) - 1, score=0.5, verdict="partial"))
        store.record(attempt(at_ms=day_before - 2 * DAY_MS, verdict="not_reached", score=0.0, mode="mock", response=None))
        retention = stats.retention(store, now)
        assert (retention.all_time.attempts, retention.all_time.passed, retention.all_time.score_sum) == (2, 1, 0.5)


def test_due_now_and_the_forecast_agree_with_the_cards(seeded):
    store, _ = seeded
    result = stats.statistics(store, CATALOGUE, NOW)
    assert result.due_now == len(store.due(NOW)) == stats.due_now(store, NOW)
    assert [d for d, _ in result.forecast] == [NOW.date() + timedelta(days=n) for n in range(14)]
    due_dates = [store.card(q).due.astimezone(TOKYO).date() for q in [*CATALOGUE, "retired-question"]]
    assert dict(result.forecast) == {d: sum(max(due, NOW.date()) == d for due in due_dates) for d, _ in result.forecast}


def test_today_counts_only_todays_local_attempts(tmp_path):
    noon = datetime(2025, 7, 1, 12, 0, tzinfo=TOKYO)
    with open_store(tmp_path / "history.sqlite3") as store:
        just_before_midnight = noon.replace(hour=0) - timedelta(seconds=1)
        store.record(attempt(at_ms=int(just_before_midnight.timestamp() * 1000)))
        store.record(attempt(at_ms=int(noon.replace(hour=0).timestamp() * 1000), score=0.5, verdict="partial"))
        store.record(attempt(at_ms=int(noon.timestamp() * 1000) - 1, score=0.0, verdict="incorrect"))
        store.record(attempt(at_ms=int(noon.timestamp() * 1000) + 1))  # still in the future
        today = stats.today(store, noon)
        assert (today.attempts, today.mean_score) == (2, 0.25)
        assert stats.today(store, noon.astimezone(UTC)).attempts == 1  # a UTC day begins at 09:00 in Tokyo


@pytest.mark.parametrize(
    "days, streak",
    [
        ([0, -1, -2, -4], 3),  # today and the two days before
        ([-1, -2], 2),  # nothing yet today: the streak still stands
        ([-2, -3], 0),  # yesterday missed
        ([], 0),
        (list(range(0, -200, -1)), 200),  # longer than the calendar's 26 weeks
    ],
)
def test_the_streak_counts_consecutive_days_up_to_today(tmp_path, days, streak):
    now = datetime(2025, 7, 10, 20, 0, tzinfo=TOKYO)
    with open_store(tmp_path / "history.sqlite3") as store:
        for day in days:
            store.record(attempt(at_ms=int((now + timedelta(days=day)).timestamp() * 1000) - 1000))
        store.record(attempt(at_ms=int((now - timedelta(days=1)).timestamp() * 1000), verdict="not_reached", score=0.0, mode="mock", response=None))
        assert stats.streak_days(store, now) == streak
