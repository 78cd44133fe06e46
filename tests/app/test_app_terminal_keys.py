"""Keys as a real terminal delivers them: read while the app works, not one at a time."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from fixture_bank import PACK
from terminal_session import CTRL_Q, TerminalSession

F5 = b"\x1b[15~"


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_an_answer_typed_as_fresh_numbers_come_reaches_the_new_field(tmp_path: Path) -> None:
    env = {"QUIZ_DATA_DIR": str(tmp_path / "data"), "QUIZ_CONFIG_DIR": str(tmp_path / "config")}
    with TerminalSession(["practice", "--id", "fx-matrix#1", "--bank", str(PACK)], env) as app:
        assert app.read_until(lambda out: b"Read as" in out, timeout=30)
        # F5, then at once the answer and Enter, as a paste or a fast typist sends them: they
        # arrive while the answer field is being replaced, and they belong to the new one.
        app.press(F5)
        app.press(b"1 0 0; 1 0 0; 1 0 0\r")
        assert app.read_until(lambda out: b"Score" in out, timeout=20), "the answer was not graded"
        assert b"Type an answer first" not in app.output
        app.press(CTRL_Q)
        app.seconds_to_exit(timeout=10)
