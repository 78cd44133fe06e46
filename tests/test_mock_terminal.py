"""`quiz mock` in a real terminal: a 15-second interview left alone ends by itself, on the real
timer, and its questions are in `quiz history --json` with mode `mock`.

This is the one test that waits in real time (the interview's 15 seconds): it is what shows the
clocks' timer, the deadline and the history file working together in a whole process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from terminal import Terminal


def test_a_quarter_minute_mock_left_alone_ends_by_itself_and_is_in_history(tmp_path):
    env = {"QUIZ_DATA_DIR": str(tmp_path / "data"), "QUIZ_CONFIG_DIR": str(tmp_path / "config")}
    terminal = Terminal("mock", "--minutes", "0.25", "--questions", "2", "--seed", "3", env=env, size=(80, 24))
    try:
        terminal.wait_for("Interview 00:1")  # the clock is running (00:15 or, a beat later, 00:14)
        started = time.monotonic()
        terminal.wait_for("Practise what I missed", timeout_s=60)  # the report's key: the interview is over
        took = time.monotonic() - started
        terminal.type("\x11")  # ctrl+q
        assert terminal.process.wait(timeout=60) == 0
    finally:
        terminal.close()
    assert 12 <= took <= 30, took
    history = subprocess.run([sys.executable, "-m", "quiz", "history", "--json"], env={**os.environ, **env}, capture_output=True, text=True)
    assert history.returncode == 0, history.stderr
    attempts = json.loads(history.stdout)
    assert len(attempts) == 2 and {a["mode"] for a in attempts} == {"mock"}
    # Nothing was typed: the question being asked has no answer, the other was not reached.
    assert sorted(a["verdict"] for a in attempts) == ["no_answer", "not_reached"]
