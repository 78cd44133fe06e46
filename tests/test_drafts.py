"""Drafts of code answers on the real file system: whole after every save, even under kill -9, and a
draft that cannot be read is set aside, never overwritten."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from quiz import locations
from quiz.practice.drafts import draft_path, load_draft, save_draft


def test_a_saved_draft_loads_back_exactly():
    text = "import numpy as np\r\n# 日本語のコメント\ndef softmax(x, axis=-1):\n\treturn x\n"
    assert load_draft("implement-sdpa").text is None
    assert save_draft("implement-sdpa", text) is None
    assert load_draft("implement-sdpa").text == text
    assert save_draft("implement-sdpa", "second") is None
    assert load_draft("implement-sdpa").text == "second"
    assert sorted(p.name for p in draft_path("implement-sdpa").parent.iterdir()) == ["implement-sdpa.py"]


def test_a_draft_killed_mid_save_is_the_old_or_the_new_text_never_a_mix(tmp_path):
    # The child saves two large texts in turn, forever; it is killed right after its first save,
    # most likely in the middle of another.
    old, new = "a" * 300_000, "b" * 300_000
    script = textwrap.dedent(
        """
        from quiz.practice.drafts import save_draft
        old, new = "a" * 300_000, "b" * 300_000
        save_draft("q", old)
        print("saved", flush=True)
        while True:
            save_draft("q", new)
            save_draft("q", old)
        """
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, env={**os.environ})
    assert child.stdout.readline() == b"saved\n"
    child.send_signal(signal.SIGKILL)
    child.wait()
    child.stdout.close()
    assert load_draft("q").text in (old, new)


def test_a_draft_that_cannot_be_read_is_set_aside_and_kept():
    path = draft_path("q")
    path.parent.mkdir(parents=True)
    path.write_bytes(b"def f():\n    return '\xff'\n")
    loaded = load_draft("q")
    assert loaded.text is None and "kept as q.unreadable-1.py" in loaded.problem
    assert (path.parent / "q.unreadable-1.py").read_bytes() == b"def f():\n    return '\xff'\n"
    assert save_draft("q", "fresh") is None and load_draft("q").text == "fresh"
    path.write_bytes(b"\xfe")
    assert "kept as q.unreadable-2.py" in load_draft("q").problem


def test_a_draft_that_cannot_be_saved_says_why_and_raises_nothing(tmp_path, monkeypatch):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the data folder should be", encoding="utf-8")
    monkeypatch.setenv("QUIZ_DATA_DIR", str(blocked))
    assert locations.data_dir() == blocked
    problem = save_draft("q", "text")
    assert problem is not None and problem.startswith(f"{blocked}/drafts/q.py: ")
    monkeypatch.setenv("QUIZ_DATA_DIR", str(tmp_path / "ok"))
    assert "q.py: " in save_draft("q", "lone \ud800 surrogate")


def test_only_a_question_id_names_a_draft():
    for bad in ("../escape", "a/b", "", "Upper"):
        with pytest.raises(ValueError):
            draft_path(bad)
