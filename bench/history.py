"""History benchmarks, in one run, on real SQLite files in a temporary folder:

1. Recording one attempt, including its FSRS card update, committed (synchronous=FULL, so the
   commit waits for an fsync): median and 95th percentile over 500 attempts (goal: median
   <= 5 ms), beside the floor of one fsync on the same disk.
2. Opening the store: an empty file and the 100,000-attempt file below (no goal of its own; the
   app opens it off the critical path).
3. The statistics of `quiz stats` (everything the statistics screen shows) on a store of 100,000
   attempts over 500 questions, built with executemany: median of 7 runs (goal <= 300 ms), beside
   one plain SQL pass over the same attempts (the floor any statistic pays). The first questions
   are the bundled bank's (so the app's screens show their topics, claims and mistakes), the rest
   made up, as a history holds questions no longer in the bank.
4. The whole `quiz stats --json` process on that store, bank loading and Python start-up
   included: median of 5 runs, beside `quiz --version` (the cost of starting Python at all).
5. The app's statistics screen on that store (headless, 100x30): from asking for it until all of
   it is laid out, tables filled (goal <= 300 ms), median of 7 opens in one process, beside the
   statistics alone computed in that process (its floor: the rest is drawing).
Run: .venv/bin/python bench/history.py
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _smoke import sized
from fsrs import Scheduler

from quiz.bank import load_bank
from quiz.history import stats
from quiz.history.records import AttemptRecord, new_attempt_id
from quiz.history.scheduling import at_datetime
from quiz.history.stats import QuestionInfo, catalogue
from quiz.history.store import History, open_history

QUESTIONS = sized(500, 20)
ATTEMPTS = sized(100_000, 400)
RECORDED = sized(500, 5)  # attempts timed one by one
REPEATS = sized(7, 1)  # statistics computed, and the statistics screen opened
COMMANDS = sized(5, 1)  # `quiz` processes started
SCREEN = Path(__file__).with_name("_history_screen.py")
SCREEN_OPENS = REPEATS
DAY_MS = 86_400_000
NOW_MS = 1_760_000_000_000
TOPICS = ("scaling", "softmax", "masking", "implementation", "diagnosis")
MISTAKES = ("no_scaling", "transposed", "forgot_temperature")  # named in the bundled bank
BANK = load_bank()
QUESTION_IDS = [*BANK.questions, *(f"question-{n:03d}" for n in range(len(BANK), QUESTIONS))][:QUESTIONS]
CATALOGUE = {
    **{question: QuestionInfo(TOPICS[n % 5], (f"C{n % 17}", f"B{n % 11}")) for n, question in enumerate(QUESTION_IDS)},
    **catalogue(BANK.questions.values()),
}


def opened(path: Path) -> History:
    history = open_history(path, parameters=Scheduler(enable_fuzzing=True))
    assert isinstance(history, History), str(history)
    return history


def synthetic_attempt(rng: random.Random, n: int, at_ms: int) -> AttemptRecord:
    question = QUESTION_IDS[n % QUESTIONS]
    score = rng.choice((1.0, 1.0, 0.75, 0.5, 0.0))
    wrong = score == 0.0
    return AttemptRecord(
        id=new_attempt_id(),
        at_ms=at_ms,
        question=question,
        version="3f2a9c1d",
        key=f"{question}#{n}",
        seed=n,
        inputs={"Q": [[0.5, -1.2], [0.3, 0.8]], "d_k": 2},
        lang=rng.choice(("en", "ja")),
        mode="practice",
        response="[[0.62, 0.38], [0.45, 0.55]]",
        score=score,
        verdict="incorrect" if wrong else ("correct" if score == 1.0 else "partial"),
        misconception=rng.choice(MISTAKES) if wrong else None,
        hints=0,
        revealed=False,
        duration_ms=rng.randint(5_000, 300_000),
    )


def recording(folder: Path) -> tuple[float, float, float]:
    """Median and 95th percentile of recording, and the floor: appending 4 KiB to a file in the
    same folder and fsyncing it (what a committed transaction must at least wait for), timed
    alternately so both see the same disk load."""
    rng = random.Random(1)
    times, syncs = [], []
    with opened(folder / "record.sqlite3") as history, (folder / "fsync.bin").open("ab") as raw:
        for n in range(RECORDED):
            record = synthetic_attempt(rng, n % 50, NOW_MS + n * 60_000)
            start = time.perf_counter()
            history.record(record)
            times.append(time.perf_counter() - start)
            start = time.perf_counter()
            raw.write(b"x" * 4096)
            raw.flush()
            os.fsync(raw.fileno())
            syncs.append(time.perf_counter() - start)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95)], statistics.median(syncs)


def build_large_store(path: Path) -> float:
    """A year of attempts over 500 questions, added by the store's executemany import path
    (which also builds every card); returns the seconds the import took."""
    rng = random.Random(2)
    start_ms = NOW_MS - 365 * DAY_MS
    attempts = [(synthetic_attempt(rng, n, start_ms + n * (365 * DAY_MS // ATTEMPTS)), False) for n in range(ATTEMPTS)]
    with opened(path) as history:
        start = time.perf_counter()
        added, _ = history.add_attempts(attempts)
        elapsed = time.perf_counter() - start
    assert added == ATTEMPTS
    return elapsed


def opening(path: Path, repeats: int = sized(21, 1)) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        history = opened(path)
        times.append(time.perf_counter() - start)
        history.close()
    return statistics.median(times)


def statistics_time(path: Path) -> tuple[float, float, int]:
    """Median seconds for all statistics, and for the floor: one plain pass over the attempts
    (count and sum of scores through the same index), timed alternately to share the load."""
    now = at_datetime(NOW_MS).astimezone()
    with opened(path) as history:
        times, floor = [], []
        for _ in range(REPEATS):
            start = time.perf_counter()
            result = stats.statistics(history, CATALOGUE, now)
            times.append(time.perf_counter() - start)
            start = time.perf_counter()
            history.read("SELECT count(*), total(score) FROM attempts WHERE verdict != 'not_reached' AND at_ms <= ?", (NOW_MS,))
            floor.append(time.perf_counter() - start)
    return statistics.median(times), statistics.median(floor), sum(w.all_time.attempts for w in result.topics.values())


def command_time(data_dir: Path, *args: str, repeats: int = COMMANDS) -> float:
    env = {**os.environ, "QUIZ_DATA_DIR": str(data_dir)}
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "quiz", *args], check=True, capture_output=True, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def screen_time(data_dir: Path) -> tuple[float, float, float]:
    """Median seconds to open the statistics screen, the statistics alone, and the slowest open
    (bench/_history_screen.py in a fresh process)."""
    env = {**os.environ, "QUIZ_DATA_DIR": str(data_dir)}
    command = [sys.executable, str(SCREEN), str(NOW_MS), str(SCREEN_OPENS)]
    run = subprocess.run(command, check=False, capture_output=True, text=True, env=env)
    if run.returncode != 0:  # say why: the screen's own traceback, not only the exit status
        raise SystemExit(f"{SCREEN.name} exited {run.returncode}:\n{run.stderr[-3000:]}")
    median, floor, worst = (float(x) for x in run.stdout.split()[-3:])
    return median, floor, worst


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        median, p95, fsync = recording(folder)
        print(f"record an attempt with its card update (committed): median {median * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms (goal: median <= 5 ms);")
        print(f"{'':4}floor, append 4 KiB and fsync in the same folder: median {fsync * 1000:.2f} ms")
        (folder / "empty").mkdir()
        opened(folder / "empty" / "history.sqlite3").close()
        (folder / "large").mkdir()
        large = folder / "large" / "history.sqlite3"
        elapsed = build_large_store(large)
        print(f"import of {ATTEMPTS:,} attempts over {QUESTIONS} questions, cards built: {elapsed:.1f} s ({large.stat().st_size / 2**20:.1f} MiB)")
        empty_open, large_open = opening(folder / "empty" / "history.sqlite3"), opening(large)
        print(f"open the store: empty {empty_open * 1000:.2f} ms, {ATTEMPTS:,} attempts {large_open * 1000:.2f} ms (median of {sized(21, 1)})")
        elapsed, floor, counted = statistics_time(large)
        assert counted == ATTEMPTS
        print(f"statistics on {ATTEMPTS:,} attempts: median {elapsed * 1000:.0f} ms of {REPEATS} (goal <= 300 ms);")
        print(f"{'':4}floor, one plain pass over the attempts: {floor * 1000:.0f} ms ({elapsed / floor:.1f}x)")
        bare = command_time(folder / "large", "--version")
        whole = command_time(folder / "large", "stats", "--json")
        print(f"`quiz stats --json` process on that store: median {whole * 1000:.0f} ms of {COMMANDS} (bank loading and start-up included),")
        print(f"{'':4}beside `quiz --version` {bare * 1000:.0f} ms")
        screen, floor, worst = screen_time(folder / "large")
        print(f"statistics screen on that store: opens in {screen * 1000:.0f} ms, median of {SCREEN_OPENS} (goal <= 300 ms),", end=" ")
        print(f"slowest {worst * 1000:.0f} ms;")
        print(f"{'':4}floor, the statistics alone in that process: {floor * 1000:.0f} ms")
    print(f"load average while measuring (1, 5, 15 min): {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
