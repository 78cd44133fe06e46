"""Issue 34: a history file replaced by something else never blocks, crashes or loses anything. A
FIFO in its place would hold open() for ever; a trigger someone else added refuses the quiz's
writes. Each command says "history cannot be used" (exit 4), and the file is left as it was."""

from __future__ import annotations

import os
import sqlite3
import stat
import threading

import pytest

from quiz.cli.main import main
from quiz.history.store import history_path, open_history
from quiz.history.unavailable import DAMAGED, NOT_HISTORY, Unavailable

KEY = "causal-weights-3x3#3"
RIGHT = "1 0 0; 0.7311 0.2689 0; 0.2741 0.2741 0.4519"
COMMANDS = [["grade", KEY, "--answer", RIGHT, "--record"], ["history"], ["stats"], ["review", "--list"], ["export"]]


def run_bounded(capsys, *argv: str) -> tuple[int, str, str]:
    """main(argv), in a thread: a command blocked for ever fails the test instead of hanging it."""
    done: list[int] = []
    worker = threading.Thread(target=lambda: done.append(main(list(argv))), daemon=True)
    worker.start()
    worker.join(timeout=120)  # a guard against a hang, not a measure of speed: the command returns at once
    assert done, f"quiz {' '.join(argv)} blocked"
    out, err = capsys.readouterr()
    return done[0], out, err


@pytest.fixture
def fifo():
    path = history_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)  # no writer: opening it for reading without O_NONBLOCK waits for ever
    return path


@pytest.mark.parametrize("command", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_a_fifo_in_place_of_the_history_blocks_no_command(capsys, fifo, command):
    code, _, err = run_bounded(capsys, *command)
    assert code == 4 and "is not a quiz history file" in err and "internal error" not in err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # left as it was


def test_opening_history_at_the_apps_start_does_not_block_on_a_fifo(fifo):
    found: list[object] = []
    opener = threading.Thread(target=lambda: found.append(open_history()), daemon=True)
    opener.start()
    opener.join(timeout=120)
    assert found and isinstance(found[0], Unavailable) and found[0].key == NOT_HISTORY


def test_a_directory_in_place_of_the_history_is_not_a_history_file(capsys):
    history_path().mkdir(parents=True, exist_ok=True)
    code, _, err = run_bounded(capsys, "history")
    assert code == 4 and "is not a quiz history file" in err


def test_a_foreign_trigger_is_history_that_cannot_be_used_and_loses_nothing(capsys):
    code, _, _ = run_bounded(capsys, "grade", KEY, "--answer", RIGHT, "--record")
    assert code == 0
    with sqlite3.connect(history_path()) as connection:
        connection.execute("CREATE TRIGGER not_ours BEFORE INSERT ON attempts BEGIN SELECT RAISE(ABORT, 'attempts are append-only'); END")
    code, out, err = run_bounded(capsys, "grade", KEY, "--answer", RIGHT, "--record")
    assert code == 4 and "internal error" not in err
    assert "is damaged (a write was refused by a rule the quiz did not make: attempts are append-only)" in err
    assert out.startswith("Correct")  # the grade is given all the same
    history = open_history()
    assert not isinstance(history, Unavailable)
    assert history.attempt_count() == 1  # the attempt saved before is there; nothing was lost
    history.close()


def test_the_reason_of_a_foreign_constraint_is_damaged(tmp_path):
    from quiz.history.unavailable import from_sqlite_error

    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE TABLE t (x)")
    connection.execute("CREATE TRIGGER no BEFORE INSERT ON t BEGIN SELECT RAISE(ABORT, 'no'); END")
    with pytest.raises(sqlite3.IntegrityError) as refused:
        connection.execute("INSERT INTO t VALUES (1)")
    assert from_sqlite_error(refused.value, tmp_path / "h").key == DAMAGED
