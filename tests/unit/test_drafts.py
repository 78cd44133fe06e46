"""Drafts of code answers in the real history file: committed on every save, whole under kill -9,
saved in order off the caller's thread; when the history file cannot be used, kept in a file the
learner is told about, and taken back once it can."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading

import pytest

from history_records import stored_draft
from quiz.base import locations
from quiz.history.store import history_path
from quiz.practice.drafts import DraftSaver, DraftStore, draft_file

TEXT = "import numpy as np\r\n# 日本語のコメント\ndef softmax(x, axis=-1):\n\treturn x\n"


def damage_history() -> bytes:
    """Make the learner's history file one that cannot be used; returns its bytes."""
    path = history_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    data = b"these are my notes, not a database\n" * 50
    path.write_bytes(data)
    return data


def test_a_saved_draft_is_committed_to_the_history_file_and_loads_back_exactly():
    store = DraftStore()
    assert store.load("implement-sdpa").text is None
    assert store.save("implement-sdpa", TEXT) is None
    assert stored_draft("implement-sdpa") == TEXT  # committed: another connection sees it at once
    assert store.save("implement-sdpa", "second") is None
    store.close()
    again = DraftStore()
    assert again.load("implement-sdpa").text == "second"
    assert again.load("implement-gqa").text is None
    again.close()
    assert not (locations.data_dir() / "drafts").exists()  # no file while the history file works


def test_a_process_killed_mid_save_leaves_the_old_or_the_new_text_never_a_mix():
    # The child saves two large texts in turn, forever; it is killed right after its first save,
    # most likely in the middle of another.
    script = textwrap.dedent(
        """
        from quiz.practice.drafts import DraftStore
        store = DraftStore()
        old, new = "a" * 300_000, "b" * 300_000
        store.save("q", old)
        print("saved", flush=True)
        while True:
            store.save("q", new)
            store.save("q", old)
        """
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, env={**os.environ})
    assert child.stdout.readline() == b"saved\n"
    child.send_signal(signal.SIGKILL)
    child.wait()
    child.stdout.close()
    assert stored_draft("q") in ("a" * 300_000, "b" * 300_000)


def test_with_a_damaged_history_file_the_draft_goes_to_a_file_it_names_and_the_history_is_untouched():
    before = damage_history()
    store = DraftStore()
    loaded = store.load("implement-sdpa")
    path = draft_file("implement-sdpa")
    assert loaded.text is None
    for lang in ("en", "ja"):
        said = loaded.note.message(lang)
        assert str(history_path()) in said and str(path) in said
    assert loaded.note.message("en").endswith(f"Your code draft is being saved in {path} instead.")
    note = store.save("implement-sdpa", TEXT)
    assert note.key == "draft_elsewhere" and str(path) in note.message("en")
    assert path.read_bytes() == TEXT.encode("utf-8")  # exactly as typed, \r\n and tab included
    store.close()
    assert history_path().read_bytes() == before
    assert DraftStore().load("implement-sdpa").text == TEXT  # still damaged: read from the file


def test_once_the_history_file_works_again_a_newer_file_draft_is_taken_back_into_it():
    damage_history()
    DraftStore().save("implement-sdpa", TEXT)
    history_path().unlink()  # the learner moves the damaged file away
    store = DraftStore()
    loaded = store.load("implement-sdpa")
    assert (loaded.text, loaded.note) == (TEXT, None)
    assert stored_draft("implement-sdpa") == TEXT
    assert not draft_file("implement-sdpa").exists()  # its text is in the history file now
    store.close()


def test_a_file_draft_older_than_the_history_draft_is_left_alone():
    store = DraftStore()
    path = draft_file("q")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("older", encoding="utf-8")
    os.utime(path, (1_000_000, 1_000_000))  # 1970
    store.save("q", "newer")
    assert store.load("q").text == "newer"
    assert path.read_text(encoding="utf-8") == "older"
    store.close()


