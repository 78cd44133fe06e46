"""History under stress, with the real SQLite file and real processes: two writers at once lose
nothing, and a process killed with SIGKILL while recording loses nothing it had committed."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections import Counter

import pytest

from history_records import open_store

# A writer process: opens the store, says it is ready, waits for "go" on stdin, then records
# attempts, printing each attempt's id once `record` has returned (that is, once committed).
WRITER = textwrap.dedent(
    """
    import sys
    from fsrs import Scheduler
    from quiz.history.records import AttemptRecord, new_attempt_id
    from quiz.history.store import History, open_history

    path, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    history = open_history(__import__("pathlib").Path(path), parameters=Scheduler(enable_fuzzing=False))
    assert isinstance(history, History), str(history)
    print("ready", flush=True)
    sys.stdin.readline()
    n = 0
    while count == 0 or n < count:
        attempt = AttemptRecord(
            id=new_attempt_id(), at_ms=1_750_000_000_000 + n * 1000, question=f"q{n % 25}", version="v1",
            key=f"q{n % 25}#{n}", seed=n, inputs={"n": n, "writer": name}, lang="en", mode="practice",
            response=f"{name} {n}", score=(n % 4) / 3, verdict="partial", hints=n % 2, duration_ms=n,
        )
        history.record(attempt)
        print(attempt.id, flush=True)
        n += 1
    """
)


def start_writer(path, name: str, count: int) -> subprocess.Popen:
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), name, str(count)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout.readline().strip() == "ready"
    return writer


def integrity(path) -> str:
    connection = sqlite3.connect(path)
    try:
        return connection.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        connection.close()


def cards_agree_with_attempts(store) -> None:
    """Each card was updated in the same transaction as its attempts: one review per attempt,
    and the state a rebuild from the attempts gives."""
    counts = Counter(a.question for a in store.attempts())
    for question, count in counts.items():
        card = store.card(question)
        assert card.reviews == count, question
        assert store.reschedule_card(question) == card


@pytest.mark.slow
def test_two_processes_recording_500_attempts_each_at_once_lose_nothing(tmp_path):
    path = tmp_path / "history.sqlite3"
    open_store(path).close()
    writers = [start_writer(path, name, 500) for name in ("left", "right")]
    for writer in writers:  # both are ready before either starts
        writer.stdin.write("go\n")
        writer.stdin.flush()
    ids = set()
    for writer in writers:
        out, _ = writer.communicate(timeout=300)
        assert writer.returncode == 0
        ids |= set(out.split())
    assert len(ids) == 1000
    with open_store(path) as store:
        assert {a.id for a in store.attempts()} == ids
        responses = Counter(a.response.split()[0] for a in store.attempts())
        assert responses == {"left": 500, "right": 500}
        cards_agree_with_attempts(store)
    assert integrity(path) == "ok"


def test_a_process_killed_while_recording_loses_nothing_it_committed(tmp_path):
    path = tmp_path / "history.sqlite3"
    open_store(path).close()
    writer = start_writer(path, "doomed", 0)  # records until it is killed
    writer.stdin.write("go\n")
    writer.stdin.flush()
    committed = [writer.stdout.readline().strip() for _ in range(300)]
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait(timeout=60)
    assert writer.returncode == -signal.SIGKILL
    committed += writer.stdout.read().split()  # ids printed before the kill landed
    writer.stdout.close()
    writer.stdin.close()
    assert integrity(path) == "ok"
    with open_store(path) as store:
        stored = {a.id for a in store.attempts()}
        assert set(committed) <= stored
        assert len(stored) - len(committed) in (0, 1)  # at most the attempt in flight, whole
        cards_agree_with_attempts(store)
