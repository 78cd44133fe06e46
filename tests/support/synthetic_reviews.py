"""Synthetic learners for the FSRS fitting tests and bench: attempts drawn from a known memory
model, FSRS at parameters other than its defaults, with a seeded generator.

Each question is first seen on a random day; each later attempt comes at the interval that model
schedules, stretched or shortened at random (so the history holds early and late reviews), and it
is recalled with the probability the model gives at that moment. A recalled attempt needed a hint
one time in five (rated Hard), else it is a clean pass (Good); a forgotten one scores 0 (Again).
"""

from __future__ import annotations

import random
from datetime import timedelta

from fsrs import Card, Rating, Scheduler

from history_records import START_MS, attempt
from quiz.history.records import AttemptRecord, to_ms
from quiz.history.scheduling import at_datetime

LEARNER = (0.5, 2.0, 4.0, 15.0, 7.0, 0.5, 2.5, 0.01, 1.2, 0.3, 1.2, 1.8, 0.1, 0.4, 1.9, 0.4, 2.5, 0.6, 0.2, 0.1, 0.4)
"""The memory model the synthetic attempts are drawn from: FSRS-6 with a steeper forgetting curve
(w20 = 0.4 against the default 0.1542), easier first recalls and slower growth than the defaults."""
REVIEWS_PER_QUESTION = 10


def synthetic_attempts(count: int, seed: int, parameters: tuple[float, ...] = LEARNER, start_ms: int = START_MS) -> list[AttemptRecord]:
    """`count` attempts on `count / REVIEWS_PER_QUESTION` questions, drawn from FSRS at `parameters`,
    each question first seen in the 60 days from `start_ms`."""
    rng = random.Random(seed)
    model = Scheduler(parameters=parameters, enable_fuzzing=False)
    attempts: list[AttemptRecord] = []
    question = 0
    while len(attempts) < count:
        card = Card(card_id=question + 1)
        at = at_datetime(start_ms) + timedelta(days=rng.randint(0, 60), minutes=rng.randint(0, 600))
        for _ in range(min(REVIEWS_PER_QUESTION, count - len(attempts))):
            recall = 0.6 if card.last_review is None else model.get_card_retrievability(card, at)
            recalled = rng.random() < recall
            hinted = recalled and rng.random() < 0.2
            rating = Rating.Again if not recalled else Rating.Hard if hinted else Rating.Good
            card, _ = model.review_card(card, rating, at)
            score, verdict = (1.0, "correct") if recalled else (0.0, "incorrect")
            attempts.append(attempt(f"synthetic-{question:05d}", to_ms(at), score=score, verdict=verdict, hints=int(hinted), mode="review"))
            at += (card.due - at) * rng.uniform(0.5, 2.5)
        question += 1
    return attempts
