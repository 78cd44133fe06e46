"""The answer input of a spoken question in a mock interview: notes, while answering aloud.

In an interview the candidate speaks; here they may type notes as they go (or nothing). Enter is
a new line and Ctrl+S hands the notes in; the time taken is what the session records, and the
answer is self-graded against the checklist once the interview is over.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Static, TextArea

from quiz.answer_text import Invalid
from quiz.locale.i18n import tr
from quiz.ui.answer_widgets.base import AnswerWidget


class NotesAnswer(AnswerWidget):
    """Answer aloud, typing notes if you like; graded by yourself after the interview."""

    HELP = "mockapp.help_answer_notes"

    def compose(self) -> ComposeResult:
        yield Static(tr("mockapp.notes_help", self.lang), id="notes-help", markup=False)
        yield TextArea(id="notes", soft_wrap=True, show_line_numbers=False, tab_behavior="focus")

    def footer_omits(self, narrow: bool) -> frozenset[str]:
        return frozenset()  # Enter is a new line here: Ctrl+S is how the notes are handed in

    def input_widget(self) -> Widget:
        return self.query_one("#notes", TextArea)

    @on(TextArea.Changed, "#notes")
    def _changed(self, event: TextArea.Changed) -> None:
        event.stop()
        self.post_message(self.Changed())

    def typed(self) -> str | None:
        return self.query_one("#notes", TextArea).text

    def response(self) -> Any | Invalid:
        return self.query_one("#notes", TextArea).text  # no notes is an answer too: it was spoken
