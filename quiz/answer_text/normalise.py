"""Rewrites what a learner typed as plain ASCII maths, remembering each character's column.

Each character is NFKC-normalised on its own rather than the text as a whole, so every output
character knows the column it came from (the two differ only where accents compose, and no
answer holds accents). NFKC turns full-width digits, letters, brackets and spaces into ASCII;
the marks it leaves alone are then mapped:

    、→ ,    。→ .    ー − ‐ ‑ ‒ – — ― → -    × · ⋅ → *    ÷ → /    π → pi

Superscripts become powers (e² → e^(2), 10⁻³ → 10^(-3)) and vulgar fractions divisions
(½ → (1/2)). Other compatibility characters than width, font, small, vertical and no-break
variants (subscripts, circled or parenthesised numbers, superscript letters, ligatures) are kept
as typed, for the tokenizer to reject: NFKC would turn some of them into plain digits or
letters that silently join their neighbours (2₃ → 23, 1⒈2 → 11.2, 1ᵉ2 → 1e2).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Final

_DASHES: Final = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u30fc\ufe63\uff0d"
_REPLACEMENTS: Final[dict[str, str]] = {
    "、": ",",
    "。": ".",
    "×": "*",
    "·": "*",
    "⋅": "*",
    "∗": "*",
    "÷": "/",
    "∕": "/",
    "⁄": "/",
    "π": "pi",
} | dict.fromkeys(_DASHES, "-")
_SUPERSCRIPT_TEXT: Final = frozenset("0123456789+-()")
# Compatibility tags whose NFKC form is the same symbol drawn differently.
_VARIANT_TAGS: Final = frozenset({"<wide>", "<narrow>", "<font>", "<small>", "<vertical>", "<noBreak>"})


@dataclass(frozen=True)
class Normalised:
    """Normalised answer text; `columns[i]` is the 1-based column in the original of `text[i]`."""

    text: str
    columns: tuple[int, ...]


def normalise(original: str) -> Normalised:
    """`original` rewritten as ASCII maths where a mapping exists, with each character's column."""
    if original.isascii():  # every ASCII character is its own NFKC form and has no mapping
        return Normalised(original, tuple(range(1, len(original) + 1)))
    pieces: list[str] = []
    columns: list[int] = []

    def emit(piece: str, column: int) -> None:
        pieces.append(piece)
        columns.extend([column] * len(piece))

    superscript_column = 0  # column of the latest superscript while a run of them is open
    for column, char in enumerate(original, start=1):
        tag = unicodedata.decomposition(char).partition(" ")[0]
        plain = _plain(char)
        if tag == "<super>" and plain in _SUPERSCRIPT_TEXT:
            if not superscript_column:
                emit("^(", column)
            emit(plain, column)
            superscript_column = column
            continue
        if superscript_column:
            emit(")", superscript_column)
            superscript_column = 0
        if not tag.startswith("<") or tag in _VARIANT_TAGS:
            emit(plain, column)
        elif tag == "<fraction>":
            emit(f"({plain})", column)
        else:
            emit(char, column)
    if superscript_column:
        emit(")", superscript_column)
    return Normalised("".join(pieces), tuple(columns))


def _plain(char: str) -> str:
    """`char` after NFKC and the mappings for what NFKC leaves alone."""
    return "".join(_REPLACEMENTS.get(c, c) for c in unicodedata.normalize("NFKC", char))
