"""The app's link to the history file, without the app: a real SQLite file in a temporary folder.

An attempt graded before the file is opened opens it itself; a file that cannot be used is said
once, never touched, and the run's attempts are still counted for "today".
"""

from __future__ import annotations

import threading
from datetime import timedelta

from history_records import START_MS, attempt, open_store
from quiz.history.recorder import Recorder
from quiz.history.records import EPOCH
from quiz.history.unavailable import LOCKED, NOT_HISTORY, Unavailable

NOW = EPOCH + timedelta(milliseconds=START_MS + 60_000)


def test_an_attempt_graded_before_the_worker_opens_the_file_opens_it_and_is_saved(tmp_path):
    path = tmp_path / "history.sqlite3"
    recorder = Recorder(path, now=lambda: NOW)
    assert not recorder.opened and recorder.today() == (0, 0.0)
    assert recorder.record(attempt(at_ms=START_MS, score=0.5, verdict="partial"))
    recorder.open()  # the worker, late: nothing left to do
    assert recorder.today() == (1, 0.5)
    recorder.close()
    with open_store(path) as store:
        assert len(store.attempts()) == 1


def test_two_threads_opening_at_once_open_the_file_once(tmp_path):
    recorder = Recorder(tmp_path / "history.sqlite3", now=lambda: NOW)
    threads = [threading.Thread(target=recorder.open) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert recorder.opened and recorder.problem is None
    assert recorder.record(attempt(at_ms=START_MS))
    recorder.close()


def test_a_garbage_file_is_said_once_never_touched_and_today_counts_the_run(tmp_path):
    path = tmp_path / "history.sqlite3"
    path.write_bytes(b"\x00garbage" * 100)
    recorder = Recorder(path, now=lambda: NOW)
    recorder.open()
    assert not recorder.record(attempt(at_ms=START_MS, score=1.0))
    assert not recorder.record(attempt(at_ms=START_MS + 1, score=0.0, verdict="incorrect"))
    problem = recorder.notice()
    assert problem is not None and problem.key == "not_history" and recorder.notice() is None
    assert recorder.today() == (2, 0.5)
    assert recorder.due({"softmax-two"}, wait=True) is None and recorder.statistics({}) is None
    assert path.read_bytes() == b"\x00garbage" * 100
    assert sorted(p.name for p in tmp_path.iterdir()) == ["history.sqlite3"]


def test_a_reason_already_told_with_the_draft_is_not_said_again(tmp_path):
    path = tmp_path / "history.sqlite3"
    path.write_bytes(b"\x00garbage" * 100)
    draft_store_found = Unavailable(NOT_HISTORY, path)
    recorder = Recorder(path, now=lambda: NOW)
    assert recorder.tell_once(draft_store_found) and not recorder.tell_once(draft_store_found)
    recorder.open()
    assert recorder.problem is not None and recorder.notice() is None


def test_a_different_reason_is_still_said(tmp_path):
    path = tmp_path / "history.sqlite3"
    path.write_bytes(b"\x00garbage" * 100)
    recorder = Recorder(path, now=lambda: NOW)
    assert recorder.tell_once(Unavailable(LOCKED, path))
    recorder.open()
    problem = recorder.notice()
    assert problem is not None and problem.key == NOT_HISTORY and recorder.notice() is None


def test_easy_applies_only_to_the_last_saved_passed_attempt(tmp_path):
    recorder = Recorder(tmp_path / "history.sqlite3", now=lambda: NOW)
    passed = attempt(at_ms=START_MS, score=0.75, verdict="partial")
    failed = attempt(at_ms=START_MS + 1, score=0.25, verdict="partial")
    assert recorder.record(passed) and recorder.can_mark_easy(passed)
    assert recorder.record(failed) and not recorder.can_mark_easy(failed) and not recorder.can_mark_easy(passed)
    recorder.close()
