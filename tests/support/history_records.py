"""Attempt records and stores for the history tests: real SQLite files in a temporary folder."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from fsrs import Scheduler

from quiz.history.records import AttemptRecord, new_attempt_id
from quiz.history.store import History, open_history

DAY_MS = 86_400_000
START_MS = 1_750_000_000_000  # 2025-06-15T15:06:40Z: a fixed clock, no real time in tests


def attempt(question: str = "softmax-two", at_ms: int = START_MS, **changes: object) -> AttemptRecord:
    """A plausible graded attempt; `changes` override any field."""
    base = AttemptRecord(
        id=new_attempt_id(),
        at_ms=at_ms,
        question=question,
        version="3f2a9c1d",
        key=f"{question}#7",
        seed=7,
        inputs={"z": [1.5, -0.25], "d_k": 4},
        lang="en",
        mode="practice",
        response="0.88, 0.12",
        score=1.0,
        verdict="correct",
        duration_ms=42_000,
    )
    return replace(base, **changes)


def open_store(path: Path, *, fuzzing: bool = False, busy_timeout_s: float = 5.0) -> History:
    """A store at `path` (fuzz off unless asked), failing the test if it cannot be opened."""
    history = open_history(path, busy_timeout_s=busy_timeout_s, parameters=Scheduler(enable_fuzzing=fuzzing))
    assert isinstance(history, History), str(history)
    return history


def stored_draft(key: str) -> str | None:
    """The draft of `key` as committed to the learner's history file, read through a connection of its own."""
    history = open_history()
    try:
        draft = history.draft(key)
    finally:
        history.close()
    return None if draft is None else draft.text
