"""The app with hostile packs in the packs folder (issue classes 3, 5, 6 and 7): it loads them
in a thread worker, shows home and a notice naming what it skipped, stays responsive, quits on
Ctrl+Q at once even while loading, and writes no control character from a pack to the terminal."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from quiz import locations
from quiz.ui.app import make_app
from quiz.ui.screens.home import HomeScreen
from quiz.ui.screens.question import QuestionScreen
from terminal_session import CTRL_Q, F2, TerminalSession
from test_terminal_text import HOSTILE, PAYLOADS

SIZE = (100, 40)

# Each would have run for minutes, filled memory or crashed the app before the budgets.
FOREVER = """\
- id: burns-forever
  type: number
  topic: softmax
  prompt: "{{ sum(H @ V) }}"
  params:
    n: {integer: [1, 2]}
  derived:
    H: array(ones((1024, 1024)), dtype="float16")
    V: array(ones((1024, 16)), dtype="float16")
    a: sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V) + sum(H @ V)
  constraints: ["False"]
  answer: n
- id: fills-memory
  type: number
  topic: softmax
  prompt: x
  params:
    P: {normal: [64, 64, 64, 64]}
    Q: {normal: [64, 64, 64, 64]}
  constraints: ["False"]
  answer: 1
"""
DEEP = "id: nested-deep\ntype: number\ntopic: softmax\nprompt: x\nanswer: " + "[" * 500 + "1" + "]" * 500 + "\n"
DIGITS = "id: many-digits\ntype: truefalse\ntopic: scaling\nprompt: x\nanswer: true\ndifficulty: " + "9" * 5000 + "\n"


def write_packs(packs: Path) -> None:
    packs.mkdir(parents=True, exist_ok=True)
    (packs / "forever.yaml").write_text(FOREVER, encoding="utf-8")
    (packs / "deep.yaml").write_text(DEEP, encoding="utf-8")
    (packs / "digits.yaml").write_text(DIGITS, encoding="utf-8")


async def test_hostile_packs_cost_only_themselves_and_the_app_stays_responsive(isolated_user_dirs):
    write_packs(locations.user_packs_dir())
    app = make_app(seed=3)
    async with app.run_test(size=SIZE) as pilot:
        # Home within 2 s: the loader reads every pack in a thread, bounded by the reading limits.
        await asyncio.wait_for(app.workers.wait_for_complete(), timeout=2)
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert {"burns-forever", "fills-memory"} <= set(app.bank.questions)
        notices = [n.message for n in app._notifications]
        [skipped] = [n for n in notices if "were skipped" in n]
        assert "deep.yaml:1:1 (nested-deep)" in skipped and "digits.yaml:1:1 (many-digits)" in skipped
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
    """Python waits for a running thread at exit; the loader must notice the worker is cancelled."""
    packs = tmp_path / "data" / "packs"
    packs.mkdir(parents=True)
    # Twelve 1 MiB packs of unknown fields, the slowest kind to load: over ten seconds in all.
    flood = "".join(
        f"- id: q{n}\n  type: truefalse\n  topic: scaling\n  prompt: x\n  answer: false\n"
        + "".join(f"  unknown_{i}: 1\n" for i in range(90))
        for n in range(1300)
    )
    flood = flood[: 1024 * 1024 - 200].rsplit("\n- id", 1)[0] + "\n"
    for i in range(12):
        (packs / f"flood-{i}.yaml").write_text(flood, encoding="utf-8")
    with TerminalSession([], quiz_env(tmp_path)) as app:
        assert app.read_until(lambda out: b"Loading the questions" in out, timeout=20)
        app.press(CTRL_Q)
        # A bench (bench/app_quit.py) measures this against the 1 s goal; here: no waiting for the load.
        assert app.seconds_to_exit(timeout=20) < 2.0
        assert app.process.returncode == 0


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
