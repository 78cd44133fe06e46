"""The app with hostile packs in the packs folder (issue classes 3, 5, 6 and 7): it loads them
in a thread worker, shows home and a notice naming what it skipped, stays responsive, quits on
Ctrl+Q at once even while loading, and writes no control character from a pack to the terminal."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from pilot_waits import Heard
from places import TESTS
from quiz.bank.loading import HOLD_VARIABLE
from quiz.base import locations
from quiz.ui.app import make_app
from quiz.ui.screens.home import HomeScreen
from quiz.ui.screens.question import QuestionScreen
from terminal_session import CTRL_Q, F2, TerminalSession
from test_terminal_text import HOSTILE, PAYLOADS

SIZE = (100, 40)
HANG_GUARD_SECONDS = 60
"""Longest wait for what a test waits on in a real terminal: only a hang takes that long."""
LOADING_GUARD_SECONDS = 30
"""Longest wait for the packs of FOREVER to load, on any machine: under the minutes each took."""

CORPUS = TESTS / "hostile"
# Each would have run for minutes, filled memory or crashed the app before the budgets.
FOREVER = (
    "c1-float16-products-unsatisfiable.yaml",
    "c2-huge-parameter-unsatisfiable.yaml",
    "c2-answer-nested-500.yaml",
    "c5-difficulty-5000-digits.yaml",
)


def write_packs(packs: Path) -> None:
    packs.mkdir(parents=True, exist_ok=True)
    for name in FOREVER:
        (packs / name).write_bytes((CORPUS / name).read_bytes())


async def test_hostile_packs_cost_only_themselves_and_the_app_stays_responsive(isolated_user_dirs):
    write_packs(locations.user_packs_dir())
    app = make_app(seed=3)
    async with app.run_test(size=SIZE, message_hook=(heard := Heard())) as pilot:
        # Home: the loader reads every pack in a thread, bounded by the reading limits (it draws no
        # variant), where each pack would have run for minutes.
        await asyncio.wait_for(app.workers.wait_for_complete(), timeout=LOADING_GUARD_SECONDS)
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert {"c1-products-false", "c2-huge-param-false"} <= set(app.bank.questions)
        [skipped] = [n for n in heard.notices if "were skipped" in n]
        assert "c2-answer-nested-500.yaml:4:1 (c2-deep-answer)" in skipped
        assert "c5-difficulty-5000-digits.yaml:4:1 (c5-difficulty-5000-digits)" in skipped
        # Practising everything meets the hostile questions: each fails within its budget and
        # is skipped, and a bundled question opens.
        for _ in range(3):
            await pilot.press("enter")
            await pilot.pause()
            if isinstance(app.screen, QuestionScreen):
                break
        assert isinstance(app.screen, QuestionScreen)
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_code == 0


def quiz_env(home: Path) -> dict[str, str]:
    return {"QUIZ_DATA_DIR": str(home / "data"), "QUIZ_CONFIG_DIR": str(home / "config")}


def test_ctrl_q_quits_at_once_while_packs_are_still_loading(tmp_path):
    """Python waits for a running thread at exit; the loader must notice the worker is cancelled.

    Loading is held (QUIZ_HOLD_LOADING) for as long as the hold file exists, which is to the end:
    the app can only exit by noticing the cancel, not by finishing the load, however fast the
    machine. bench/hostile_packs.py measures how long quitting takes against the 1 s goal."""
    hold = tmp_path / "hold-loading"
    hold.touch()
    with TerminalSession([], {**quiz_env(tmp_path), HOLD_VARIABLE: str(hold)}) as app:
        assert app.read_until(lambda out: b"Loading the questions" in out, timeout=HANG_GUARD_SECONDS)
        app.press(CTRL_Q)
        app.seconds_to_exit(timeout=HANG_GUARD_SECONDS)  # raises if it is still running by then
        assert app.process.returncode == 0
    assert hold.exists(), "the app quit with its packs still loading"


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_no_escape_from_a_pack_reaches_the_terminal_in_the_app(tmp_path):
    pack = tmp_path / "pack.yaml"
    pack.write_text(HOSTILE, encoding="utf-8")
    args = ["practice", "--id", "hostile-escapes", "--bank", str(pack)]
    with TerminalSession(args, quiz_env(tmp_path)) as app:
        assert app.read_until(lambda out: b"RED-MARKER" in out and b"BLINK-MARKER" in out, timeout=20)
        app.press(F2)
        assert app.read_until(lambda out: b"BOLD-MARKER" in out, timeout=10)
        app.press(CTRL_Q)
        app.seconds_to_exit(timeout=10)
    written = app.output
    for payload in PAYLOADS:
        if payload == b"\x07":  # Textual ends its own OSC 22 (pointer shape) with BEL
            assert written.count(b"\x07") == written.count(b"\x1b]22;")
        elif payload == b"\r":  # the terminal turns each newline into CR LF
            assert b"\rCR-MARKER" not in written and b"CR-MARKER" in written
        else:
            assert payload not in written, payload


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_brackets_from_settings_or_a_pack_in_a_notice_are_shown_as_written(tmp_path):
    """Notices quote the settings file and pack messages: `[/]` in them is text, not Textual
    markup (it crashed the app with a MarkupError, then exited 0)."""
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_bytes((CORPUS / "settings" / "c9-theme-markup.json").read_bytes())
    args = ["practice", "--id", "c7-markup", "--bank", str(CORPUS / "c7-markup-in-a-message.yaml")]
    with TerminalSession(args, quiz_env(tmp_path)) as app:
        shown = app.read_until(lambda out: b"available" in out and b"prepared" in out and b"Pick how to practise" in out, timeout=20)
        app.press(CTRL_Q)
        app.seconds_to_exit(timeout=10)
    assert b"MarkupError" not in app.output and b"Traceback" not in app.output
    assert shown, app.output[-2000:]
