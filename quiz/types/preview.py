"""A question's texts on one line, outside any variant, for listings and summaries.

Apart from `present` so that a listing imports no variant, grading or numpy: it reads only the
question as loaded."""

from __future__ import annotations

import re

from quiz.format.model import QuestionBase, Text
from quiz.render.mathtext import markdown_to_plain

_PLACEHOLDER = re.compile(r"\{\{.*?\}\}")


def one_line(text: Text, lang: str, width: int | None = None) -> str:
    """`text` on one line, outside any variant: maths in Unicode, … where a value is drawn."""
    plain = markdown_to_plain(_PLACEHOLDER.sub("…", text.get(lang)))
    return " ".join(plain.split())[:width]


def prompt_preview(question: QuestionBase, lang: str, width: int) -> str:
    """A question's prompt on one line for listings."""
    return one_line(question.prompt, lang, width)
