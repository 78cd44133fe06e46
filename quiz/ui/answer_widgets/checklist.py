"""The shared half of answers given by ticking lettered points (multi, explain's checklist)."""

from __future__ import annotations

from textual import on
from textual.widget import Widget

from quiz.ui.answer_widgets.base import AnswerWidget
from quiz.ui.answer_widgets.lettered import LetteredChecklist


class ChecklistAnswer(AnswerWidget):
    """Lettered tick boxes: a letter or Space ticks, Enter submits what is ticked."""

    _touched = False  # set by the first tick or untick

    def input_widget(self) -> Widget | None:
        found = self.query(LetteredChecklist)  # explain mounts its checklist once the model answer is shown
        return found.first() if found else None

    @on(LetteredChecklist.Toggled)
    def _ticked(self, event: LetteredChecklist.Toggled) -> None:
        event.stop()
        self._touched = True
        self.post_message(self.Changed())

    @on(LetteredChecklist.SubmitRequested)
    def _submit(self, event: LetteredChecklist.SubmitRequested) -> None:
        event.stop()
        self.post_message(self.Submitted())

    def untouched(self) -> bool:
        return not self._touched

    def ticked(self) -> list[str]:
        """The values of the ticked points."""
        return self.query_one(LetteredChecklist).selected
