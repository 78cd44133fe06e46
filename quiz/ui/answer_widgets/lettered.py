"""Option lists answered from the keyboard as the labels promise: a letter picks its option.

`LetteredOptions` (one choice, true/false): the letter shown beside an option marks it ◉, Space
marks the highlighted one, Enter marks the highlighted one and submits. `LetteredChecklist`
(several choices, a spoken answer's checklist): a letter or Space ticks and unticks (☑), Enter
submits. Both wrap long options rather than cutting them off.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.table import Table
from rich.text import Text as RichText
from textual import events, on
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from quiz.locale.i18n import tr

Choice = tuple[str, str, Content]
"""An option as shown: its letter, its id, and its label."""


class CountedOptions(OptionList):
    """An option list that says in its bottom border how many options lie below what it shows
    ("3 more below"), updated as it scrolls or changes size: on "select all that apply" a hidden
    option changes the answer, and a scroll bar's thumb is too small a cue."""

    def __init__(self, *options: Option, lang: str, id: str | None = None) -> None:
        super().__init__(*options, id=id)
        self.lang = lang

    @property
    def below(self) -> int:
        """How many options are not wholly shown below the visible rows."""
        bottom = round(self.scroll_y) + self.scrollable_content_region.height  # the first line not shown
        starts, heights = self._index_to_line, self._heights  # Textual's own line map of the options
        return sum(1 for index in range(self.option_count) if starts.get(index, 0) + heights.get(index, 1) > bottom)

    def count_below(self) -> None:
        """Say how many options lie below, or nothing when every one is shown."""
        hidden = self.below if self.scrollable_content_region.height else 0
        text = tr("ui.more_below", self.lang, count=hidden) if hidden else ""
        if self.border_subtitle != text:
            self.border_subtitle = text

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.count_below()

    def on_resize(self) -> None:
        self.call_after_refresh(self.count_below)  # once the options' lines are laid out at the new width


def hanging(mark: str, label: Content) -> Table:
    """An option's prompt: its mark and letter, then its label, whose wrapped lines stay indented
    under its first word rather than running back under the mark."""
    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1)
    grid.add_row(mark, RichText(label.plain))
    return grid


def _letter_of(event: events.Key) -> str:
    return (event.character or "").lower()


class LetteredOptions(CountedOptions):
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

    def __init__(self, choices: Sequence[Choice], *, lang: str, id: str | None = None) -> None:
        self.choices = list(choices)
        self.chosen: str | None = None
        super().__init__(*(Option(self._prompt(choice), id=choice[1]) for choice in self.choices), lang=lang, id=id)

    def _prompt(self, choice: Choice) -> Table:
        letter, option_id, label = choice
        return hanging(f"{'◉' if option_id == self.chosen else '○'} {letter}) ", label)

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


class LetteredChecklist(CountedOptions):
    """Tick boxes that wrap, each behind a letter; Enter submits what is ticked.

    An OptionList with the box drawn in each option's own text, like `LetteredOptions`' ◉:
    Textual's SelectionList draws its box beside every line, so an option that wraps showed a
    second box, lit with the state of the option below it.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "submit", "ui.key_submit_ticked", show=False),
        Binding("space", "tick", "ui.key_tick", show=False),
    ]

    class Toggled(Message):
        """An option was ticked or unticked."""

    class SubmitRequested(Message):
        """The learner pressed Enter in the checklist."""

    def __init__(self, choices: Sequence[Choice], *, lang: str, id: str | None = None) -> None:
        self.choices = list(choices)
        self.letters = [letter for letter, _, _ in choices]
        self.ticked: set[str] = set()
        super().__init__(*(Option(self._prompt(choice), id=choice[1]) for choice in self.choices), lang=lang, id=id)

    @property
    def selected(self) -> list[str]:
        """The ids of the ticked options, in the order shown."""
        return [option_id for _, option_id, _ in self.choices if option_id in self.ticked]

    def _prompt(self, choice: Choice) -> Table:
        letter, option_id, label = choice
        return hanging(f"{'☑' if option_id in self.ticked else '☐'} {letter}) ", label)

    def on_key(self, event: events.Key) -> None:
        letter = _letter_of(event)
        if letter in self.letters and not self.disabled:
            event.stop()
            event.prevent_default()
            self.highlighted = self.letters.index(letter)
            self._toggle(self.highlighted)

    def action_tick(self) -> None:
        if self.highlighted is not None:
            self._toggle(self.highlighted)

    @on(OptionList.OptionSelected)
    def _clicked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._toggle(event.option_index)

    def _toggle(self, index: int) -> None:
        choice = self.choices[index]
        self.ticked ^= {choice[1]}
        self.replace_option_prompt_at_index(index, self._prompt(choice))
        self.post_message(self.Toggled())

    def action_submit(self) -> None:
        self.post_message(self.SubmitRequested())
