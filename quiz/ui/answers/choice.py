"""The answer input of choice questions: one option, picked by its letter and marked ◉."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.widget import Widget

from quiz.answers import Invalid
from quiz.types.options import letter, shown
from quiz.ui.answers.base import AnswerWidget, plain
from quiz.ui.answers.lettered import LetteredOptions


class ChoiceAnswer(AnswerWidget):
    """Pick one option: its letter or Space marks it, Enter submits."""

    HELP = "ui.help_answer_choice"

    def compose(self) -> ComposeResult:
        yield LetteredOptions(
            [(letter(n), i, plain(self.variant, o.text, self.lang)) for n, (i, o) in enumerate(shown(self.variant))],
            id="choices",
        )

    def input_widget(self) -> Widget:
        return self.query_one(LetteredOptions)

    @on(LetteredOptions.Chosen)
    def _chosen(self, event: LetteredOptions.Chosen) -> None:
        event.stop()
        self.post_message(self.Changed())
        if event.submit:
            self.post_message(self.Submitted())

    def response(self) -> Any | Invalid:
        chosen = self.query_one(LetteredOptions).chosen
        return Invalid("ui.pick_one") if chosen is None else chosen
