"""Reading learners' typed answers: numbers, vectors and matrices, forgiving where intent is clear.

`parse_answer(text, shape)` returns `Parsed` (the value and how it was read) or `Invalid` (a
message key, its parameters and the culprit's column); `describe_shape` words a shape for prompts;
`read_small_int(text, maximum)` reads an option or item number (ASCII or full-width digits only).
"""

from typing import TYPE_CHECKING

from quiz.answer_text.outcome import Invalid, Parsed
from quiz.answer_text.small_numbers import read_small_int
from quiz.answer_text.wording import describe_shape

if TYPE_CHECKING:
    from quiz.answer_text.parse import MAX_LENGTH, parse_answer

__all__ = ["MAX_LENGTH", "Invalid", "Parsed", "describe_shape", "parse_answer", "read_small_int"]

PARSER = ("MAX_LENGTH", "parse_answer")
"""Names of the parser, imported on first use: a question is on screen before anything is typed."""


def __getattr__(name: str) -> object:
    """The parser's names, from its module imported on first use and kept (PEP 562), as
    `quiz.code` keeps its names: the preview asks for `parse_answer` at every key."""
    if name in PARSER:
        from quiz.answer_text import parse

        value = getattr(parse, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
