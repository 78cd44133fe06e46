"""Schema migrations: a file written by schema v1 (kept under tests/fixtures) opens as v2 with
everything it held, after a backup of the v1 file; v2's mock ids and drafts work on it."""

from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from history_records import DAY_MS, START_MS, attempt, open_store
from places import TESTS
from quiz.history import schema
from quiz.history.records import MODES, Mode

FIXTURE = TESTS / "fixtures" / "history-v1.sqlite3"
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
        assert schema.user_version(store.connection()) == schema.CURRENT == 5
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


FIXTURE_V2 = FIXTURE.with_name("history-v2.sqlite3")
V2_COLUMNS = V1_COLUMNS + ", mock"


def snapshot_v2(path: Path) -> dict[str, list[tuple]]:
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {
            "version": [connection.execute("PRAGMA user_version").fetchone()],
            "attempts": connection.execute(f"SELECT {V2_COLUMNS} FROM attempts ORDER BY seq").fetchall(),
            "cards": connection.execute("SELECT question, card, due_ms, reviews, last_ms FROM cards ORDER BY question").fetchall(),
            "easy": connection.execute("SELECT attempt, at_ms FROM easy_marks").fetchall(),
            "drafts": connection.execute("SELECT key, text, updated_ms FROM drafts").fetchall(),
            "settings": connection.execute("SELECT name, value FROM settings").fetchall(),
        }
    finally:
        connection.close()


@pytest.fixture
def v2_file(tmp_path):
    path = tmp_path / "history.sqlite3"
    shutil.copyfile(FIXTURE_V2, path)
    return path


def test_the_v2_fixture_is_a_v2_file_with_a_mock_attempt_and_a_draft():
    before = snapshot_v2(FIXTURE_V2)
    assert before["version"] == [(2,)] and len(before["attempts"]) == 4 and len(before["drafts"]) == 1
    assert [row[-1] for row in before["attempts"]].count("mock-old-1") == 2


def test_a_v2_file_migrates_to_the_current_schema_keeping_everything_after_a_backup(v2_file):
    before = snapshot_v2(v2_file)
    original = FIXTURE_V2.read_bytes()
    with open_store(v2_file) as store:
        assert schema.user_version(store.connection()) == schema.CURRENT
        after = snapshot_v2(v2_file)
        assert {k: v for k, v in after.items() if k != "version"} == {k: v for k, v in before.items() if k != "version"}
        assert store.mocks() == [] and store.running_mocks() == []
        assert [a.question for a in store.attempts(mock="mock-old-1")] == ["causal-weights-3x3", "softmax-two"]
    assert snapshot_v2(v2_file.with_name("history.v2-backup.sqlite3")) == before
    assert FIXTURE_V2.read_bytes() == original


def test_after_migration_to_v3_a_mock_is_stored_with_its_questions_and_spoken_answers(v2_file):
    from quiz.history.mocks import AskedRow, MockProgress, MockRow, SpokenRow

    row = MockRow("m-1", "mock-3-5m-1q-abcd", {"minutes": 5}, [{"question": "softmax-two", "seed": 7, "budget": 60.0}],
                  "ja", "each", 100.5, 1_750_000_000.25, "boot-1", START_MS)  # fmt: skip
    spoken = SpokenRow(attempt("x").id, "m-1", 2, "explain-x", "v1", "explain-x", 0, {}, "ja", "メモ", START_MS + 5, 30_000)
    with open_store(v2_file) as store:
        store.save_mock(MockProgress("m-1", mock=row, asked=[AskedRow("m-1", 1, "softmax-two", 7, 60.0, None, 0.0)]))
        store.save_mock(MockProgress("m-1", asked=[AskedRow("m-1", 2, "explain-x", 0, 120.0, "softmax-two", 31.5)]))
        store.save_mock(MockProgress("m-1", spoken=[spoken], finished_ms=START_MS + 60_000))
    with open_store(v2_file) as store:
        stored = store.mock("m-1")
        assert stored.row.status == "finished" and stored.row.finished_ms == START_MS + 60_000
        assert stored.row.options == {"minutes": 5} and stored.row.start_clock == 100.5 and stored.row.start_boot == "boot-1"
        assert [a.follow_up_of for a in stored.asked] == [None, "softmax-two"] and stored.asked[1].shown_s == 31.5
        assert stored.spoken == (spoken,)


def test_the_schema_admits_exactly_the_modes_of_the_enumeration(tmp_path):
    """A mode added to `Mode` needs a migration: a file's CHECK cannot change after it is made."""
    connection = sqlite3.connect(tmp_path / "h.sqlite")
    with connection:
        schema.migrate(connection, 0)
    sql = connection.execute("SELECT sql FROM sqlite_master WHERE name = 'attempts'").fetchone()[0]
    connection.close()
    checked = re.search(r"mode IN \(([^)]*)\)", sql)
    assert checked is not None
    assert [value.strip(" '") for value in checked.group(1).split(",")] == list(MODES) == [mode.value for mode in Mode]


