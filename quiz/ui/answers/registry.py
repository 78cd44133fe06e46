"""One answer widget per question type, found by the type's name as in `quiz.types.registry`."""

from __future__ import annotations

from typing import Final

from quiz.types.registry import type_of
from quiz.ui.answers.base import AnswerWidget
from quiz.ui.answers.choice import ChoiceAnswer
from quiz.ui.answers.code import CodeEditorAnswer
from quiz.ui.answers.explain import ExplainAnswer
from quiz.ui.answers.multi import MultiAnswer
from quiz.ui.answers.numeric import NumericAnswer
from quiz.ui.answers.order import OrderAnswer
from quiz.ui.answers.truefalse import TrueFalseAnswer
from quiz.variants.variant import Variant

WIDGETS: Final[dict[str, type[AnswerWidget]]] = {
    "number": NumericAnswer,
    "vector": NumericAnswer,
    "matrix": NumericAnswer,
    "choice": ChoiceAnswer,
    "multi": MultiAnswer,
    "order": OrderAnswer,
    "truefalse": TrueFalseAnswer,
    "explain": ExplainAnswer,
    "code": CodeEditorAnswer,
}


def answer_widget(variant: Variant, lang: str) -> AnswerWidget:
    """The input that fits the variant's question type."""
    return WIDGETS[type_of(variant.question).name](variant, lang)
