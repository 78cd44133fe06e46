"""The quiz's own help (F1): what each key of the screen below does, how to give each kind of
answer, and how answers are scored, in the learner's language. F1 or Esc closes it.

The screen that was open when F1 was pressed says what to show: its keys come first, listed from
its bindings (the ones the quiz declared, not Textual's generic scrolling keys) one line each, so
they fit without scrolling at 80x24; then `help_sections()` gives its own paragraphs (the question
screen explains the answer in front of the learner), then the general ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, Markdown

from quiz.locale.i18n import tr
from quiz.ui.translate import TranslatedBindings, interface_text, is_ours

Section = tuple[str, str]
"""A heading and its Markdown."""


def key_table(screen: Screen[object], lang: str) -> str:
    """The quiz's keys active on `screen`, one Markdown table row each, described in `lang`:
    the footer's keys first, then those it does not show."""
    rows: dict[str, list[str]] = {}
    bindings = screen.untranslated_bindings if isinstance(screen, TranslatedBindings) else screen.active_bindings
    for active in sorted(bindings.values(), key=lambda active: not active.binding.show):
        binding = active.binding
        if not is_ours(binding) or not active.enabled:
            continue
        keys = rows.setdefault(interface_text(binding.description, lang), [])
        display = screen.app.get_key_display(binding)
        if display not in keys:
            keys.append(display)
    header = f"| {tr('ui.help_key', lang)} | {tr('ui.help_does', lang)} |\n|---|---|\n"
    return header + "".join(f"| {' / '.join(keys)} | {what} |\n" for what, keys in rows.items())


class HelpScreen(TranslatedBindings, ModalScreen[None]):
    """How to use the screen below it; F1 or Esc closes it, and nothing else happens."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "ui.key_close_help"),
        Binding("f1", "close", "ui.key_close_help"),
    ]

    def __init__(self, keys: Section, sections: Sequence[Section], lang: str) -> None:
        super().__init__()
        self.keys = keys
        self.sections = list(sections)
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="help"):
            yield Label(tr("ui.help_title", self.lang), classes="dialog-title")
            with VerticalScroll(id="help-body"):
                heading, table = self.keys
                yield Markdown(f"## {heading}\n\n{table}", classes="help-section", id="help-keys")
                for heading, body in self.sections:
                    yield Markdown(f"## {heading}\n\n{body}", classes="help-section")
            yield Label(tr("ui.help_close", self.lang), id="help-close")

    def on_mount(self) -> None:
        self.query_one("#help-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)


def general_sections(lang: str) -> list[Section]:
    """What every screen's help ends with: typing numbers, and how scoring works."""
    return [
        (tr("ui.help_typing_title", lang), tr("ui.help_typing", lang)),
        (tr("ui.help_scoring_title", lang), tr("ui.help_scoring", lang)),
    ]
