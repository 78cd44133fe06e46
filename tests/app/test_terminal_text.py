"""Terminal injection (issue class 7): no control character from a pack, a file name or an
answer reaches the terminal, through the command line (real processes) or the app (a real pty)."""

import subprocess
import sys
from pathlib import Path

import pytest

from quiz.base.terminal_text import CONTROL_CHARACTERS, TerminalSafeWriter, terminal_safe

# YAML's double-quoted escapes put real ESC, BEL and C1 characters in the pack's text.
HOSTILE = r"""
- id: hostile-escapes
  type: choice
  topic: softmax
  prompt: "Prompt \e[31mRED-MARKER\e[0m, \e]0;PWNED-TITLE\a, \e]52;c;Q0xJUEJPQVJE\a, \e[2J CLEARED"
  explanation: "Explained \e[8mHIDDEN-MARKER"
  options:
    - {text: "Option \e[5mBLINK-MARKER", correct: true, feedback: "Feedback \x9b31mCSI-MARKER"}
    - {text: "Other \rCR-MARKER"}
  hints: ["Hint \e[1mBOLD-MARKER"]
- id: "unknown-field"
  type: truefalse
  topic: softmax
  prompt: x
  answer: true
  "\e]0;FIELD-TITLE\a": 1
"""
PAYLOADS = (b"\x1b[31m", b"\x1b]0;", b"\x1b]52;", b"\x1b[2J", b"\x1b[5m", b"\x1b[8m", b"\xc2\x9b", b"\x07", b"\r")


def test_terminal_safe_removes_c0_del_and_c1_and_keeps_the_rest():
    text = "".join(chr(code) for code in range(0x2300))
    safe = terminal_safe(text)
    assert not set(safe) & CONTROL_CHARACTERS
    assert "\n" in safe and "\t" in safe and "é" in safe and "√" in safe and "\u00a0" in safe
    assert len(text) - len(safe) == 32 - 2 + 1 + 32


def test_the_writer_strips_whatever_is_written_through_it():
    import io

    sink = io.StringIO()
    writer = TerminalSafeWriter(sink)
    assert writer.write("a\x1b]0;title\x07b\n") == len("a\x1b]0;title\x07b\n")
    assert sink.getvalue() == "a]0;titleb\n"


@pytest.fixture
def hostile(tmp_path) -> Path:
    # The file name holds an escape sequence too: it is quoted in every message about the pack.
    path = tmp_path / "pack\x1b[7m.yaml"
    path.write_text(HOSTILE, encoding="utf-8")
    return path


def quiz(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "quiz", *args], capture_output=True, timeout=60)


@pytest.mark.parametrize(
    "args",
    [
        ("list",),
        ("show", "hostile-escapes", "--answer"),
        ("show", "hostile-escapes", "--answer", "--json"),
        ("grade", "hostile-escapes", "--answer", "a"),
        ("grade", "hostile-escapes", "--answer", "\x1b]0;ANSWER-TITLE\x07"),
        ("grade", "hostile-escapes", "--answer", "\x1b]0;ANSWER-TITLE\x07", "--json"),
        ("validate",),
    ],
    ids=["list", "show", "show-json", "grade", "grade-unreadable", "grade-unreadable-json", "validate"],
)
def test_no_escape_byte_from_a_pack_reaches_the_output(hostile, args):
    command, *rest = args
    target = [str(hostile)] if command == "validate" else ["--bank", str(hostile)]
    result = quiz(command, *target, *rest)
    assert result.returncode in (0, 1, 3), result.stderr
    for stream in (result.stdout, result.stderr):
        assert b"\x1b" not in stream and b"\xc2\x9b" not in stream and b"\x07" not in stream and b"\r" not in stream
    shown = result.stdout + result.stderr
    if command in ("list", "show"):
        assert b"RED-MARKER" in shown  # the text itself still shows, only its controls are gone
    if command == "validate":
        assert b"[7m.yaml" in shown and b"0;FIELD-TITLE" in shown
