"""The answer input of true/false questions: t or f (or Space) marks one, Enter submits."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.content import Content
from textual.widget import Widget

from quiz.answers import Invalid
from quiz.i18n import tr
from quiz.ui.answers.base import AnswerWidget
from quiz.ui.answers.lettered import LetteredOptions


class TrueFalseAnswer(AnswerWidget):
    """True or false, behind the letters t and f in every language."""

    HELP = "ui.help_answer_truefalse"

    def compose(self) -> ComposeResult:
        yield LetteredOptions(
            [("t", "true", Content(tr("show.true", self.lang))), ("f", "false", Content(tr("show.false", self.lang)))],
            id="truefalse",
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
        return Invalid("ui.pick_one") if chosen is None else chosen == "true"
