"""Option lists answered from the keyboard as the labels promise: a letter picks its option.

`LetteredOptions` (one choice, true/false): the letter shown beside an option marks it ◉, Space
marks the highlighted one, Enter marks the highlighted one and submits. `LetteredChecklist`
(several choices, a spoken answer's checklist): a letter or Space ticks and unticks, Enter
submits. Both wrap long options rather than cutting them off.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import events, on
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList, SelectionList
from textual.widgets.option_list import Option
from textual.widgets.selection_list import Selection

Choice = tuple[str, str, Content]
"""An option as shown: its letter, its id, and its label."""


def _letter_of(event: events.Key) -> str:
    return (event.character or "").lower()


class LetteredOptions(OptionList):
    """Options that wrap, each behind a letter; the one chosen is marked ◉."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "choose(True)", "ui.key_choose_submit", show=False),
        Binding("space", "choose(False)", "ui.key_choose", show=False),
    ]

    class Chosen(Message):
        """An option was marked; `submit` when the learner also asked to submit (Enter)."""

        def __init__(self, option_id: str, submit: bool) -> None:
            super().__init__()
            self.option_id = option_id
            self.submit = submit

    def __init__(self, choices: Sequence[Choice], *, id: str | None = None) -> None:
        self.choices = list(choices)
        self.chosen: str | None = None
        super().__init__(*(Option(self._prompt(choice), id=choice[1]) for choice in self.choices), id=id)

    def _prompt(self, choice: Choice) -> Content:
        letter, option_id, label = choice
        return Content("◉ " if option_id == self.chosen else "○ ") + Content(f"{letter}) ") + label

    def on_key(self, event: events.Key) -> None:
        letters = [letter for letter, _, _ in self.choices]
        letter = _letter_of(event)
        if letter in letters and not self.disabled:
            event.stop()
            event.prevent_default()
            self.highlighted = letters.index(letter)
            self._choose(self.highlighted, submit=False)

    def action_choose(self, submit: bool) -> None:
        if self.highlighted is not None:
            self._choose(self.highlighted, submit)

    @on(OptionList.OptionSelected)
    def _clicked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._choose(event.option_index, submit=False)

    def _choose(self, index: int, submit: bool) -> None:
        self.chosen = self.choices[index][1]
        for n, choice in enumerate(self.choices):
            self.replace_option_prompt_at_index(n, self._prompt(choice))
        self.post_message(self.Chosen(self.chosen, submit))


class LetteredChecklist(SelectionList[str]):
    """Tick boxes that wrap, each behind a letter; Enter submits what is ticked."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "ui.key_submit_ticked", show=False),
        Binding("space", "select", "ui.key_tick", show=False),
    ]

    class SubmitRequested(Message):
        """The learner pressed Enter in the checklist."""

    def __init__(self, choices: Sequence[Choice], *, id: str | None = None) -> None:
        self.letters = [letter for letter, _, _ in choices]
        super().__init__(*(Selection(Content(f"{letter}) ") + label, value) for letter, value, label in choices), id=id)

    def on_key(self, event: events.Key) -> None:
        letter = _letter_of(event)
        if letter in self.letters and not self.disabled:
            event.stop()
            event.prevent_default()
            self.highlighted = self.letters.index(letter)
            self.toggle(self.get_option_at_index(self.highlighted).value)

    def action_submit(self) -> None:
        self.post_message(self.SubmitRequested())
