"""A heatmap of attention weights drawn with shading characters and numbers.

Each cell shows a shade (░ ▒ ▓ █ by weight) and the weight itself, so the map still reads in a
terminal without colour (NO_COLOR) and in a screen reader's text. A cell the mask forbade shows
`·` instead, never a weight: an allowed weight of 0.00 and a masked cell read differently, and a
legend says which is which. When the numbers do not fit the width (16 keys at 80 columns), the
map keeps one shade per cell, shaded in quarters of the matrix's largest weight (spread over many
keys, every weight may be below a quarter), and ends each row with its largest weight and where.
"""

from __future__ import annotations

import math

import numpy as np
from rich.cells import cell_len
from rich.text import Text as RichText
from textual.widget import Widget

from quiz.locale.i18n import tr

SHADES = " ░▒▓█"
MASKED = "·"
CELL = 8  # two shade characters, a space, four digits and a gap: "▓▓ 0.73 "
COMPACT_CELL = 2
HEADER_EVERY = 4  # a compact map labels every fourth key


def shade(weight: float) -> str:
    """The shading character for a weight in [0, 1]: blank for 0, then one step per quarter."""
    if not np.isfinite(weight):
        return "?"
    if weight <= 0:
        return SHADES[0]
    return SHADES[min(len(SHADES) - 1, math.ceil(weight * (len(SHADES) - 1)))]


def shade_style(weight: float) -> str:
    """A blue that deepens with the weight (the shade carries the meaning without colour)."""
    level = int(235 - 200 * min(max(weight, 0.0), 1.0))
    return f"rgb({level},{level},255)"


def pack(items: list[str], width: int) -> list[str]:
    """`items` on as few lines as fit in `width` cells, two spaces apart (an item never splits)."""
    lines: list[str] = []
    for item in items:
        if lines and cell_len(lines[-1]) + 2 + cell_len(item) <= width:
            lines[-1] += "  " + item
        else:
            lines.append(item)
    return lines


class Heatmap(Widget):
    """A heatmap of one weight matrix (rows: queries, columns: keys) and its legend, fitted to its width."""

    DEFAULT_CSS = """
    Heatmap {
        height: auto;
        width: 1fr;
    }
    """

    def __init__(self, weights: np.ndarray, lang: str, allowed: np.ndarray | None = None, *, classes: str | None = None) -> None:
        super().__init__(classes=classes)
        self.weights = np.atleast_2d(np.asarray(weights, dtype=np.float64))
        self.allowed = None if allowed is None else np.atleast_2d(np.asarray(allowed, dtype=bool))
        self.lang = lang
        finite = self.weights[np.isfinite(self.weights)]
        self.top = float(finite.max()) if finite.size and finite.max() > 0 else 1.0
        """The largest weight: a compact map shades in quarters of it."""

    @property
    def has_masked_cells(self) -> bool:
        return self.allowed is not None and not self.allowed.all()

    def _is_masked(self, i: int, j: int) -> bool:
        return self.allowed is not None and not self.allowed[i, j]

    def _label_width(self) -> int:
        return len(f"q{self.weights.shape[0]}") + 1

    def is_compact(self, width: int) -> bool:
        """Whether `width` cells are too few for a number in every cell."""
        return bool(width) and self._label_width() + CELL * self.weights.shape[1] > width

    def legend_lines(self, width: int) -> list[str]:
        """What the shades and the masked mark stand for, wrapped to `width` between items."""
        compact = self.is_compact(width)
        items = [tr("ui.heatmap_legend_relative", self.lang, top=f"{self.top:.2f}")] if compact else tr("ui.heatmap_legend", self.lang).split("  ")
        if self.has_masked_cells:
            items.append(tr("ui.heatmap_masked", self.lang, mark=MASKED))
        return pack(items, width or 10_000)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return 1 + self.weights.shape[0] + len(self.legend_lines(width))  # key labels, the rows, the legend

    def render(self) -> RichText:
        width = self.content_size.width
        text = self.compact_text() if self.is_compact(width) else self.full_text()
        for line in self.legend_lines(width):
            text.append("\n")
            text.append(line, style="dim")
        return text

    def full_text(self) -> RichText:
        """Rows of `▓▓ 0.73` cells under key labels, one row per query."""
        rows, columns = self.weights.shape
        label_width = self._label_width()
        text = RichText(no_wrap=True)
        text.append(" " * label_width)
        for j in range(columns):
            text.append(f"k{j + 1}".rjust(CELL - 1) + " ", style="bold")
        for i in range(rows):
            text.append("\n")
            text.append(f"q{i + 1}".ljust(label_width), style="bold")
            for j in range(columns):
                weight = float(self.weights[i, j])
                if self._is_masked(i, j):
                    text.append(f"     {MASKED}  ", style="dim")  # where the weight's point would be
                elif np.isfinite(weight):
                    text.append(shade(weight) * 2, style=shade_style(weight))
                    text.append(f" {weight:.2f} ")
                else:
                    text.append("??  nan ")
        return text

    def compact_text(self) -> RichText:
        """One shade per cell, each row ending with its largest weight and the key it falls on."""
        rows, columns = self.weights.shape
        label_width = self._label_width()
        text = RichText(no_wrap=True)
        header = "".join(f"k{j + 1}".ljust(COMPACT_CELL * HEADER_EVERY) for j in range(0, columns, HEADER_EVERY))
        text.append(" " * label_width + header.rstrip(), style="bold")
        for i in range(rows):
            text.append("\n")
            text.append(f"q{i + 1}".ljust(label_width), style="bold")
            for j in range(columns):
                weight = float(self.weights[i, j])
                if self._is_masked(i, j):
                    text.append(MASKED + " ", style="dim")
                else:
                    text.append(shade(weight / self.top) * COMPACT_CELL, style=shade_style(weight) if np.isfinite(weight) else "")
            row = np.where(self._allowed_row(i), self.weights[i], -np.inf)
            at = int(np.argmax(row))
            text.append("  " + tr("ui.heatmap_row_max", self.lang, value=f"{self.weights[i, at]:.2f}", key=f"k{at + 1}"), style="dim")
        return text

    def _allowed_row(self, i: int) -> np.ndarray:
        return np.ones(self.weights.shape[1], dtype=bool) if self.allowed is None else self.allowed[i]
