"""The history store on a real SQLite file: where it lives, what it keeps, and how it refuses a
file it cannot use without ever changing that file."""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import replace

import pytest

from history_records import DAY_MS, START_MS, attempt, open_store
from quiz.history import schema
from quiz.history.records import capped_duration_ms
from quiz.history.store import History, history_path, open_history
from quiz.history.unavailable import HistoryUnavailable, Unavailable


@pytest.fixture
def store(tmp_path):
    with open_store(tmp_path / "history.sqlite3") as history:
        yield history


def raw(path):
    """A plain connection of our own, to look at the file the way another program would."""
    return sqlite3.connect(path, isolation_level=None)


def test_the_file_lives_in_the_data_directory(isolated_user_dirs):
    history = open_history()
    assert isinstance(history, History)
    history.close()
    assert history_path() == isolated_user_dirs / "data" / "history.sqlite3"
    assert history_path().is_file()


def test_the_file_is_in_wal_mode_at_the_current_schema_with_foreign_keys(store):
    connection = store.connection()
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert connection.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert connection.execute("PRAGMA busy_timeout").fetchone()[0] == 5000
    assert schema.user_version(connection) == schema.CURRENT


def test_a_recorded_attempt_is_committed_when_record_returns(store):
    recorded = attempt(response="[[1, 0], [0.5, 0.5]]", misconception="no_scaling", hints=1, score=0.75)
    store.record(recorded)
    [row] = raw(store.path).execute("SELECT id, response, misconception, hints, score FROM attempts").fetchall()
    assert row == (recorded.id, "[[1, 0], [0.5, 0.5]]", "no_scaling", 1, 0.75)


def test_attempts_come_back_as_recorded_newest_first(store):
    first = attempt(at_ms=START_MS, response="日本語の解答 ½", lang="ja")
    second = attempt("causal-weights-3x3", at_ms=START_MS + 1000, verdict="revealed", score=0.0, response=None, revealed=True)
    third = attempt(at_ms=START_MS + 2000, mode="review", duration_ms=None)
    for record in (first, second, third):
        store.record(record)
    assert store.attempts() == [third, second, first]
    assert store.attempts(limit=2) == [third, second]
    assert store.attempts(question="softmax-two") == [third, first]
    assert store.attempt_count() == 3


def test_an_empty_response_is_kept_as_no_response():
    assert attempt(response="").response is None


def test_attempts_cannot_be_changed_or_deleted(store):
    store.record(attempt())
    connection = raw(store.path)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        connection.execute("UPDATE attempts SET score = 0")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        connection.execute("DELETE FROM attempts")
    assert store.attempt_count() == 1


@pytest.mark.parametrize(
    "changes, problem",
    [
        ({"id": "not-a-uuid"}, "UUID"),
        ({"mode": "exam"}, "mode"),
        ({"verdict": "great"}, "verdict"),
        ({"score": 1.5}, "score"),
        ({"score": float("nan")}, "score"),
        ({"hints": -1}, "hints"),
        ({"revealed": 1}, "revealed"),
        ({"inputs": {"x": float("inf")}}, "inputs"),
        ({"duration_ms": -5}, "duration_ms"),
        ({"mock": "m1"}, "mock interview"),
        ({"question": ""}, "question"),
    ],
)
def test_an_invalid_attempt_is_refused_and_nothing_is_stored(store, changes, problem):
    with pytest.raises(ValueError, match=problem):
        store.record(attempt(**changes))
    assert store.attempt_count() == 0


def test_an_attempt_id_is_recorded_once(store):
    recorded = attempt()
    store.record(recorded)
    with pytest.raises(ValueError, match="cannot be recorded"):
        store.record(replace(recorded, at_ms=START_MS + DAY_MS))
    assert store.attempts() == [recorded]
    assert store.card("softmax-two").reviews == 1


def test_time_taken_is_capped_at_three_times_the_budget():
    assert capped_duration_ms(12.3456, 120) == 12_346
    assert capped_duration_ms(5000, 120) == 360_000
    assert capped_duration_ms(-1, 120) == 0


