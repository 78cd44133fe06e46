"""The answer input of multi questions: a checkbox per option."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.content import Content
from textual.widgets import SelectionList
from textual.widgets.selection_list import Selection

from quiz.answers import Invalid
from quiz.types.options import letter, shown
from quiz.ui.answers.base import AnswerWidget, plain


class MultiAnswer(AnswerWidget):
    """Checkboxes: pick every correct option."""

    def compose(self) -> ComposeResult:
        yield SelectionList[str](
            *(Selection(Content(f"{letter(n)}) ") + plain(self.variant, o.text, self.lang), i) for n, (i, o) in enumerate(shown(self.variant))),
            id="options",
        )

    def response(self) -> Any | Invalid:
        return frozenset(self.query_one(SelectionList).selected)
