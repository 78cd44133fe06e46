"""The answer input of multi questions: a tick box per option, behind its letter."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import SelectionList

from quiz.types.options import letter, shown
from quiz.ui.answers.base import AnswerWidget, plain
from quiz.ui.answers.lettered import LetteredChecklist


class MultiAnswer(AnswerWidget):
    """Tick every correct option (its letter or Space), then Enter."""

    HELP = "ui.help_answer_multi"

    def compose(self) -> ComposeResult:
        yield LetteredChecklist(
            [(letter(n), i, plain(self.variant, o.text, self.lang)) for n, (i, o) in enumerate(shown(self.variant))],
            id="options",
        )

    def input_widget(self) -> Widget:
        return self.query_one(LetteredChecklist)

    @on(SelectionList.SelectedChanged)
    def _ticked(self, event: SelectionList.SelectedChanged[str]) -> None:
        event.stop()
        self.post_message(self.Changed())

    @on(LetteredChecklist.SubmitRequested)
    def _submit(self, event: LetteredChecklist.SubmitRequested) -> None:
        event.stop()
        self.post_message(self.Submitted())

    def response(self) -> frozenset[str]:
        return frozenset(self.query_one(LetteredChecklist).selected)
