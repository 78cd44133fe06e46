"""A heatmap of attention weights drawn with shading characters and numbers.

Each cell shows a shade (░ ▒ ▓ █ by weight) and the weight itself, so the map still reads in a
terminal without colour (NO_COLOR) and in a screen reader's text.
"""

from __future__ import annotations

import math

import numpy as np
from rich.text import Text as RichText
from textual.widgets import Static

SHADES = " ░▒▓█"


def shade(weight: float) -> str:
    """The shading character for a weight in [0, 1]: blank for 0, then one step per quarter."""
    if not np.isfinite(weight):
        return "?"
    if weight <= 0:
        return SHADES[0]
    return SHADES[min(len(SHADES) - 1, math.ceil(weight * (len(SHADES) - 1)))]


CELL = 8  # two shade characters, a space, four digits and a gap: "▓▓ 0.73 "


def heatmap_text(weights: np.ndarray, row_label: str = "q", column_label: str = "k") -> RichText:
    """Rows of `▓▓ 0.73` cells under key labels, one row per query, as Rich text."""
    matrix = np.atleast_2d(np.asarray(weights, dtype=np.float64))
    rows, columns = matrix.shape
    label_width = len(f"{row_label}{rows}") + 1
    text = RichText(no_wrap=True)
    text.append(" " * label_width)
    for j in range(columns):
        text.append(f"{column_label}{j + 1}".rjust(CELL - 1) + " ", style="bold")
    for i in range(rows):
        text.append("\n")
        text.append(f"{row_label}{i + 1}".ljust(label_width), style="bold")
        for j in range(columns):
            weight = float(matrix[i, j])
            finite = np.isfinite(weight)
            text.append(shade(weight) * 2, style=f"rgb({_level(weight)},{_level(weight)},255)" if finite else "")
            text.append(f" {weight:.2f} " if finite else "  nan ")
    return text


def _level(weight: float) -> int:
    """A blue that deepens with the weight (the shade carries the meaning without colour)."""
    return int(235 - 200 * min(max(weight, 0.0), 1.0))


class Heatmap(Static):
    """A heatmap of one weight matrix (rows: queries, columns: keys)."""

    def __init__(self, weights: np.ndarray, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(heatmap_text(weights), id=id, classes=classes)
        self.weights = weights
