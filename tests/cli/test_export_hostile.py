"""Issue 34: `quiz export --format csv` neither runs formulas in a spreadsheet (cells beginning with
= + - @, a tab or a carriage return are written with a leading ') nor steers the terminal it writes
to (ESC, OSC and other control characters shown as escapes). An export imports back exactly."""

from __future__ import annotations

import csv
import os
import pty
import subprocess
import sys

import pytest

from history_records import attempt, open_store
from quiz.cli.main import main
from quiz.history.store import history_path

HOSTILE = [
    "=HYPERLINK(\"http://example.com\",\"click\")",
    "+1+1",
    "-0.3",
    "@SUM(A1:A9)",
    "\tleading tab",
    "\rleading return",
    "'already quoted",
    "\x1b]52;c;Y2xpcGJvYXJk\x07 clipboard \x1b[2J cleared \x9b31m red",
    "plain 0.88, 0.12",
]


@pytest.fixture
def stored():
    history = open_store(history_path())
    for index, response in enumerate(HOSTILE):
        history.record(attempt(at_ms=1_750_000_000_000 + index, response=response))
    history.close()


def test_csv_cells_that_a_spreadsheet_would_run_are_written_as_text(capsys, stored, tmp_path):
    target = tmp_path / "history.csv"
    assert main(["export", "-o", str(target)]) == 0
    with target.open(encoding="utf-8-sig", newline="") as exported:
        rows = list(csv.DictReader(exported))
    cells = [row["response"] for row in rows]
    assert cells[:7] == ["'" + response for response in HOSTILE[:7]]
    assert cells[8] == "plain 0.88, 0.12"
    assert all(not cell.startswith(("=", "+", "-", "@", "\t", "\r")) for row in rows for cell in row.values())


def test_a_csv_export_imports_back_exactly(capsys, stored, tmp_path, monkeypatch):
    target = tmp_path / "history.csv"
    assert main(["export", "-o", str(target)]) == 0
    monkeypatch.setenv("QUIZ_DATA_DIR", str(tmp_path / "elsewhere"))
    assert main(["import", str(target)]) == 0
    history = open_store(history_path())
    assert sorted(a.response for a in history.attempts()) == sorted(HOSTILE)
    history.close()


@pytest.mark.parametrize("fmt", ["csv", "jsonl"])
def test_an_export_to_a_terminal_shows_control_characters_instead_of_sending_them(stored, fmt):
    controller, terminal = pty.openpty()
    try:
        command = [sys.executable, "-m", "quiz", "export", "--format", fmt]
        run = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=terminal, stderr=subprocess.PIPE, env=os.environ)
        os.close(terminal)
        received = b""
        while True:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # EIO: the command ended and closed its side
                break
            if not chunk:
                break
            received += chunk
        assert run.wait(timeout=120) == 0, run.stderr.read() if run.stderr else ""
    finally:
        os.close(controller)
    text = received.decode("utf-8")
    assert "\x1b" not in text and "\x07" not in text and "\x9b" not in text
    escape, bell, carriage_return = ("\\x1b", "\\x07", "\\x0d") if fmt == "csv" else ("\\u001b", "\\u0007", "\\r")  # JSON's own
    assert f"{escape}]52;c;Y2xpcGJvYXJk{bell} clipboard" in text and "\\x9b31m red" in text
    assert f"{carriage_return}leading return" in text


def test_an_export_to_a_pipe_is_the_data_itself(stored):
    run = subprocess.run([sys.executable, "-m", "quiz", "export", "--format", "csv"], capture_output=True, env=os.environ, timeout=120)
    assert run.returncode == 0
    assert b"\x1b]52;c;Y2xpcGJvYXJk\x07" in run.stdout and b"\r\n" in run.stdout
