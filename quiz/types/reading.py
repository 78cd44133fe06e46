"""Reading the short typed forms of non-numeric answers: words, letters and item numbers."""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from quiz.answer_text import Invalid, read_small_int

SEPARATORS: Final = re.compile(r"[\s,、]+")
NONE_WORDS: Final = frozenset({"none", "なし", "-"})
"""What a learner types to give an empty set of picks or points."""
_LARGEST: Final = 999
"""The largest option or item number read: any question has far fewer."""


def plain_text(text: str) -> str | Invalid:
    """`text` with full-width forms folded (NFKC) and spaces trimmed; Invalid when nothing is left."""
    text = unicodedata.normalize("NFKC", text).strip()
    return text if text else Invalid("parse.empty")


def words(text: str) -> list[str]:
    """The words of an answer, split at spaces and commas (also the Japanese 、)."""
    return [w for w in SEPARATORS.split(text) if w]


def small_number(word: str) -> int | None:
    """A short whole number (up to three digits) in ASCII digits, full-width ones folded before.

    `str.isdigit` also accepts superscripts and other scripts' digits that `int` refuses or
    reads surprisingly; `read_small_int` is the one checked conversion (no leading zero either).
    """
    return read_small_int(word, _LARGEST)


def item_numbers(text: str, count: int) -> list[int] | Invalid:
    """1-based numbers as typed, returned 0-based; each must be between 1 and `count`."""
    numbers = []
    for word in words(text):
        number = small_number(word)
        if number is None or not 1 <= number <= count:
            return Invalid("response.item_number", {"item": word, "count": count})
        numbers.append(number - 1)
    return numbers
