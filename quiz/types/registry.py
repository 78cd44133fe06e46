"""Every question type by its `type` name, and the question union the loader converts YAML into."""

from __future__ import annotations

from typing import Annotated, Final, Union

from quiz.format.convert import Tagged, converter_for
from quiz.format.diagnostics import Report
from quiz.format.marks import Where
from quiz.format.model import QuestionBase
from quiz.types import choice, code, explain, matrix, multi, number, order, truefalse, vector
from quiz.types.base import QuestionType

TYPES: Final[dict[str, QuestionType[QuestionBase]]] = {
    t.name: t for t in (m.TYPE for m in (number, vector, matrix, choice, multi, order, truefalse, explain, code))
}
TYPE_NAMES: Final = tuple(TYPES)
QUESTION_TYPES: Final = tuple(t.model for t in TYPES.values())

# A type hint built at run time from the registered models, for the converter and the schema; to
# the type checker it is a value (a question it converts is a QuestionBase).
Question: Final[object] = Annotated[Union[QUESTION_TYPES], Tagged("type")]  # noqa: UP007 - a union built from the tuple
"""Any question, told apart by its `type` field."""


def convert_question(value: object, where: Where, report: Report) -> object:
    """The question `value` (plain YAML data) converts to, or what the converter makes of a bad one.

    The converter is built on the first call (~9 ms): a warm start reads every question from the
    bank cache and never needs it."""
    return converter_for(Question)(value, where, report)


def type_of(question: QuestionBase) -> QuestionType[QuestionBase]:
    """The behaviour of `question`'s type."""
    return TYPES[question.type]
