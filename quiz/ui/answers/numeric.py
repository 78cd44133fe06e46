"""The answer input of number, vector and matrix questions."""

from __future__ import annotations

from typing import Any

import numpy as np
from textual import on
from textual.app import ComposeResult
from textual.widgets import Input, Static

from quiz.answers import Invalid, describe_shape, parse_answer
from quiz.i18n import tr
from quiz.ui.answers.base import AnswerWidget
from quiz.ui.translate import with_group_title


class NumericAnswer(AnswerWidget):
    """A text field for a number, vector or matrix, with a live "read as" preview."""

    def compose(self) -> ComposeResult:
        shape = np.shape(self.variant.answer)
        field = Input(placeholder=tr("ui.type_answer", self.lang, what=describe_shape(shape, self.lang)), id="answer-input")
        yield with_group_title(field, self.lang)
        yield Static(tr("ui.read_as_empty", self.lang), id="preview", markup=False)

    @property
    def _shape(self) -> tuple[int, ...]:
        return np.shape(self.variant.answer)

    @on(Input.Changed, "#answer-input")
    def _preview(self, event: Input.Changed) -> None:
        preview = self.query_one("#preview", Static)
        self.scroll_visible(animate=False)  # the field takes typed keys itself: they never reach on_key
        if not event.value.strip():
            preview.update(tr("ui.read_as_empty", self.lang))
            preview.set_class(False, "invalid")
            return
        parsed = parse_answer(event.value, self._shape)
        if isinstance(parsed, Invalid):
            preview.update(parsed.message(self.lang))
        else:
            preview.update(tr("ui.read_as", self.lang, value=parsed.display))
        preview.set_class(isinstance(parsed, Invalid), "invalid")

    @on(Input.Submitted, "#answer-input")
    def _submit(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Submitted())

    def typed(self) -> str | None:
        return self.query_one("#answer-input", Input).value

    def response(self) -> Any | Invalid:
        parsed = parse_answer(self.query_one("#answer-input", Input).value, self._shape)
        return parsed if isinstance(parsed, Invalid) else parsed.value
