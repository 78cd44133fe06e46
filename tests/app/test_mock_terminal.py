"""`quiz mock` in a real terminal: a 15-second interview left alone ends by itself, on its own
timer, and its questions are in `quiz history --json` with mode `mock`.

This is the test that shows the clocks' timer, the deadline and the history file working
together in a whole process. Its interview clock runs CLOCK_SPEED times faster
(QUIZ_MOCK_CLOCK_SPEED), so the 15 seconds pass in a fraction of that, and the deadline is
checked on the clock the process kept (the history file's record of the sitting), not on how
long this machine took.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

from quiz.mock.clock import SPEED_VARIABLE
from terminal import Terminal

CLOCK_SPEED = 10
INTERVIEW_SECONDS = 15.0  # --minutes 0.25
HANG_GUARD_SECONDS = 60.0
"""Longest wait for the interview to end by itself: only a clock or timer that stopped takes that long."""


def test_a_quarter_minute_mock_left_alone_ends_by_itself_and_is_in_history(tmp_path):
    env = {"QUIZ_DATA_DIR": str(tmp_path / "data"), "QUIZ_CONFIG_DIR": str(tmp_path / "config"), SPEED_VARIABLE: str(CLOCK_SPEED)}
    terminal = Terminal("mock", "--minutes", "0.25", "--questions", "2", "--seed", "3", env=env, size=(80, 24))
    try:
        terminal.wait_for("Interview 00:", timeout_s=HANG_GUARD_SECONDS)  # the interview's clock is shown
        terminal.wait_for("Practise what I missed", timeout_s=HANG_GUARD_SECONDS)  # the report's key: the interview is over
        terminal.type("\x11")  # ctrl+q
        assert terminal.process.wait(timeout=HANG_GUARD_SECONDS) == 0
    finally:
        terminal.close()
    history = subprocess.run([sys.executable, "-m", "quiz", "history", "--json"], env={**os.environ, **env}, capture_output=True, text=True)
    assert history.returncode == 0, history.stderr
    attempts = json.loads(history.stdout)
    assert len(attempts) == 2 and {a["mode"] for a in attempts} == {"mock"}
    # Nothing was typed: the question being asked has no answer, the other was not reached.
    verdicts = [(a["question"], a["verdict"], a.get("response")) for a in attempts]
    assert sorted(v for _, v, _ in verdicts) == ["no_answer", "not_reached"], verdicts
    # It ended at its deadline on the interview clock, not before: the question left unanswered
    # was shown `shown_s` into the interview and open for its `duration_ms` until the end.
    connection = sqlite3.connect(tmp_path / "data" / "history.sqlite3")
    try:
        [(status, shown_s, duration_ms)] = connection.execute(
            """SELECT mocks.status, mock_questions.shown_s, attempts.duration_ms
               FROM attempts JOIN mocks ON mocks.id = attempts.mock
               JOIN mock_questions ON mock_questions.mock = mocks.id AND mock_questions.question = attempts.question
               WHERE attempts.verdict = 'no_answer'"""
        ).fetchall()
    finally:
        connection.close()
    assert status == "finished"
    ended = shown_s + duration_ms / 1000
    assert ended >= INTERVIEW_SECONDS, ended
