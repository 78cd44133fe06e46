"""Small modal screens that ask for one choice: a topic, a claim, a difficulty or a question id.

Topics, claims and difficulties are listed with how many questions each has, so no choice leads
to an empty session: a topic or difficulty without questions is shown greyed out with 0, and
claims no question cites are left out (there are dozens).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from quiz.bank import Bank, SelectionError
from quiz.locale.i18n import tr, tr_count
from quiz.ui.translate import TranslatedBindings, with_group_title


@dataclass(frozen=True)
class Choice:
    """One entry of a picker: the value it returns, its label, and how many questions it holds."""

    value: str
    label: str
    count: int


def topic_choices(bank: Bank, lang: str) -> list[Choice]:
    """Every topic, with its question count (0 for one with none)."""
    counts = Counter(q.topic for q in bank.questions.values())
    return [Choice(t.id, t.label(lang), counts[t.id]) for t in bank.claims.topics.values()]


def claim_choices(bank: Bank, lang: str) -> list[Choice]:
    """The claims at least one question cites, with how many do."""
    counts = Counter(claim for q in bank.questions.values() for claim in set(q.refs))
    return [Choice(c.id, f"{c.id}  {c.label(lang)}", counts[c.id]) for c in bank.claims.claims.values() if counts[c.id]]


def difficulty_choices(bank: Bank, lang: str) -> list[Choice]:
    counts = Counter(q.difficulty for q in bank.questions.values())
    return [Choice(str(d), tr(f"ui.difficulty_{d}", lang), counts[d]) for d in (1, 2, 3)]


class PickScreen(TranslatedBindings, ModalScreen[str | None]):
    """Pick one item from a list; dismisses with its value, or None on Escape."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "ui.key_back")]

    def __init__(self, title: str, choices: list[Choice], lang: str) -> None:
        super().__init__()
        self.heading = title
        self.choices = choices
        self.lang = lang

    def compose(self) -> ComposeResult:
        width = max((cell_len(choice.label) for choice in self.choices), default=0)
        with Vertical(classes="dialog"):
            yield Label(Content(self.heading), classes="dialog-title")
            yield OptionList(*(self._option(choice, width) for choice in self.choices), id="choices")

    def _option(self, choice: Choice, width: int) -> Option:
        """The choice's label, then its question count in a column of its own."""
        words = tr_count("ui.question_count", self.lang, choice.count, count=choice.count)
        padding = " " * (width - cell_len(choice.label) + 2)
        return Option(Content(choice.label + padding) + Content.styled(words, "dim"), id=choice.value, disabled=choice.count == 0)

    def on_mount(self) -> None:
        choices = self.query_one("#choices", OptionList)
        choices.highlighted = next((n for n, choice in enumerate(self.choices) if choice.count), None)
        choices.focus()

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)


class KeyScreen(TranslatedBindings, ModalScreen[str | None]):
    """Type a question id or a variant key (`id#seed`); unknown ids get a suggestion."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "ui.key_back")]

    def __init__(self, lang: str, bank: Bank) -> None:
        super().__init__()
        self.lang = lang
        self.bank = bank

    def compose(self) -> ComposeResult:
        example = next(iter(self.bank.questions), "softmax-jacobian-entry")
        with Vertical(classes="dialog"):
            yield Label(tr("ui.enter_key", self.lang), classes="dialog-title")
            yield with_group_title(Input(placeholder=f"{example}#4711", id="key"), self.lang)
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
