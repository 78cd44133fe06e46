"""The answer input of order questions: a list put in order with the keyboard."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Label, ListItem, ListView

from quiz.types.order import TYPE as ORDER
from quiz.ui.answer_widgets.base import AnswerWidget, plain
from quiz.variants.shuffle import display_order

MOVE = Binding.Group("ui.key_move", compact=True)


class OrderList(ListView):
    """The steps, one per line; Enter submits the order as it stands."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "submit", "ui.key_submit_order", show=False)]

    class SubmitRequested(Message):
        """The learner pressed Enter in the list."""

    def action_submit(self) -> None:
        self.post_message(self.SubmitRequested())


class OrderAnswer(AnswerWidget):
    """Steps put in order: ctrl+↑/↓ (or shift+↑/↓) move the highlighted step."""

    HELP = "ui.help_answer_order"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+up,shift+up", "move(-1)", "ui.key_move_up", group=MOVE),
        Binding("ctrl+down,shift+down", "move(1)", "ui.key_move_down", group=MOVE),
    ]

    def compose(self) -> ComposeResult:
        self._order = display_order(self.variant, len(ORDER.question_of(self.variant).items))
        yield OrderList(*self._items(), id="order")

    def _items(self) -> list[ListItem]:
        items = [item.text for item in ORDER.question_of(self.variant).items]
        return [ListItem(Label(Content(f"{n}. ") + plain(self.variant, items[i], self.lang))) for n, i in enumerate(self._order, 1)]

    def input_widget(self) -> Widget:
        return self.query_one(OrderList)

    async def action_move(self, step: int) -> None:
        view = self.query_one(OrderList)
        index = view.index
        if index is None or view.disabled or not 0 <= index + step < len(self._order):
            return
        self._order[index], self._order[index + step] = self._order[index + step], self._order[index]
        await view.clear()
        await view.extend(self._items())
        view.index = index + step
        self.post_message(self.Changed())

    @on(OrderList.SubmitRequested)
    def _submit(self, event: OrderList.SubmitRequested) -> None:
        event.stop()
        self.post_message(self.Submitted())

    def response(self) -> tuple[int, ...]:
        return tuple(self._order)
