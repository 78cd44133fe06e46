"""Review cards: FSRS ratings from graded attempts, seeded fuzz, and rebuilding from attempts."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, timedelta

import pytest
from fsrs import Card, Rating, Scheduler, State
from fsrs.scheduler import FUZZ_RANGES

from history_records import DAY_MS, START_MS, attempt, open_store
from quiz.history.scheduling import PASS_MARK, Review, ReviewScheduler, at_datetime, card_id_for, rating_for


@pytest.mark.parametrize(
    "score, verdict, hints, revealed, easy, rating",
    [
        (1.0, "correct", 0, False, False, Rating.Good),
        (1.0, "correct", 0, False, True, Rating.Easy),
        (0.75, "correct", 1, False, False, Rating.Hard),
        (0.75, "correct", 1, False, True, Rating.Easy),
        (PASS_MARK, "correct", 2, False, False, Rating.Hard),
        (0.6, "partial", 0, False, False, Rating.Hard),
        (0.49, "partial", 0, False, False, Rating.Again),
        (0.25, "incorrect", 0, False, True, Rating.Again),
        (0.0, "revealed", 0, True, False, Rating.Again),
        (0.0, "no_answer", 0, False, False, Rating.Again),
    ],
)
def test_the_rating_follows_the_grade(score, verdict, hints, revealed, easy, rating):
    assert rating_for(score, verdict, hints, revealed, easy) == rating


def test_card_ids_are_stable_positive_63_bit_integers_distinct_per_question():
    ids = {card_id_for(f"question-{n}") for n in range(2000)}
    assert len(ids) == 2000 and all(0 < i < 2**63 for i in ids)
    code = "from quiz.history.scheduling import card_id_for; print(card_id_for('softmax-two'))"
    other_process = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, env={"PYTHONHASHSEED": "123"})
    assert int(other_process.stdout) == card_id_for("softmax-two")


def test_datetimes_given_to_fsrs_are_in_timezone_utc():
    assert at_datetime(START_MS).tzinfo is UTC


def test_without_fuzz_our_cards_are_fsrs_own():
    ours = ReviewScheduler(Scheduler(enable_fuzzing=False))
    theirs = Scheduler(enable_fuzzing=False)
    card = reference = Card(card_id=card_id_for("q"), due=at_datetime(START_MS))
    for n, rating in enumerate([Rating.Good, Rating.Good, Rating.Hard, Rating.Again, Rating.Good, Rating.Easy]):
        at_ms = START_MS + n * 5 * DAY_MS
        card = ours.review(card, Review(at_ms, rating), n)
        reference, _ = theirs.review_card(reference, rating, at_datetime(at_ms))
        assert card.to_dict() == reference.to_dict()


def fuzz_range(days: int) -> tuple[int, int]:
    """FSRS's documented fuzz range, computed here independently of the code under test."""
    spread = 1.0 + sum(r["factor"] * max(min(days, r["end"]) - r["start"], 0.0) for r in FUZZ_RANGES)
    return max(2, round(days - spread)), round(days + spread)


def test_fuzz_stays_in_fsrs_range_varies_between_cards_and_is_reproducible():
    fuzzed, plain = ReviewScheduler(Scheduler(enable_fuzzing=True)), ReviewScheduler(Scheduler(enable_fuzzing=False))
    intervals = set()
    for n in range(200):
        question = f"q{n}"
        card_f = card_p = fuzzed.new_card(question, START_MS)
        for k in range(4):
            review = Review(START_MS + k * 20 * DAY_MS, Rating.Good)
            card_f, card_p = fuzzed.review(card_f, review, k), plain.review(card_p, review, k)
        days, unfuzzed = (card_f.due - card_f.last_review).days, (card_p.due - card_p.last_review).days
        low, high = fuzz_range(unfuzzed)
        assert low <= days <= high
        assert card_f.stability == card_p.stability and card_f.difficulty == card_p.difficulty
        intervals.add(days - unfuzzed)
        again = fuzzed.new_card(question, START_MS)
        for k in range(4):
            again = fuzzed.review(again, Review(START_MS + k * 20 * DAY_MS, Rating.Good), k)
        assert again.to_dict() == card_f.to_dict()
    assert len(intervals) >= 3  # fuzz does spread the reviews


def test_the_time_taken_never_changes_the_schedule():
    scheduler = ReviewScheduler()
    quick = slow = scheduler.new_card("q", START_MS)
    for k in range(3):
        quick = scheduler.review(quick, Review(START_MS + k * 3 * DAY_MS, Rating.Good, 2_000), k)
        slow = scheduler.review(slow, Review(START_MS + k * 3 * DAY_MS, Rating.Good, 350_000), k)
    assert quick.to_dict() == slow.to_dict()


# --- cards in the store ---------------------------------------------------------------------


