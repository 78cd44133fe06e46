"""The answer input of choice questions: one option, marked ◉."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.content import Content

from quiz.answers import Invalid
from quiz.types.options import letter, shown
from quiz.ui.answers.base import AnswerWidget, SingleChoice, plain


class ChoiceAnswer(AnswerWidget):
    """Pick one option (marked ◉)."""

    def compose(self) -> ComposeResult:
        yield SingleChoice(
            [(i, Content(f"{letter(n)}) ") + plain(self.variant, o.text, self.lang)) for n, (i, o) in enumerate(shown(self.variant))],
            id="choices",
        )

    def response(self) -> Any | Invalid:
        chosen = self.query_one(SingleChoice).chosen
        return Invalid("ui.pick_one") if chosen is None else chosen
