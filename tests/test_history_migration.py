"""Schema migrations: a file written by schema v1 (kept under tests/fixtures) opens as v2 with
everything it held, after a backup of the v1 file; v2's mock ids and drafts work on it."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from history_records import DAY_MS, START_MS, attempt, open_store
from quiz.history import schema

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "history-v1.sqlite3"
V1_COLUMNS = "id, at_ms, question, version, key, seed, inputs, lang, mode, response, score, verdict, misconception, hints, revealed, duration_ms"


def snapshot(path: Path) -> dict[str, list[tuple]]:
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {
            "version": [connection.execute("PRAGMA user_version").fetchone()],
            "attempts": connection.execute(f"SELECT {V1_COLUMNS} FROM attempts ORDER BY seq").fetchall(),
            "cards": connection.execute("SELECT question, card, due_ms, reviews, last_ms FROM cards ORDER BY question").fetchall(),
            "easy": connection.execute("SELECT attempt, at_ms FROM easy_marks").fetchall(),
            "settings": connection.execute("SELECT name, value FROM settings").fetchall(),
        }
    finally:
        connection.close()


@pytest.fixture
def v1_file(tmp_path):
    path = tmp_path / "history.sqlite3"
    shutil.copyfile(FIXTURE, path)
    return path


def test_the_fixture_is_a_v1_file():
    before = snapshot(FIXTURE)
    assert before["version"] == [(1,)] and len(before["attempts"]) == 5 and len(before["easy"]) == 1


def test_a_v1_file_migrates_to_the_current_schema_keeping_everything(v1_file):
    before = snapshot(v1_file)
    with open_store(v1_file) as store:
        assert schema.user_version(store.connection()) == schema.CURRENT == 2
        after = snapshot(v1_file)
        assert after["attempts"] == before["attempts"]
        assert after["cards"] == before["cards"] and after["easy"] == before["easy"] and after["settings"] == before["settings"]
        assert all(a.mock is None for a in store.attempts())
        for question in ("softmax-two", "causal-weights-3x3", "scaling-variance"):
            kept = store.card(question)
            assert store.reschedule_card(question) == kept  # the v1 cards are what v2 would build


def test_the_v1_file_is_backed_up_before_it_is_migrated(v1_file):
    before = snapshot(v1_file)
    open_store(v1_file).close()
    backup = v1_file.with_name("history.v1-backup.sqlite3")
    assert snapshot(backup) == before
    open_store(v1_file).close()  # already current: no second backup
    assert sorted(p.name for p in v1_file.parent.glob("*.sqlite3")) == ["history.sqlite3", "history.v1-backup.sqlite3"]


def test_the_committed_fixture_itself_is_never_changed(v1_file):
    original = FIXTURE.read_bytes()
    open_store(v1_file).close()
    assert FIXTURE.read_bytes() == original


def test_after_migration_mock_interviews_group_their_attempts(v1_file):
    with open_store(v1_file) as store:
        first = attempt("softmax-two", at_ms=START_MS + 20 * DAY_MS, mode="mock", mock="mock-1")
        second = attempt(
            "scaling-variance", at_ms=START_MS + 20 * DAY_MS + 1, mode="mock", mock="mock-1", score=0.0, verdict="not_reached", response=None
        )
        store.record(first)
        store.record(second)
        store.record(attempt("softmax-two", at_ms=START_MS + 21 * DAY_MS, mode="mock", mock="mock-2"))
        assert store.attempts(mock="mock-1") == [second, first]
        assert store.attempts(mock="mock-1", question="softmax-two") == [first]


def test_drafts_are_kept_replaced_and_discarded(v1_file):
    with open_store(v1_file) as store:
        assert store.draft("impl-softmax#3") is None
        store.save_draft("impl-softmax#3", "def softmax(z):\n", at_ms=START_MS)
        store.save_draft("impl-softmax#3", "def softmax(z):\n    z = z - z.max()\n", at_ms=START_MS + 1)
    with open_store(v1_file) as store:
        draft = store.draft("impl-softmax#3")
        assert (draft.text, draft.updated_ms) == ("def softmax(z):\n    z = z - z.max()\n", START_MS + 1)
        store.discard_draft("impl-softmax#3")
        assert store.draft("impl-softmax#3") is None
