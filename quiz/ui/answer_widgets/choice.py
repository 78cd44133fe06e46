"""The answer input of choice questions: one option, picked by its letter and marked ◉."""

from __future__ import annotations

from textual.app import ComposeResult

from quiz.answer_text import Invalid
from quiz.types.options import letter, shown
from quiz.ui.answer_widgets.base import plain
from quiz.ui.answer_widgets.lettered import LetteredOptions
from quiz.ui.answer_widgets.pick_one import PickOneAnswer


class ChoiceAnswer(PickOneAnswer):
    """Pick one option: its letter or Space marks it, Enter submits."""

    HELP = "ui.help_answer_choice"

    def compose(self) -> ComposeResult:
        yield LetteredOptions(
            [(letter(n), i, plain(self.variant, o.text, self.lang)) for n, (i, o) in enumerate(shown(self.variant))],
            lang=self.lang,
            id="choices",
        )

    def response(self) -> str | Invalid:
        return self.picked()
