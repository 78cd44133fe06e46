"""The answer input of order questions: a list put in order with the keyboard, or typed as numbers.

Each step keeps the number it was first shown with, so the numbers typed (`3 1 2`, as `quiz grade`
reads them) always name the same steps, however the list has been moved since."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Label, ListItem, ListView, Static

from quiz.answer_text import Invalid
from quiz.locale.i18n import tr
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
        self._shown = display_order(self.variant, len(ORDER.question_of(self.variant).items))
        self._order = list(self._shown)
        yield OrderList(*self._items(), id="order")
        yield Input(placeholder=tr("ui.order_typed_placeholder", self.lang), id="order-typed")
        yield Static("", id="order-typed-note", markup=False)

    def _items(self) -> list[ListItem]:
        items = [item.text for item in ORDER.question_of(self.variant).items]
        return [ListItem(Label(Content(f"{self._shown.index(i) + 1}. ") + plain(self.variant, items[i], self.lang))) for i in self._order]

    async def _show_order(self, index: int | None) -> None:
        view = self.query_one(OrderList)
        await view.clear()
        await view.extend(self._items())
        view.index = index
        self.post_message(self.Changed())

    @on(Input.Changed, "#order-typed")
    async def _typed(self, event: Input.Changed) -> None:
        """A whole order typed as the steps' numbers puts the list in that order at once."""
        event.stop()
        note = self.query_one("#order-typed-note", Static)
        note.display = bool(event.value.strip())  # a row only while something is typed
        if not note.display:
            return
        read = ORDER.read(self.variant, event.value)
        if isinstance(read, Invalid):
            note.update(read.message(self.lang))
            return
        note.update(tr("ui.order_typed_read", self.lang))
        if list(read) != self._order:
            self._order = list(read)
            await self._show_order(self.query_one(OrderList).index)

    @on(Input.Submitted, "#order-typed")
    def _typed_submit(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Submitted())

    def input_widget(self) -> Widget:
        return self.query_one(OrderList)

    async def action_move(self, step: int) -> None:
        view = self.query_one(OrderList)
        index = view.index
        if index is None or view.disabled or not 0 <= index + step < len(self._order):
            return
        self._order[index], self._order[index + step] = self._order[index + step], self._order[index]
        await self._show_order(index + step)

    @on(OrderList.SubmitRequested)
    def _submit(self, event: OrderList.SubmitRequested) -> None:
        event.stop()
        self.post_message(self.Submitted())

    def response(self) -> tuple[int, ...]:
        return tuple(self._order)
