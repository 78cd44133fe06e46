"""Interview-date planning and item analysis, in one run:

1. A 30-day plan at 30 minutes a day for the bundled bank, the learner's cards read from a real
   history file of 90 days of practice, and for a generated 1,000-question bank (200 claims, half
   the questions studied before), each beside its floor: FSRS's recall of every card on every day
   of the plan, which any day-by-day simulation of recall computes at least once.
2. Item analysis of 20 learners' JSON Lines exports of 2,000 attempts each: reading the exports,
   then the analysis, beside the floor of one pass summing the scores by question.
Run: .venv/bin/python bench/plan_items.py
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

from _smoke import sized
from fsrs import Rating

from quiz.bank import load_bank
from quiz.history.records import AttemptRecord, new_attempt_id, to_ms
from quiz.history.scheduling import Review, ReviewScheduler
from quiz.history.store import History, open_history
from quiz.history.transfer import export, read_attempts
from quiz.learning.items import item_infos, item_statistics, learner_labels
from quiz.learning.plan import Learner, PlanQuestion, make_plan, questions_for_plan, study_time
from quiz.learning.plan_store import learner_from_history

REPEATS = sized(5, 1)
PLAN_DAYS = sized(30, 5)
HISTORY_DAYS = sized(90, 3)
GENERATED = sized(1000, 40)
LEARNERS = sized(20, 2)
ATTEMPTS = sized(2000, 50)
TODAY = date(2026, 12, 1)
DAY_MS = 86_400_000


def median_ms(work: Callable[[], object]) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def record_history(history: History, ids: list[str], rng: random.Random) -> int:
    count = 0
    start = to_ms(study_time(TODAY)) - HISTORY_DAYS * DAY_MS
    for day in range(HISTORY_DAYS):
        for n in range(rng.randint(0, 8)):
            score = 1.0 if rng.random() < 0.7 else 0.0
            history.record(attempt(rng.choice(ids), start + day * DAY_MS + n * 60_000, score, rng))
            count += 1
    return count


def attempt(question: str, at_ms: int, score: float, rng: random.Random) -> AttemptRecord:
    return AttemptRecord(
        id=new_attempt_id(),
        at_ms=at_ms,
        question=question,
        version="bench",
        key=question,
        seed=0,
        inputs={},
        lang="en",
        mode="practice",
        response="x",
        score=score,
        verdict="correct" if score else "incorrect",
        misconception=None if score or rng.random() < 0.5 else "no_scaling",
        hints=int(rng.random() < 0.1),
        duration_ms=rng.randint(20_000, 400_000),
    )


def floor_ms(questions: list[PlanQuestion], learner: Learner, scheduler: ReviewScheduler) -> float:
    """FSRS's recall of every card (the studied ones, or each question's once introduced) on every day."""
    cards = [card for card, _ in learner.cards.values()] or [
        scheduler.review(scheduler.new_card(q.id, to_ms(study_time(TODAY))), Review(to_ms(study_time(TODAY)), Rating.Good), 0) for q in questions
    ]
    days = [study_time(TODAY + timedelta(days=n)) for n in range(PLAN_DAYS)]
    return median_ms(lambda: [scheduler.retrievability(card, day) for day in days for card in cards])


def generated_bank(rng: random.Random) -> tuple[list[PlanQuestion], Learner]:
    claims = [f"C{n}" for n in range(GENERATED // 5)]
    questions = [
        PlanQuestion(f"q{n:04d}", f"topic{n % 10}", tuple(rng.sample(claims, rng.randint(1, 3))), rng.choice((60, 90, 120, 180, 300)))
        for n in range(GENERATED)
    ]
    scheduler = ReviewScheduler()
    cards = {}
    for q in questions[::2]:
        at = to_ms(study_time(TODAY)) - rng.randint(1, 60) * DAY_MS
        rating = Rating.Good if rng.random() < 0.8 else Rating.Again
        cards[q.id] = (scheduler.review(scheduler.new_card(q.id, at), Review(at, rating), 0), 1)
    return questions, Learner(cards, {q.id: 1 for q in questions[::7]})


def plans(folder: Path) -> None:
    rng = random.Random(3)
    bank = load_bank()
    questions = questions_for_plan(bank.questions.values())
    history = open_history(folder / "history.sqlite3")
    assert isinstance(history, History), str(history)
    with history:
        recorded = record_history(history, [q.id for q in questions], rng)
        read = median_ms(lambda: learner_from_history(history, questions))
        learner = learner_from_history(history, questions)
        interview = TODAY + timedelta(days=PLAN_DAYS)
        planned = median_ms(lambda: make_plan(questions, learner, TODAY, interview, 30, history.scheduler))
        floor = floor_ms(questions, learner, history.scheduler)
    print(f"bundled bank, {len(questions)} questions, {recorded:,} attempts over {HISTORY_DAYS} days, a {PLAN_DAYS}-day plan at 30 min a day:")
    print(f"  read the cards and misconceptions from the history file  {read:8.1f} ms")
    print(f"  make the plan                                            {planned:8.1f} ms  {planned / floor:5.1f}x floor")
    print(f"  floor: recall of every card on every day                 {floor:8.1f} ms")
    questions, learner = generated_bank(rng)
    scheduler = ReviewScheduler()
    floor = floor_ms(questions, learner, scheduler)
    print(f"generated bank, {len(questions):,} questions, {len(learner.cards):,} studied before, a {PLAN_DAYS}-day plan:")
    for minutes in (30, 120):
        planned = median_ms(lambda minutes=minutes: make_plan(questions, learner, TODAY, TODAY + timedelta(days=PLAN_DAYS), minutes, scheduler))
        print(f"  make the plan at {minutes:3d} min a day                           {planned:8.1f} ms  {planned / floor:5.1f}x floor")
    print(f"  floor: recall of every card on every day                 {floor:8.1f} ms")


def items(folder: Path) -> None:
    rng = random.Random(4)
    bank = load_bank()
    ids = sorted(bank.questions)
    paths = []
    for n in range(LEARNERS):
        history = open_history(folder / f"learner{n}.sqlite3")
        assert isinstance(history, History), str(history)
        with history:
            start = to_ms(study_time(TODAY))
            records = [(attempt(rng.choice(ids), start + k * 600_000, float(rng.random() < 0.6), rng), False) for k in range(ATTEMPTS)]
            history.add_attempts(records)
            path = folder / f"learner{n}.jsonl"
            with path.open("w", encoding="utf-8") as out:
                export(history, out, "jsonl")
        paths.append(path)
    read = median_ms(lambda: [read_attempts(p) for p in paths])
    histories = dict(zip(learner_labels(len(paths)), [read_attempts(p) for p in paths], strict=True))
    infos = item_infos(bank.questions.values())
    analysed = median_ms(lambda: item_statistics(histories, infos))

    def sums() -> dict[str, float]:
        total: dict[str, float] = defaultdict(float)
        for attempts in histories.values():
            for a in attempts:
                total[a.question] += a.score
        return total

    floor = median_ms(sums)
    print(f"item analysis, {LEARNERS} learners' exports of {ATTEMPTS:,} attempts each ({LEARNERS * ATTEMPTS:,} in all):")
    print(f"  read the exports (checked as an import checks them)      {read:8.1f} ms")
    print(f"  analyse every question                                   {analysed:8.1f} ms  {analysed / floor:5.1f}x floor")
    print(f"  floor: one pass summing the scores by question           {floor:8.2f} ms")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        plans(Path(folder))
        items(Path(folder))


if __name__ == "__main__":
    main()
