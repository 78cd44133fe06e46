"""Text on its way to a terminal, stripped of the control characters that would steer it.

Pack text, learner text, file names and messages quoting them may hold ESC sequences that
recolour, retitle or clear the terminal, or write to the clipboard (OSC 52). Every character
of C0 (except newline and tab), DEL and C1 is removed here, in one place on the way out: the
command line writes through `terminal_safe_output`, the app renders through a line filter that
calls `terminal_safe` (quiz/ui/terminal_filter.py). Terminals draw these characters as
nothing, so stripping them changes no width.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Final, TextIO

CONTROL_CHARACTERS: Final = frozenset(
    chr(code) for code in (*range(0x20), *range(0x7F, 0xA0)) if chr(code) not in "\n\t"
)
_STRIP: Final = {ord(char): None for char in CONTROL_CHARACTERS}


def terminal_safe(text: str) -> str:
    """`text` without C0 controls (newline and tab kept), DEL and C1 controls, ESC among them."""
    return text.translate(_STRIP)


def visible_controls(text: str) -> str:
    """`text` with every character `terminal_safe` removes shown as a visible escape (ESC as \\x1b),
    for data written to a terminal that must not lose what it holds."""
    if not has_control_characters(text):
        return text
    return "".join(f"\\x{ord(char):02x}" if char in CONTROL_CHARACTERS else char for char in text)


def has_control_characters(text: str) -> bool:
    """True when `terminal_safe` would change `text` (a quick test before copying)."""
    return not CONTROL_CHARACTERS.isdisjoint(text)


class TerminalSafeWriter:
    """A text stream that writes everything through `terminal_safe` to the stream it wraps.

    Anything else (flush, fileno, isatty, encoding) is the wrapped stream's; closing or
    dropping the wrapper leaves that stream open.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(terminal_safe(text))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


@contextmanager
def terminal_safe_output() -> Iterator[None]:
    """Make standard output and standard error terminal-safe while the block runs."""
    stdout, stderr = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = TerminalSafeWriter(stdout), TerminalSafeWriter(stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = stdout, stderr
