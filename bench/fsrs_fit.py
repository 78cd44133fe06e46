"""Fitting FSRS to a learner's reviews (issue 30), in one run, on real SQLite files in a temporary
folder holding 10,000 and 100,000 attempts drawn from a known memory model
(tests/support/synthetic_reviews.py), each figure beside its floor:

1. Loading every question's reviews from the file (`History.review_logs`): the floor, what any fit
   pays before it starts.
2. The fit itself (`personal.fit`): fsrs-rs's optimizer and both sets scored with its `evaluate`.
3. `personal.refit` as `quiz optimize` and the app run it: loading, fitting, and, as the fitted
   set is chosen, every card rebuilt with it in one transaction.
One run each (the app refits once every 64 answers, off its UI thread).
Run: .venv/bin/python bench/fsrs_fit.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))
from _smoke import sized

from history_records import open_store
from quiz.history import personal
from synthetic_reviews import synthetic_attempts

T = TypeVar("T")
SIZES = sized((10_000, 100_000), (400, 1_000))


def _timed(step: Callable[[], T]) -> tuple[T, float]:
    """What `step` returns, and the seconds it took."""
    start = time.perf_counter()
    result = step()
    return result, time.perf_counter() - start


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        for size in SIZES:
            with open_store(Path(folder) / f"{size}.sqlite3") as history:
                history.add_attempts([(a, False) for a in synthetic_attempts(size, seed=1)])
                logs, load = _timed(history.review_logs)
                result, fit = _timed(partial(personal.fit, [reviews for _, reviews in logs]))
                _, refit = _timed(lambda: personal.refit(history))
            print(f"{size:,} attempts on {len(logs):,} questions ({result.reviews:,} reviews a fit learns from, {result.status}):")
            print(f"{'':4}load the reviews from the file        {load * 1000:8.1f} ms  (floor)")
            print(f"{'':4}fit and score both sets               {fit * 1000:8.1f} ms")
            print(f"{'':4}refit: load, fit, rebuild every card  {refit * 1000:8.1f} ms")
    print(f"load average while measuring (1, 5, 15 min): {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
