"""Reading the short typed forms of non-numeric answers: words, letters and item numbers."""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from quiz.answers import Invalid

SEPARATORS: Final = re.compile(r"[\s,、]+")
NONE_WORDS: Final = frozenset({"none", "なし", "-"})
"""What a learner types to give an empty set of picks or points."""
_MAX_DIGITS: Final = 3


def plain_text(text: str) -> str | Invalid:
    """`text` with full-width forms folded (NFKC) and spaces trimmed; Invalid when nothing is left."""
    text = unicodedata.normalize("NFKC", text).strip()
    return text if text else Invalid("parse.empty")


def words(text: str) -> list[str]:
    """The words of an answer, split at spaces and commas (also the Japanese 、)."""
    return [w for w in SEPARATORS.split(text) if w]


def small_number(word: str) -> int | None:
    """A short whole number in ASCII digits (full-width ones are folded before), else None.

    `str.isdigit` also accepts superscripts and other scripts' digits that `int` refuses or
    reads surprisingly, so only 0-9 count.
    """
    if not word or len(word) > _MAX_DIGITS or not all("0" <= c <= "9" for c in word):
        return None
    return int(word)


def item_numbers(text: str, count: int) -> list[int] | Invalid:
    """1-based numbers as typed, returned 0-based; each must be between 1 and `count`."""
    numbers = []
    for word in words(text):
        number = small_number(word)
        if number is None or not 1 <= number <= count:
            return Invalid("response.item_number", {"item": word, "count": count})
        numbers.append(number - 1)
    return numbers