def test_a_v3_file_with_a_mock_migrates_to_v4_keeping_it_and_then_keeps_pushbacks(tmp_path):
    """v4 adds the pushbacks table only: a v3 sitting (chain rows included) is read as it was."""
    from quiz.history.mocks import AskedRow, MockProgress, MockRow
    from quiz.history.pushbacks import PushbackRow

    path = tmp_path / "history.sqlite3"
    connection = sqlite3.connect(path)
    with connection:
        schema.migrate(connection, 0, 3)
    connection.close()
    row = MockRow("m-3", "mock-3-5m-1q-abcd", {"minutes": 5}, [{"question": "softmax-two", "seed": 7, "budget": 60.0}],
                  "en", "end", 100.5, 1_750_000_000.25, "boot-1", START_MS)  # fmt: skip
    first = attempt("softmax-two", mode=Mode.MOCK, mock="m-3")
    with sqlite3.connect(path) as raw:  # written as v3 code wrote it
        raw.execute(
            "INSERT INTO mocks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', NULL)",
            (row.id, row.key, '{"minutes":5}', '[{"budget":60.0,"question":"softmax-two","seed":7}]', "en", "end", 100.5,
             1_750_000_000.25, "boot-1", START_MS),
        )  # fmt: skip
        raw.executemany(
            "INSERT INTO mock_questions VALUES (?, ?, ?, ?, ?, ?, ?)",
            [("m-3", 1, "softmax-two", 7, 60.0, None, 0.0), ("m-3", 2, "scaling-variance", 1, 60.0, "softmax-two", 30.0),
             ("m-3", 3, "causal-weights-3x3", 2, 60.0, "scaling-variance", 60.0)],
        )  # fmt: skip
    raw.close()
    with open_store(path) as store:
        assert schema.user_version(store.connection()) == schema.CURRENT == 5
        stored = store.mock("m-3")
        assert [(a.question, a.follow_up_of) for a in stored.asked] == [
            ("softmax-two", None), ("scaling-variance", "softmax-two"), ("causal-weights-3x3", "scaling-variance")
        ]
        assert stored.row == row and stored.pushbacks == ()
        met = PushbackRow(attempt("x").id, first.id, "m-3", "softmax-two", "hold", None, 1.0, "correct", START_MS + 9, 4_000)
        store.save_mock(MockProgress("m-3", attempts=[first], pushbacks=[met], asked=[AskedRow("m-3", 4, "b", 0, 60.0, None, 90.0)]))
    with open_store(path) as store:
        assert store.mock("m-3").pushbacks == (met,)
    assert path.with_name("history.v3-backup.sqlite3").exists()


FIXTURE_V4 = FIXTURE.with_name("history-v4.sqlite3")
V4_COLUMNS = V2_COLUMNS


def snapshot_v4(path: Path) -> dict[str, list[tuple]]:
    """Every table a v4 file has, as v4 code reads it."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        tables = {
            "attempts": f"SELECT {V4_COLUMNS} FROM attempts ORDER BY seq",
            "cards": "SELECT question, card, due_ms, reviews, last_ms FROM cards ORDER BY question",
            "easy": "SELECT attempt, at_ms FROM easy_marks",
            "drafts": "SELECT key, text, updated_ms FROM drafts",
            "settings": "SELECT name, value FROM settings",
            "mocks": "SELECT * FROM mocks",
            "mock_questions": "SELECT * FROM mock_questions",
            "pushbacks": "SELECT * FROM pushbacks",
        }
        return {"version": [connection.execute("PRAGMA user_version").fetchone()]} | {
            name: connection.execute(sql).fetchall() for name, sql in tables.items()
        }
    finally:
        connection.close()


def test_the_v4_fixture_is_a_v4_file_with_a_packs_attempts_a_mock_and_a_pushback():
    """Written by the v4 code (attempts at the bundled cross-attention-shapes and at fx-number of
    tests/fixtures/pack, one of them in a finished mock with a pushback held, an easy mark, a draft)."""
    before = snapshot_v4(FIXTURE_V4)
    assert before["version"] == [(4,)] and len(before["attempts"]) == 4
    assert len(before["mocks"]) == len(before["pushbacks"]) == len(before["easy"]) == len(before["drafts"]) == 1


def test_a_v4_file_migrates_to_v5_keeping_everything_after_a_backup_its_attempts_without_a_recorded_topic(tmp_path):
    path = tmp_path / "history.sqlite3"
    shutil.copyfile(FIXTURE_V4, path)
    before = snapshot_v4(path)
    original = FIXTURE_V4.read_bytes()
    with open_store(path) as store:
        assert schema.user_version(store.connection()) == schema.CURRENT == 5
        assert {k: v for k, v in snapshot_v4(path).items() if k != "version"} == {k: v for k, v in before.items() if k != "version"}
        assert [(a.topic, a.claims) for a in store.attempts()] == [(None, None)] * 4
        assert store.mock("mock-v4-1").pushbacks[0].choice == "hold"
        placed = attempt("fx-number", at_ms=START_MS + 5 * DAY_MS, topic="scaling", claims=("B4",))
        store.record(placed)
    with open_store(path) as store:
        assert store.attempts(question="fx-number")[0] == placed
    assert snapshot_v4(path.with_name("history.v4-backup.sqlite3")) == before
    assert FIXTURE_V4.read_bytes() == original


def test_statistics_place_an_attempt_by_what_it_recorded_and_an_older_one_by_the_bank(tmp_path):
    """v5 attempts count under their recorded topic and claims whatever the bank holds; the v4
    fixture's attempts under the catalogue's, and not at all when their question is not in it."""
    from datetime import UTC, datetime

    from quiz.history.stats import QuestionInfo, statistics

    path = tmp_path / "history.sqlite3"
    shutil.copyfile(FIXTURE_V4, path)
    now = datetime.fromtimestamp((START_MS + 10 * DAY_MS) / 1000, UTC)
    with open_store(path) as store:
        store.record(attempt("fx-number", at_ms=START_MS + 5 * DAY_MS, topic="scaling", claims=("B4", "pack:R1")))
        bundled_only = {"cross-attention-shapes": QuestionInfo("attention", ("A1",))}
        result = statistics(store, bundled_only, now)
    assert {name: w.all_time.attempts for name, w in result.topics.items()} == {"attention": 2, "scaling": 1}
    assert {name: w.all_time.attempts for name, w in result.claims.items()} == {"A1": 2, "B4": 1, "pack:R1": 1}
    assert result.topics["attention"].all_time.mean_score == 0.5
