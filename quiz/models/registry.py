"""Every question type's model by its `type` name, and the question union the loader converts YAML into.

The models are light and all imported here: the bank needs every one to read a pack or the cache.
A type's behaviour (checking, drawing, grading, text) lives in `quiz/types/`, imported on first use.
"""

from __future__ import annotations

from typing import Annotated, Final, Union

from quiz.format.convert import Tagged
from quiz.format.model import QuestionBase
from quiz.models.questions import (
    ChoiceQuestion,
    CodeQuestion,
    EvidenceQuestion,
    ExplainQuestion,
    MatrixQuestion,
    MultiQuestion,
    NumberQuestion,
    OrderQuestion,
    TrueFalseQuestion,
    VectorQuestion,
)

MODELS: Final[dict[str, type[QuestionBase]]] = {
    "number": NumberQuestion,
    "vector": VectorQuestion,
    "matrix": MatrixQuestion,
    "choice": ChoiceQuestion,
    "multi": MultiQuestion,
    "order": OrderQuestion,
    "truefalse": TrueFalseQuestion,
    "explain": ExplainQuestion,
    "code": CodeQuestion,
    "evidence": EvidenceQuestion,
}
"""Each type's model by its name, in the order types are listed (`quiz new`, the schema)."""
TYPE_NAMES: Final = tuple(MODELS)
QUESTION_TYPES: Final = tuple(MODELS.values())

# A type hint built at run time from the registered models, for the converter and the schema; to
# the type checker it is a value (a question it converts is a QuestionBase).
Question: Final[object] = Annotated[Union[QUESTION_TYPES], Tagged("type")]  # noqa: UP007 - a union built from the tuple
"""Any question, told apart by its `type` field."""