def test_a_file_draft_stamped_a_clock_tick_before_the_history_draft_still_counts_as_newer():
    # The kernel stamps files from a coarse clock: a file written right after a history save can
    # carry a time a few milliseconds before that save's (this made the test below flaky).
    store = DraftStore()
    store.save("q", "first")
    path = draft_file("q")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("second", encoding="utf-8")
    saved_ns = store.history().draft("q").updated_ms * 1_000_000
    os.utime(path, ns=(saved_ns - 4_000_000, saved_ns - 4_000_000))
    assert store.load("q").text == "second"
    store.close()


def test_a_history_file_locked_mid_session_sends_that_save_to_the_file_and_nothing_is_lost():
    store = DraftStore(busy_timeout_s=0)
    assert store.save("q", "first") is None
    other = sqlite3.connect(history_path())
    other.execute("BEGIN EXCLUSIVE")
    note = store.save("q", "second")
    assert note.key == "draft_elsewhere" and note.reason.key == "locked"
    assert "ロック" in note.message("ja")
    assert draft_file("q").read_text(encoding="utf-8") == "second"
    other.execute("ROLLBACK")
    other.close()
    assert store.load("q").text == "second"  # the newer text, taken back into the history file
    assert stored_draft("q") == "second"
    store.close()


def test_a_file_draft_that_cannot_be_read_is_set_aside_and_kept():
    damage_history()
    path = draft_file("q")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"def f():\n    return '\xff'\n")
    store = DraftStore()
    loaded = store.load("q")
    assert loaded.text is None and loaded.note.key == "draft_unreadable"
    assert "q.py: cannot be read, not UTF-8 text (byte 21); kept as q.unreadable-1.py" in loaded.note.message("en")
    assert (path.parent / "q.unreadable-1.py").read_bytes() == b"def f():\n    return '\xff'\n"
    assert store.save("q", "fresh").key == "draft_elsewhere" and store.load("q").text == "fresh"
    path.write_bytes(b"\xfe")
    assert "kept as q.unreadable-2.py" in store.load("q").note.message("ja")
    store.close()


def test_a_draft_that_cannot_be_saved_anywhere_says_why_and_raises_nothing(tmp_path, monkeypatch):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the data folder should be", encoding="utf-8")
    monkeypatch.setenv("QUIZ_DATA_DIR", str(blocked))
    store = DraftStore()
    note = store.save("q", "text")
    assert note.key == "draft_not_saved"
    assert note.message("en").startswith(f"Your code draft could not be saved: {blocked}/drafts/q.py: ")
    assert note.message("en").endswith("For now it is only in the editor.")
    monkeypatch.setenv("QUIZ_DATA_DIR", str(tmp_path / "ok"))
    assert DraftStore().save("q", "lone \ud800 surrogate").key == "draft_not_saved"


def test_only_a_question_id_names_a_draft_file():
    for bad in ("../escape", "a/b", "", "Upper"):
        with pytest.raises(ValueError):
            draft_file(bad)


def test_the_saver_commits_the_latest_text_off_the_callers_thread_and_close_waits_for_it():
    store = DraftStore()
    notes: list[tuple[object, str]] = []
    saver = DraftSaver(store, "q", lambda note: notes.append((note, threading.current_thread().name)))
    for n in range(200):
        saver.save(f"text {n}")
    assert saver.close(timeout=10)
    assert stored_draft("q") == "text 199"
    assert notes and all(note is None and thread == "draft q" for note, thread in notes)
    assert len(notes) <= 200  # texts typed while a save runs are saved once, as the latest
    store.close()


def test_the_saver_hears_where_a_save_went():
    damage_history()
    store = DraftStore()
    heard: list = []
    saver = DraftSaver(store, "q", heard.append)
    saver.save("typed")
    assert saver.close(timeout=10)
    [note] = heard
    assert note.key == "draft_elsewhere" and draft_file("q").read_text(encoding="utf-8") == "typed"
