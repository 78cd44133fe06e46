"""Reading learners' typed answers: numbers, vectors and matrices, forgiving where intent is clear.

`parse_answer(text, shape)` returns `Parsed` (the value and how it was read) or `Invalid` (a
message key, its parameters and the culprit's column); `describe_shape` words a shape for prompts.
"""

from quiz.answers.outcome import Invalid, Parsed
from quiz.answers.parse import MAX_LENGTH, parse_answer
from quiz.answers.wording import describe_shape

__all__ = ["MAX_LENGTH", "Invalid", "Parsed", "describe_shape", "parse_answer"]