def outcomes(question: str, start: int = START_MS):
    """A learner's month on one question: right, wrong, hinted, revealed, partial, right again."""
    changes = [
        {},
        {"score": 0.0, "verdict": "incorrect", "misconception": "no_scaling"},
        {"score": 0.75, "hints": 1},
        {"score": 0.0, "verdict": "revealed", "revealed": True, "response": None},
        {"score": 0.6, "verdict": "partial"},
        {},
        {},
    ]
    days = [0, 0, 1, 3, 7, 15, 31]
    return [attempt(question, at_ms=start + day * DAY_MS + n * 60_000, **change) for n, (day, change) in enumerate(zip(days, changes))]


@pytest.mark.parametrize("fuzzing", [False, True])
def test_a_rebuilt_card_equals_the_card_updated_attempt_by_attempt(tmp_path, fuzzing):
    with open_store(tmp_path / "history.sqlite3", fuzzing=fuzzing) as store:
        for question in ("softmax-two", "causal-weights-3x3", "scaling-variance"):
            for record in outcomes(question):
                store.record(record)
            incremental = store.card(question)
            assert incremental.reviews == 7
            assert store.reschedule_card(question) == incremental
            assert store.card(question) == incremental


def test_an_attempt_older_than_the_last_review_is_replayed_in_time_order(tmp_path):
    records = outcomes("softmax-two")
    with open_store(tmp_path / "a.sqlite3", fuzzing=True) as in_order, open_store(tmp_path / "b.sqlite3", fuzzing=True) as shuffled:
        for record in records:
            in_order.record(record)
        for record in records[3:] + records[:3]:  # the clock was set back
            shuffled.record(record)
        assert shuffled.card("softmax-two") == in_order.card("softmax-two")


def test_a_store_card_is_what_fsrs_gives_for_the_ratings(tmp_path):
    reference = Scheduler(enable_fuzzing=False)
    card = Card(card_id=card_id_for("softmax-two"), due=at_datetime(START_MS))
    with open_store(tmp_path / "history.sqlite3") as store:
        ratings = [Rating.Good, Rating.Again, Rating.Hard, Rating.Again, Rating.Hard, Rating.Good, Rating.Good]
        for record, rating in zip(outcomes("softmax-two"), ratings):
            store.record(record)
            card, _ = reference.review_card(card, rating, record.at, record.duration_ms)
            assert store.card("softmax-two").card.to_dict() == card.to_dict()


def test_easy_is_given_only_when_asked_and_only_to_a_pass(tmp_path):
    with open_store(tmp_path / "history.sqlite3") as store:
        good = attempt(at_ms=START_MS)
        store.record(good)
        card_good = store.card("softmax-two").card
        easy_state = store.mark_easy(good.id, at_ms=START_MS + 5_000)
        expected, _ = Scheduler(enable_fuzzing=False).review_card(Card(card_id=card_id_for("softmax-two"), due=good.at), Rating.Easy, good.at)
        assert easy_state.card.to_dict() == expected.to_dict()
        assert easy_state.card.due > card_good.due and easy_state.card.state == State.Review
        assert store.card("softmax-two") == easy_state == store.reschedule_card("softmax-two")
        failed = attempt(at_ms=START_MS + DAY_MS, score=0.0, verdict="incorrect")
        store.record(failed)
        with pytest.raises(ValueError, match="did not pass"):
            store.mark_easy(failed.id)
        with pytest.raises(KeyError):
            store.mark_easy("00000000-0000-4000-8000-000000000000")


def test_a_question_not_reached_in_a_mock_interview_is_not_a_review(tmp_path):
    with open_store(tmp_path / "history.sqlite3") as store:
        assert store.record(attempt(mode="mock", score=0.0, verdict="not_reached", response=None)) is None
        assert store.card("softmax-two") is None
        state = store.record(attempt(mode="mock", at_ms=START_MS + 1000, score=0.0, verdict="no_answer", response=None))
        assert state.reviews == 1 and state.card.state == State.Learning


def test_due_cards_list_the_cards_due_with_their_memory_state(tmp_path):
    with open_store(tmp_path / "history.sqlite3") as store:
        store.record(attempt("wrong-one", score=0.0, verdict="incorrect"))
        store.record(attempt("right-one", at_ms=START_MS + 1000))
        now = at_datetime(START_MS) + timedelta(minutes=2)
        [due] = store.due(now)
        assert due.question == "wrong-one" and due.reviews == 1
        assert due.due == at_datetime(START_MS) + timedelta(minutes=1)  # the first learning step
        assert due.stability > 0 and 1 <= due.difficulty <= 10 and 0 < due.retrievability <= 1
        later = now + timedelta(days=60)
        assert [d.question for d in store.due(later)] == ["wrong-one", "right-one"]
        soon = {d.question: d.retrievability for d in store.due(now + timedelta(days=2))}
        assert {d.question: d.retrievability for d in store.due(later)}["right-one"] < soon["right-one"]  # memory fades
