"""The answer input of true/false questions."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.content import Content

from quiz.answers import Invalid
from quiz.i18n import tr
from quiz.ui.answers.base import AnswerWidget, SingleChoice


class TrueFalseAnswer(AnswerWidget):
    """True or false."""

    def compose(self) -> ComposeResult:
        yield SingleChoice([("true", Content(tr("show.true", self.lang))), ("false", Content(tr("show.false", self.lang)))], id="truefalse")

    def response(self) -> Any | Invalid:
        chosen = self.query_one(SingleChoice).chosen
        return Invalid("ui.pick_one") if chosen is None else chosen == "true"
