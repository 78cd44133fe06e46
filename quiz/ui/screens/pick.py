"""Small modal screens that ask for one choice: a topic, a claim, a difficulty or a question id."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from quiz.bank import Bank, SelectionError
from quiz.i18n import tr
from quiz.ui.translate import TranslatedBindings, with_group_title


class PickScreen(TranslatedBindings, ModalScreen[str | None]):
    """Pick one item from a list; dismisses with its id, or None on Escape."""

    BINDINGS = [Binding("escape", "dismiss(None)", "ui.key_back")]

    def __init__(self, title: str, options: list[tuple[str, str]], lang: str) -> None:
        super().__init__()
        self.heading = title
        self.options = options
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Content(self.heading), classes="dialog-title")
            yield OptionList(*(Option(Content(label), id=key) for key, label in self.options), id="choices")

    def on_mount(self) -> None:
        choices = self.query_one("#choices", OptionList)
        choices.highlighted = 0
        choices.focus()

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)


class KeyScreen(TranslatedBindings, ModalScreen[str | None]):
    """Type a question id or a variant key (`id#seed`); unknown ids get a suggestion."""

    BINDINGS = [Binding("escape", "dismiss(None)", "ui.key_back")]

    def __init__(self, lang: str, bank: Bank) -> None:
        super().__init__()
        self.lang = lang
        self.bank = bank

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(tr("ui.enter_key", self.lang), classes="dialog-title")
            yield with_group_title(Input(placeholder="softmax-jacobian-entry#4711", id="key"), self.lang)
            yield Static(id="key-message", markup=False)

    @on(Input.Submitted, "#key")
    def _entered(self, event: Input.Submitted) -> None:
        key = event.value.strip()
        try:
            self.bank.find(key)
        except SelectionError as exc:
            self.query_one("#key-message", Static).update(exc.message(self.lang))
            return
        self.dismiss(key)
