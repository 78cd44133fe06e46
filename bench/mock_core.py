"""Mock interview core benchmarks, in one run, on a real history file in a temporary folder:

1. `MockSession.submit` of a right answer: grading, then committing the attempt and the next
   question as asked in one transaction (synchronous=FULL, an fsync): median and 95th percentile
   over 300 answers, beside its floor, recording one attempt alone (`History.record`). The
   issue's goal is submit → feedback <= 50 ms in a mock; this is the core's share of it.
2. The report of a finished 10-question mock with two earlier mocks to compare with, built and
   written as Markdown: median of 20 (no goal of its own; it is shown once, at the end).
Run: .venv/bin/python bench/mock_core.py
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from _smoke import sized
from fsrs import Scheduler

from quiz.bank import load_bank
from quiz.history.recorder import Recorder
from quiz.history.records import AttemptRecord, new_attempt_id
from quiz.history.store import History, open_history
from quiz.mock.compose import MockPlan, compose
from quiz.mock.options import MockOptions
from quiz.mock.report_text import report_markdown
from quiz.mock.session import MockSession
from quiz.types.registry import type_of
from quiz.variants.variant import Variant

BANK = load_bank()
ANSWERS = sized(300, 3)
REPORTS = sized(20, 1)
GOAL_MS = 50.0


def right(variant: Variant) -> Any:
    kind = type_of(variant.question)
    if kind.name == "evidence":  # the best play: the best first request, then the right fault
        return kind.read(variant, kind.answer_json(variant, "en"))
    answer = kind.revealed_answer(variant)
    return next(iter(answer)) if kind.name == "choice" else answer


def answerable(plan: MockPlan) -> MockPlan:
    """The plan without spoken and code questions (their submit is not graded then, or runs a sandbox)."""
    kept = tuple(q for q in plan.questions if BANK.questions[q.question_id].type not in ("explain", "code"))
    return replace(plan, questions=kept)


def submits(folder: Path) -> list[float]:
    times: list[float] = []
    seed = 0
    recorder = Recorder(folder / "history.sqlite3")
    while len(times) < ANSWERS:
        plan = answerable(compose(BANK, MockOptions(minutes=60, seed=seed)))
        seed += 1
        session = MockSession.start(BANK, plan, recorder, lang="en")
        while session.current is not None and len(times) < ANSWERS:
            response = right(session.current)
            start = time.perf_counter()
            session.submit(response)
            times.append((time.perf_counter() - start) * 1000)
    recorder.close()
    return times


def floor(folder: Path) -> list[float]:
    history = open_history(folder / "floor.sqlite3", parameters=Scheduler(enable_fuzzing=True))
    assert isinstance(history, History)
    times = []
    for n in range(ANSWERS):
        at_ms = 1_760_000_000_000 + n
        attempt = AttemptRecord(new_attempt_id(), at_ms, "softmax-two", "v", "softmax-two#1", 1, {}, "en", "mock", "1", 1.0, "correct")
        start = time.perf_counter()
        history.record(attempt)
        times.append((time.perf_counter() - start) * 1000)
    history.close()
    return times


def report_ms(folder: Path) -> float:
    recorder = Recorder(folder / "reports.sqlite3")
    clock = [1000.0]
    sessions = []
    for seed in range(3):
        plan = answerable(compose(BANK, MockOptions(minutes=60, questions=10, seed=seed)))
        session = MockSession.start(BANK, plan, recorder, lang="en", clock=lambda: clock[0])
        while session.current is not None:
            clock[0] += 30
            session.submit(right(session.current))
        sessions.append(session)
    times = []
    for _ in range(REPORTS):
        start = time.perf_counter()
        report_markdown(BANK, sessions[-1].report(), "en")
        times.append((time.perf_counter() - start) * 1000)
    recorder.close()
    return statistics.median(times)


def p95(times: list[float]) -> float:
    return sorted(times)[int(len(times) * 0.95)]


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        os.environ["QUIZ_DATA_DIR"] = folder
        path = Path(folder)
        submit, alone = submits(path), floor(path)
        print(f"submit in a mock (grade + 1 commit): median {statistics.median(submit):.1f} ms, p95 {p95(submit):.1f} ms (goal <= {GOAL_MS:.0f} ms)")
        print(f"  floor, one attempt recorded alone:  median {statistics.median(alone):.1f} ms, p95 {p95(alone):.1f} ms")
        print(f"report of a 10-question mock with a trend over 2 earlier ones, as Markdown: median {report_ms(path):.1f} ms of {REPORTS}")


if __name__ == "__main__":
    main()
