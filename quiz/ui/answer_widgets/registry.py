"""One answer widget per question type, found by the type's name as in `quiz.types.registry`.

Each widget's module is imported when a question of its type is first shown: the first question
on screen waits only for its own widget (the code editor, for one, brings a text area and the
drafts store).
"""

from __future__ import annotations

from importlib import import_module
from typing import Final

from quiz.types.registry import type_of
from quiz.ui.answer_widgets.base import AnswerWidget
from quiz.variants.variant import Variant

WIDGETS: Final[dict[str, tuple[str, str]]] = {
    "number": ("numeric", "NumericAnswer"),
    "vector": ("numeric", "NumericAnswer"),
    "matrix": ("numeric", "NumericAnswer"),
    "choice": ("choice", "ChoiceAnswer"),
    "multi": ("multi", "MultiAnswer"),
    "order": ("order", "OrderAnswer"),
    "truefalse": ("truefalse", "TrueFalseAnswer"),
    "explain": ("explain", "ExplainAnswer"),
    "code": ("code", "CodeEditorAnswer"),
    "evidence": ("evidence", "EvidenceAnswer"),
}
"""Each type's widget: its module under `quiz.ui.answer_widgets` and its class."""


def widget_class(type_name: str) -> type[AnswerWidget]:
    """The answer widget of a question type, its module imported on first use."""
    module, name = WIDGETS[type_name]
    widget: type[AnswerWidget] = getattr(import_module(f"quiz.ui.answer_widgets.{module}"), name)
    return widget


def answer_widget(variant: Variant, lang: str) -> AnswerWidget:
    """The input that fits the variant's question type."""
    return widget_class(type_of(variant.question).name)(variant, lang)
