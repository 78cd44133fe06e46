"""Text fitted to a terminal's width for the commands that print it (`quiz show`).

Lines break at spaces and, in Japanese, between short phrases, never inside a word (the rules
of `WORD`: closing brackets, commas and small kana never begin a line, opening brackets never
end one). A wrapped
line's continuation is indented under its text: under a list item's text past its marker, and
two columns in under an indented line such as `  label (name): value`. Matrix rows (`⎡ 1  2 ⎤`)
are never broken: a broken row no longer reads as a matrix.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import unicodedata
from typing import Final

OPENING: Final = "（「『【〔〈《［｛〘〖"
CLOSING: Final = "、。，．・：；？！）」』】〕〉》］｝〙〗ゝゞヽヾぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々ー〜…‥"
# Han, kana, CJK punctuation and full-width forms: a break may fall before or after each one.
# U+3000, the ideographic space, is left out: it is whitespace, and breaks like a space.
UNSPACED: Final = "\u3001-\u303f\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
KANJI: Final = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff々〆"
HIRAGANA: Final = "\u3041-\u309f"
KATAKANA: Final = "\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff\uff66-\uff9f"
# A short phrase, so that a line never breaks inside a word (見落と／し): a run of kanji or of
# katakana with the hiragana after it (okurigana, particles), or a run of hiragana; each capped,
# so that lines stay filled. Anything else unspaced (punctuation, full-width forms) is one character.
PHRASE: Final = rf"[{KANJI}]{{1,6}}[{HIRAGANA}]{{0,6}}|[{KATAKANA}]{{1,12}}[{HIRAGANA}]{{0,6}}|[{HIRAGANA}]{{1,6}}|[{UNSPACED}]"
WORD: Final = re.compile(rf"\s*[{OPENING}]*(?:{PHRASE}|[^\s{UNSPACED}]+)[{CLOSING}]*\s*")
"""One unit a line may break after: a word with the spaces after it, or a short Japanese phrase
(with the brackets and punctuation that must stay beside it)."""

MATRIX_ROW: Final = re.compile(r"\s*(?:[⎡⎢⎣]|\[ .* \]$)")
LIST_MARKER: Final = re.compile(r"(?:[-*•]|\d+[.)])\s+")


def cell_len(text: str) -> int:
    """Terminal columns `text` takes: two for wide (CJK) characters, none for combining marks."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def fit_line(line: str, width: int) -> list[str]:
    """`line` as lines of at most `width` columns (a word longer than a line is cut between characters)."""
    if cell_len(line) <= width or MATRIX_ROW.match(line):
        return [line]
    body = line.lstrip(" ")
    indent = len(line) - len(body)
    marker = LIST_MARKER.match(body)
    hang = indent + (len(marker.group()) if marker else 2 if indent else 0)
    hang = hang if hang < width // 2 else 0  # a deep indent on a narrow terminal would leave no room
    lines: list[str] = []
    current = line[:indent]
    for unit in WORD.findall(body):
        if current.strip() and cell_len((current + unit).rstrip()) > width:
            lines.append(current.rstrip())
            current = " " * hang
            unit = unit.lstrip()
        for char in unit:  # a unit wider than the line is cut
            if current.strip() and cell_len(current + char) > width and not char.isspace():
                lines.append(current.rstrip())
                current = " " * hang
            current += char
    lines.append(current.rstrip())
    return lines


def fit_text(text: str, width: int | None) -> str:
    """Each line of `text` fitted to `width` columns (as it is when `width` is None)."""
    if width is None:
        return text
    return "\n".join(part for line in text.split("\n") for part in fit_line(line, width))


def terminal_width() -> int | None:
    """Columns to fit printed text to: `COLUMNS` when set, else the terminal's when printing to
    one; None (lines as they are) into a pipe or a file."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    return shutil.get_terminal_size().columns if sys.stdout.isatty() else None
