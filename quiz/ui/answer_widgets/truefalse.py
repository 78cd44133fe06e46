"""The answer input of true/false questions: t or f (or Space) marks one, Enter submits."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.content import Content

from quiz.answer_text import Invalid
from quiz.locale.i18n import tr
from quiz.ui.answer_widgets.lettered import LetteredOptions
from quiz.ui.answer_widgets.pick_one import PickOneAnswer


class TrueFalseAnswer(PickOneAnswer):
    """True or false, behind the letters t and f in every language."""

    HELP = "ui.help_answer_truefalse"

    def compose(self) -> ComposeResult:
        yield LetteredOptions(
            [("t", "true", Content(tr("show.true", self.lang))), ("f", "false", Content(tr("show.false", self.lang)))],
            lang=self.lang,
            id="truefalse",
        )

    def response(self) -> bool | Invalid:
        picked = self.picked()
        return picked if isinstance(picked, Invalid) else picked == "true"
