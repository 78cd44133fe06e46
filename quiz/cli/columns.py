"""Plain-text tables for the command line, aligned by display width (Japanese takes two cells)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence


def display_width(text: str) -> int:
    """How many terminal cells `text` takes: wide East Asian characters two, combining marks none."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def print_columns(rows: Sequence[Sequence[str]]) -> None:
    """Print rows of cells in columns two spaces apart, each as wide as its widest cell."""
    widths = [max(display_width(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell + " " * (width - display_width(cell)) for cell, width in zip(row, widths)).rstrip())
