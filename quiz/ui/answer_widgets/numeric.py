"""The answer input of number, vector and matrix questions."""

from __future__ import annotations

import numpy as np
from textual import events, on
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Input, Static

from quiz.answer_text import Invalid, Parsed, describe_shape
from quiz.locale.i18n import tr
from quiz.ui.answer_widgets.base import AnswerWidget
from quiz.ui.translate import with_group_title

ROW_ENDS = (",", ";", "[", "(")
ROW_STARTS = ("]", ")")


def one_line(pasted: str) -> str:
    """Pasted lines as one line the parser reads the same way: each new line becomes a row
    separator (`; `), or a space where the line already ends a row or sits inside brackets."""
    lines = [line.strip() for line in pasted.splitlines() if line.strip()]
    joined = lines[0] if lines else ""
    for line in lines[1:]:
        joined += (" " if joined.endswith(ROW_ENDS) or line.startswith(ROW_STARTS) else "; ") + line
    return joined


class AnswerInput(Input):
    """A one-line field that keeps every row of a pasted matrix (Textual's Input keeps the first)."""

    def on_paste(self, event: events.Paste) -> None:
        event.prevent_default()  # Textual's own handler would keep only the first line
        event.stop()
        text = one_line(event.text)
        if text:
            start, end = sorted(self.selection)
            self.replace(text, start, end)


class NumericAnswer(AnswerWidget):
    """A text field for a number, vector or matrix, with a live "read as" preview."""

    HELP = "ui.help_answer_numeric"

    def compose(self) -> ComposeResult:
        what = describe_shape(self._shape, self.lang)
        # select_on_focus off: focus coming back (after the terminal was too small) keeps the cursor
        # where it was, rather than selecting the answer for the next key to replace.
        field = AnswerInput(placeholder=tr("ui.type_answer", self.lang, what=what), select_on_focus=False, id="answer-input")
        yield with_group_title(field, self.lang)
        yield Static(tr("ui.read_as_empty", self.lang), id="preview", markup=False)

    @property
    def _shape(self) -> tuple[int, ...]:
        return np.shape(self.variant.answer)

    def _parse(self, text: str) -> Parsed | Invalid:
        """`text` read as the question's type reads it (a shape answer takes `7x18`, a number in a unit `1.5 GiB`)."""
        from quiz.answer_text.units import parse_in_unit  # on the first key typed, not before the question is shown
        from quiz.types.numeric import is_shape_answer

        question = self.variant.question
        return parse_in_unit(text, self._shape, getattr(question, "unit", None), sizes=is_shape_answer(question))

    def input_widget(self) -> Widget:
        return self.query_one(AnswerInput)

    @on(Input.Changed, "#answer-input")
    def _preview(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.Changed())
        preview = self.query_one("#preview", Static)
        if not event.value.strip():
            preview.update(tr("ui.read_as_empty", self.lang))
            preview.set_class(False, "invalid")
            return
        parsed = self._parse(event.value)
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

    def response(self) -> float | np.ndarray | Invalid:
        parsed = self._parse(self.query_one(AnswerInput).value)
        return parsed if isinstance(parsed, Invalid) else parsed.value
