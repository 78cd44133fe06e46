"""The answer input of order questions: a list put in order with the keyboard."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.widgets import Label, ListItem, ListView

from quiz.answers import Invalid
from quiz.ui.answers.base import AnswerWidget, plain
from quiz.variants.shuffle import display_order
from quiz.variants.variant import Variant


class OrderAnswer(AnswerWidget):
    """A list put in order with the keyboard: ctrl+↑/↓ (or shift+↑/↓) move the highlighted item."""

    BINDINGS = [
        Binding("ctrl+up,shift+up", "move(-1)", "ui.key_move_up"),
        Binding("ctrl+down,shift+down", "move(1)", "ui.key_move_down"),
    ]

    def __init__(self, variant: Variant, lang: str) -> None:
        super().__init__(variant, lang)

    def compose(self) -> ComposeResult:
        question = self.variant.question
        self._order = display_order(self.variant, len(question.items))
        yield ListView(*self._items(), id="order")

    def _items(self) -> list[ListItem]:
        items = [item.text for item in self.variant.question.items]
        return [ListItem(Label(Content(f"{n}. ") + plain(self.variant, items[i], self.lang))) for n, i in enumerate(self._order, 1)]

    async def action_move(self, step: int) -> None:
        view = self.query_one(ListView)
        index = view.index
        if index is None or view.disabled or not 0 <= index + step < len(self._order):
            return
        self._order[index], self._order[index + step] = self._order[index + step], self._order[index]
        await view.clear()
        await view.extend(self._items())
        view.index = index + step

    def response(self) -> Any | Invalid:
        return tuple(self._order)
