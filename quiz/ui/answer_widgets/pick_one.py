"""The shared half of answers given by marking one lettered option (choice, true/false)."""

from __future__ import annotations

from textual import on
from textual.widget import Widget

from quiz.answer_text import Invalid
from quiz.ui.answer_widgets.base import AnswerWidget
from quiz.ui.answer_widgets.lettered import LetteredOptions


class PickOneAnswer(AnswerWidget):
    """One of a few lettered options: its letter or Space marks it, Enter submits."""

    def input_widget(self) -> Widget:
        return self.query_one(LetteredOptions)

    @on(LetteredOptions.Chosen)
    def _chosen(self, event: LetteredOptions.Chosen) -> None:
        event.stop()
        self.post_message(self.Changed())
        if event.submit:
            self.post_message(self.Submitted())

    def picked(self) -> str | Invalid:
        """The id of the option marked, or what to say when none is."""
        chosen = self.query_one(LetteredOptions).chosen
        return Invalid("ui.pick_one") if chosen is None else chosen
