"""Every question type's behaviour by its `type` name, and converting YAML data into a question.

A type's behaviour is imported the first time a question of that type is checked, drawn or
graded, so a warm start imports only the types it shows (the light models are in `quiz.models`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Final

from quiz.format.convert import converter_for
from quiz.format.diagnostics import Report
from quiz.format.marks import Where
from quiz.format.model import QuestionBase
from quiz.format.yaml_data import YamlMap
from quiz.models.registry import MODELS, TYPE_NAMES, Question
from quiz.types.rules import check_rules

if TYPE_CHECKING:  # the behaviour's base brings the expressions, grading and variants: imported with a type
    from quiz.types.base import QuestionType


@cache
def behaviour(name: str) -> QuestionType[QuestionBase]:
    """The behaviour of the type called `name`, from its module `quiz.types.<name>` (imported once)."""
    if name not in MODELS:
        raise KeyError(name)
    kind: QuestionType[QuestionBase] = import_module(f"quiz.types.{name}").TYPE
    return kind


class _Types(Mapping[str, "QuestionType[QuestionBase]"]):
    """Every type's behaviour by name, each imported when it is first looked up."""

    def __getitem__(self, name: str) -> QuestionType[QuestionBase]:
        return behaviour(name)

    def __iter__(self) -> Iterator[str]:
        return iter(TYPE_NAMES)

    def __len__(self) -> int:
        return len(TYPE_NAMES)


TYPES: Final[Mapping[str, QuestionType[QuestionBase]]] = _Types()


def convert_question(value: object, where: Where, report: Report) -> object:
    """The question `value` (plain YAML data) converts to, or what the converter makes of a bad one;
    the rules of its type beyond its fields are checked too (`quiz.types.rules`: no type's behaviour
    is imported).

    The converter is built on the first call (~9 ms): a warm start reads every question from the
    bank cache and never needs it, nor the types' rules."""
    question = converter_for(Question)(value, where, report)
    if isinstance(question, QuestionBase) and isinstance(value, YamlMap):
        check_rules(question, Where(where.path, value.mark, where.field), value, report)
    return question


def type_of(question: QuestionBase) -> QuestionType[QuestionBase]:
    """The behaviour of `question`'s type."""
    return behaviour(question.type)
