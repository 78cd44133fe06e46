"""A learner's history for the app's tests: four months of attempts on the fixture pack, recorded
through the real store at fixed times, and the fixed clock the app is then started with.

The clock is in a fixed UTC offset (Tokyo's), so the days, the calendar and what is due come out
the same on every machine and on every day the tests run.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from pathlib import Path

from history_records import attempt, open_store
from quiz.history.records import to_ms
from quiz.history.store import history_path

NOW = datetime(2025, 6, 15, 18, 30, tzinfo=timezone(timedelta(hours=9)))
"""The app's clock in the tests that use this history: a Sunday evening."""
DAYS = 120
# (question, the mistake a wrong answer to it makes, if it names one)
QUESTIONS = (
    ("fx-number", "no_scaling"),
    ("fx-vector", "no_scaling"),
    ("fx-matrix", "mask_ignored"),
    ("fx-number", "divide_by_d_k"),
    ("fx-choice", None),
    ("fx-multi", None),
    ("fx-truefalse", None),
    ("fx-order", None),
)


def seed_history(path: Path | None = None, seed: int = 5) -> int:
    """Record the history into `path` (default: the data directory's file); how many attempts."""
    rng = random.Random(seed)
    count = 0
    with open_store(path or history_path()) as history:
        for days_ago in range(DAYS, -1, -1):
            if rng.random() < 0.4:  # a day off
                continue
            day = NOW - timedelta(days=days_ago)
            for n in range(rng.randint(1, 6)):
                question, mistake = rng.choice(QUESTIONS)
                score = rng.choice((1.0, 1.0, 1.0, 0.5, 0.0))
                at = day.replace(hour=8) + timedelta(minutes=7 * n)
                if at > NOW:
                    continue
                verdict = {1.0: "correct", 0.5: "partial", 0.0: "incorrect"}[score]
                history.record(attempt(question, to_ms(at), score=score, verdict=verdict, misconception=mistake if score == 0.0 else None))
                count += 1
    return count
