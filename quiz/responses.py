"""Reading a typed response to any question type (the command line's `--answer TEXT`).

Numeric answers go through the answer parser; the other types take short forms: an option's
id, or its letter or number as shown; several of them for `multi`; item numbers as shown for `order`; true or
false (also yes/no, はい/いいえ, ○/×); the numbers of the rubric points made for `explain`.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, Final

from quiz.answers import Invalid, parse_answer
from quiz.format.model import (
    ChoiceQuestion,
    ExplainQuestion,
    MultiQuestion,
    NumericQuestion,
    OrderQuestion,
    TrueFalseQuestion,
    option_ids,
)
from quiz.variants import Variant, display_order

_TRUE: Final = frozenset({"true", "t", "yes", "y", "1", "はい", "正", "○", "〇"})
_FALSE: Final = frozenset({"false", "f", "no", "n", "0", "いいえ", "誤", "×", "✕"})
_NONE: Final = frozenset({"none", "なし", "-"})
_SEPARATORS: Final = re.compile(r"[\s,、]+")


def read_response(variant: Variant, text: str) -> Any | Invalid:
    """The response `text` gives for `variant`'s question, or an Invalid saying why not."""
    question = variant.question
    if isinstance(question, NumericQuestion):
        # The parser reads the raw text itself: its own normalising keeps columns exact and
        # never lets NFKC turn `3²` into 32.
        parsed = parse_answer(text, getattr(variant.answer, "shape", ()))
        return parsed if isinstance(parsed, Invalid) else parsed.value
    text = unicodedata.normalize("NFKC", text).strip()
    if not text:
        return Invalid("parse.empty")
    if isinstance(question, TrueFalseQuestion):
        word = text.lower()
        if word in _TRUE or word in _FALSE:
            return word in _TRUE
        return Invalid("response.true_or_false", {"text": text})
    if isinstance(question, ChoiceQuestion | MultiQuestion):
        picks = _options(question.options, _SEPARATORS.split(text))
        if isinstance(picks, Invalid):
            return picks
        if isinstance(question, ChoiceQuestion):
            return picks[0] if len(picks) == 1 else Invalid("response.one_option", {"count": len(picks)})
        return frozenset(picks)
    if isinstance(question, OrderQuestion):
        count = len(question.items)
        shown = display_order(variant, count)
        numbers = _numbers(text, count)
        if isinstance(numbers, Invalid):
            return numbers
        if sorted(numbers) != list(range(count)):
            return Invalid("response.order_each_once", {"count": count})
        return tuple(shown[n] for n in numbers)
    if isinstance(question, ExplainQuestion):
        if text.lower() in _NONE:
            return frozenset()
        numbers = _numbers(text, len(question.rubric))
        return numbers if isinstance(numbers, Invalid) else frozenset(numbers)
    raise TypeError(f"no response reader for {type(question).__name__}")


def _options(options: tuple, words: list[str]) -> list[str] | Invalid:
    ids = option_ids(options)
    picks: list[str] = []
    for word in (w.lower() for w in words if w):
        if word not in ids:  # an option's id wins; otherwise its number or letter as shown
            if word.isdigit() and 1 <= int(word) <= len(ids):
                word = ids[int(word) - 1]
            elif len(word) == 1 and "a" <= word < chr(ord("a") + len(ids)):
                word = ids[ord(word) - ord("a")]
        if word not in ids:
            return Invalid("response.unknown_option", {"option": word, "options": ", ".join(ids)})
        if word not in picks:
            picks.append(word)
    return picks


def _numbers(text: str, count: int) -> list[int] | Invalid:
    """1-based numbers as typed, returned 0-based; each must be between 1 and `count`."""
    numbers = []
    for word in _SEPARATORS.split(text):
        if not word:
            continue
        if not word.isdigit() or not 1 <= int(word) <= count:
            return Invalid("response.item_number", {"item": word, "count": count})
        numbers.append(int(word) - 1)
    return numbers
