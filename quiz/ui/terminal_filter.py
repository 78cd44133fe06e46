"""The app's way out to the terminal: every rendered line passes through `terminal_safe`.

Textual strips only a few control codes from text, so ESC and C1 characters in a pack's text
(or in a file name, a notice, a learner's paste) would reach the terminal inside a line. A line
filter sees every segment of every widget after rendering, the app's one place on the way out.
"""

from __future__ import annotations

from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

from quiz.base.terminal_text import has_control_characters, terminal_safe


class TerminalSafeFilter(LineFilter):
    """Removes control characters from the text of each segment; styles are left as they are."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        safe = []
        for segment in segments:
            if has_control_characters(segment.text):
                segment = Segment(terminal_safe(segment.text), segment.style, segment.control)
            safe.append(segment)
        return safe