def test_each_thread_has_its_own_connection(store):
    seen = {}

    def work(name):
        store.record(attempt(name))
        seen[name] = store.connection()

    threads = [threading.Thread(target=work, args=(f"q{n}",)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({id(c) for c in seen.values()} | {id(store.connection())}) == 5
    assert store.attempt_count() == 4


def test_backup_copies_everything_and_never_overwrites(store, tmp_path):
    store.record(attempt())
    target = tmp_path / "copy.sqlite3"
    store.backup(target)
    copy = open_store(target)
    assert copy.attempts() == store.attempts()
    copy.close()
    before = target.read_bytes()
    with pytest.raises(FileExistsError):
        store.backup(target)
    assert target.read_bytes() == before


# --- files that cannot be used: a clear reason, and the bytes untouched ---------------------


def refused(path, key, **options) -> Unavailable:
    before = path.read_bytes()
    result = open_history(path, **options)
    assert isinstance(result, Unavailable), result
    assert result.key == key
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]  # no -wal, -shm or backup
    for lang in ("en", "ja"):
        assert str(path) in result.message(lang)
    return result


def filled_store(path, count=300):
    with open_store(path) as history:
        for n in range(count):
            history.record(attempt(f"q{n % 40}", at_ms=START_MS + n * 60_000, response="x" * 200))
    assert not path.with_name(path.name + "-wal").exists()  # the last close checkpointed it


def test_a_garbage_file_is_reported_and_left_untouched(tmp_path):
    path = tmp_path / "history.sqlite3"
    path.write_bytes(b"these are my notes, not a database\n" * 200)
    refused(path, "not_history")


def test_a_file_with_a_sqlite_header_and_garbage_after_it_is_reported_as_damaged(tmp_path):
    path = tmp_path / "history.sqlite3"
    filled_store(path)
    data = bytearray(path.read_bytes())
    data[100:] = bytes((i * 7 + 3) % 256 for i in range(len(data) - 100))
    path.write_bytes(bytes(data))
    assert refused(path, "damaged").detail


@pytest.mark.parametrize("keep", [10, 99, 3 * 4096 + 17, 0.5])
def test_a_truncated_file_is_reported_and_left_untouched(tmp_path, keep):
    path = tmp_path / "history.sqlite3"
    filled_store(path)
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep) if isinstance(keep, float) else keep])
    refused(path, "truncated")


def test_an_empty_file_is_a_new_history(tmp_path):
    path = tmp_path / "history.sqlite3"
    path.touch()
    with open_store(path) as history:
        history.record(attempt())
        assert history.attempt_count() == 1


def test_a_file_from_a_newer_schema_is_reported_and_left_untouched(tmp_path):
    path = tmp_path / "history.sqlite3"
    filled_store(path, 3)
    connection = raw(path)
    connection.execute(f"PRAGMA user_version = {schema.CURRENT + 1}")
    connection.close()
    reason = refused(path, "newer")
    assert reason.params == {"version": schema.CURRENT + 1, "supported": schema.CURRENT}
    assert f"schema {schema.CURRENT + 1}" in reason.message("en")


def test_another_programs_database_is_not_taken_over(tmp_path):
    path = tmp_path / "history.sqlite3"
    connection = raw(path)
    connection.execute("CREATE TABLE recipes (name TEXT)")
    connection.execute("INSERT INTO recipes VALUES ('miso soup')")
    connection.close()
    refused(path, "not_history")


def test_a_read_only_file_is_reported_and_left_untouched(tmp_path):
    path = tmp_path / "history.sqlite3"
    filled_store(path, 3)
    path.chmod(0o444)
    refused(path, "read_only")


def test_a_locked_file_stops_recording_with_a_reason_and_loses_nothing(tmp_path):
    path = tmp_path / "history.sqlite3"
    with open_store(path, busy_timeout_s=0) as history:
        history.record(attempt())
        other = raw(path)
        other.execute("BEGIN EXCLUSIVE")
        with pytest.raises(HistoryUnavailable) as caught:
            history.record(attempt())
        assert caught.value.reason.key == "locked"
        assert "locked" in caught.value.reason.message("en") and "ロック" in caught.value.reason.message("ja")
        assert isinstance(open_history(path, busy_timeout_s=0), Unavailable)
        other.execute("ROLLBACK")
        history.record(attempt())
        assert history.attempt_count() == 2


def test_a_data_directory_that_cannot_be_made_is_reported(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("in the way")
    reason = open_history(blocker / "history.sqlite3")
    assert isinstance(reason, Unavailable) and reason.key == "cannot_open"
    assert blocker.read_text() == "in the way"


def test_a_failed_commit_leaves_nothing_behind_and_the_store_usable(store):
    store.record(attempt())
    # A commit that fails: a deferred check at COMMIT.
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"), store._transaction() as connection:
        connection.execute("PRAGMA defer_foreign_keys = ON")
        connection.execute("INSERT INTO easy_marks (attempt, at_ms) VALUES ('no-such-attempt', 0)")
    assert not store.connection().in_transaction
    store.record(attempt(at_ms=START_MS + 1))
    assert store.attempt_count() == 2
    assert raw(store.path).execute("SELECT count(*) FROM easy_marks").fetchone()[0] == 0
