"""A worked value that is not a weight matrix: a number, a vector or a bracketed matrix.

A matrix too wide for the view is summarised on one line (its shape and the range of its
entries) rather than wrapped into several lines per row, which no one can read as a matrix.
"""

from __future__ import annotations

import numpy as np
from rich.cells import cell_len
from rich.text import Text as RichText
from textual.widget import Widget

from quiz.base.numbers import format_number, format_value
from quiz.locale.i18n import tr
from quiz.render.mathtext import markdown_to_plain


def tensor_lines(value: np.ndarray) -> list[str]:
    """The value as it is written in explanations: a number, `[a, b]`, or a bracketed block."""
    shown = value.item() if value.ndim == 0 else value
    return markdown_to_plain(format_value(shown)).strip("\n").split("\n")


class TensorView(Widget):
    """One worked value, fitted to the width of the view."""

    DEFAULT_CSS = """
    TensorView {
        height: auto;
        width: 1fr;
    }
    """

    def __init__(self, value: np.ndarray, lang: str, *, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.value = value
        self.lang = lang
        self.lines = tensor_lines(value)

    def fits(self, width: int) -> bool:
        return max(cell_len(line) for line in self.lines) <= width

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return len(self.lines) if self.fits(width) else 1

    def render(self) -> RichText:
        width = self.content_size.width
        if not width or self.fits(width):
            return RichText("\n".join(self.lines), no_wrap=True)
        return RichText(self.summary(), style="italic")

    def summary(self) -> str:
        """`8×16 matrix, entries from −2.1 to 3.4 (too wide to show here)` in the interface language."""
        shape = "×".join(str(n) for n in self.value.shape)
        low, high = (format_number(float(f(self.value))) for f in (np.min, np.max))
        return tr("ui.tensor_summary", self.lang, shape=shape, low=low, high=high)
