"""The base of the answer inputs: each reads its own response; the screen grades it.

Messages up: a widget posts `AnswerWidget.Submitted` when the learner asks to submit from
inside it (Enter in a numeric field). The screen then calls `response()`, which gives the
response the type's grader expects, or an `Invalid` saying why none can be read yet.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from quiz.answers import Invalid
from quiz.render.mathtext import markdown_to_plain
from quiz.variants.variant import Variant


def plain(variant: Variant, text: Any, lang: str) -> Content:
    """A question text for a one-line label: values filled in, maths in Unicode, no markup."""
    return Content(markdown_to_plain(variant.text(text, lang)).strip())


class AnswerWidget(Vertical):
    """Base of the answer inputs: knows its variant and language, reads a response."""

    DEFAULT_CLASSES = "answer"

    class Submitted(Message):
        """The learner asked to submit from inside the answer widget."""

    def __init__(self, variant: Variant, lang: str) -> None:
        super().__init__()
        self.variant = variant
        self.lang = lang

    def on_key(self) -> None:
        # A question opens at its prompt, so on a short terminal its answer may be out of view:
        # a key reaching the answer (an arrow in a list) shows it, then acts as usual.
        self.scroll_visible(animate=False)

    def response(self) -> Any | Invalid:
        raise NotImplementedError

    def typed(self) -> str | None:
        """The answer as the learner typed it, for history; None where they picked rather than typed."""
        return None

    def seal(self) -> None:
        """After grading: nothing more can be changed."""
        for child in self.query("Input, OptionList, ListView"):
            child.disabled = True


class SingleChoice(OptionList):
    """Options that wrap (radio buttons cannot): Enter or space marks one with ◉."""

    BINDINGS = [Binding("space", "select", show=False)]

    def __init__(self, labels: list[tuple[str, Content]], *, id: str | None = None) -> None:
        self.labels = labels
        self.chosen: str | None = None
        super().__init__(*(Option(self._prompt(key, label), id=key) for key, label in labels), id=id)

    def _prompt(self, key: str, label: Content) -> Content:
        return Content("◉ " if key == self.chosen else "○ ") + label

    @on(OptionList.OptionSelected)
    def _mark(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.chosen = event.option.id
        for index, (key, label) in enumerate(self.labels):
            self.replace_option_prompt_at_index(index, self._prompt(key, label))
