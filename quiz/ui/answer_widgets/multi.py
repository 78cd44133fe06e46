"""The answer input of multi questions: a tick box per option, behind its letter."""

from __future__ import annotations

from textual.app import ComposeResult

from quiz.types.options import letter, shown
from quiz.ui.answer_widgets.base import plain
from quiz.ui.answer_widgets.checklist import ChecklistAnswer
from quiz.ui.answer_widgets.lettered import LetteredChecklist


class MultiAnswer(ChecklistAnswer):
    """Tick every correct option (its letter or Space), then Enter."""

    HELP = "ui.help_answer_multi"

    def compose(self) -> ComposeResult:
        yield LetteredChecklist(
            [(letter(n), i, plain(self.variant, o.text, self.lang)) for n, (i, o) in enumerate(shown(self.variant))],
            lang=self.lang,
            id="options",
        )

    def response(self) -> frozenset[str]:
        return frozenset(self.ticked())
