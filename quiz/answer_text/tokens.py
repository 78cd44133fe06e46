"""Splits normalised answer text into tokens, rejecting characters no answer can contain."""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from enum import Enum, auto
from typing import Final

from quiz.answer_text.normalise import Normalised
from quiz.answer_text.outcome import Rejected
from quiz.answer_text.wording import visible


class Kind(Enum):
    """What a token is."""

    NUMBER = auto()
    NAME = auto()
    PLUS = auto()
    MINUS = auto()
    TIMES = auto()
    DIVIDE = auto()
    POWER = auto()
    ROOT = auto()
    OPEN_PAREN = auto()
    CLOSE_PAREN = auto()
    OPEN_BRACKET = auto()
    CLOSE_BRACKET = auto()
    COMMA = auto()
    SEMICOLON = auto()
    NEWLINE = auto()


@dataclass(frozen=True)
class Token:
    """One token: its kind and normalised text, where it starts, and a number's value.

    `start` indexes the normalised text, `column` is the 1-based column in the original, and
    `spaced` says whitespace precedes it (whitespace can separate elements of a row).
    """

    kind: Kind
    text: str
    start: int
    column: int
    spaced: bool
    value: float = 0.0

    @property
    def end(self) -> int:
        """Index just past the token in the normalised text."""
        return self.start + len(self.text)


_SYMBOLS: Final[dict[str, Kind]] = {
    "+": Kind.PLUS,
    "-": Kind.MINUS,
    "*": Kind.TIMES,
    "/": Kind.DIVIDE,
    "^": Kind.POWER,
    "√": Kind.ROOT,
    "(": Kind.OPEN_PAREN,
    ")": Kind.CLOSE_PAREN,
    "[": Kind.OPEN_BRACKET,
    "]": Kind.CLOSE_BRACKET,
    ",": Kind.COMMA,
    ";": Kind.SEMICOLON,
}
_LINE_BREAKS: Final = frozenset("\n\r\u2028\u2029")
# ASCII digits only: `\d` would also take Arabic-Indic and other digits that NFKC leaves alone.
_NUMBER: Final = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_NAME: Final = re.compile(r"[A-Za-z]+")


def tokenise(source: Normalised, original: str) -> list[Token]:
    """The tokens of `source`; `original` is the text as typed, quoted when a character is rejected."""
    text = source.text
    tokens: list[Token] = []
    index = 0
    spaced = False
    while index < len(text):
        char = text[index]
        column = source.columns[index]
        if _is_space(char):
            spaced = True
            index += 1
            continue
        value = 0.0
        if char in _LINE_BREAKS:
            kind, length = Kind.NEWLINE, 1
        elif number := _NUMBER.match(text, index):
            kind, length = Kind.NUMBER, number.end() - index
            value = _number_value(number.group(), source, number.end(), column)
        elif name := _NAME.match(text, index):
            kind, length = Kind.NAME, name.end() - index
        elif text.startswith("**", index):
            kind, length = Kind.POWER, 2
        elif char in _SYMBOLS:
            kind, length = _SYMBOLS[char], 1
        elif char == "%":
            raise Rejected("parse.percent", column)
        else:
            raise Rejected("parse.unexpected_char", column, char=visible(original[column - 1]))
        tokens.append(Token(kind, text[index : index + length], index, column, spaced, value))
        index += length
        spaced = False
    return tokens


def _number_value(literal: str, source: Normalised, end: int, column: int) -> float:
    """The value of a number literal, rejecting one glued to another (`1.2.3`) or out of range."""
    if end < len(source.text) and source.text[end] in ".0123456789":
        raise Rejected("parse.bad_number", source.columns[end])
    value = float(literal)
    if not math.isfinite(value):
        raise Rejected("parse.too_large", column)
    return value


def _is_space(char: str) -> bool:
    """Tabs and Unicode space separators count as spaces; other control characters do not."""
    return char == "\t" or unicodedata.category(char) == "Zs"
