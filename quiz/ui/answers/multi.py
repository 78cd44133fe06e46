"""The answer input of multi questions: a checkbox per option."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.content import Content
from textual.widgets import SelectionList
from textual.widgets.selection_list import Selection

from quiz.answers import Invalid
from quiz.format.model import option_ids
from quiz.types.options import letter
from quiz.ui.answers.base import AnswerWidget, plain


class MultiAnswer(AnswerWidget):
    """Checkboxes: pick every correct option."""

    def compose(self) -> ComposeResult:
        question = self.variant.question
        ids = option_ids(question.options)
        yield SelectionList[str](
            *(Selection(Content(f"{letter(n)}) ") + plain(self.variant, o.text, self.lang), i) for n, (i, o) in enumerate(zip(ids, question.options))),
            id="options",
        )

    def response(self) -> Any | Invalid:
        return frozenset(self.query_one(SelectionList).selected)
