"""A status line of short parts ("level 2", "time 1:30") that wraps only between parts, so a
narrow terminal never splits "level" from its number."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from textual.content import Content
from textual.geometry import Size
from textual.widgets import Static

SEPARATOR = " · "
"""Between the parts of a status line, as between the header's title and subtitle."""


def fit_parts(parts: Sequence[str], width: int) -> list[str]:
    """`parts` joined by SEPARATOR into lines of at most `width` cells, broken only between parts
    (a part wider than `width` has a line of its own, wrapped there as ordinary text)."""
    lines: list[str] = []
    for part in parts:
        if lines and cell_len(lines[-1] + SEPARATOR + part) <= width:
            lines[-1] += SEPARATOR + part
        else:
            lines.append(part)
    return lines


class StatusLine(Static):
    """Parts joined by " · ", wrapped between parts to the widget's width."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self.parts: list[str] = []

    def show(self, parts: Sequence[str]) -> None:
        """Show `parts`; the lines are laid out again for the width at each render."""
        self.parts = list(parts)
        self.update(SEPARATOR.join(self.parts))  # Static's content, for a layout pass and for `str()`

    def render(self) -> Content:
        return Content("\n".join(fit_parts(self.parts, self.content_size.width or 10**6)))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(1, sum(len(Content(line).wrap(width)) for line in fit_parts(self.parts, width)))
