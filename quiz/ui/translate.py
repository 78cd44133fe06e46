"""Key descriptions and Textual's own texts in the interface language, short when the screen is.

Our bindings are declared with an i18n key as their description (`"ui.key_hint"`); Textual's
widgets describe theirs in English ("Copy selected text"), and so do the command palette's system
commands. The footer and the help screen read a screen's `active_bindings`, so screens take
`TranslatedBindings` and every key they list is described in the screen's language. Textual's
English texts are looked up in the catalogue's `[textual]` table; one it lacks stays English.

Below the medium breakpoint (see `quiz.ui.app.QuizApp.HORIZONTAL_BREAKPOINTS`) a key whose
catalogue entry has a `_short` twin (`ui.key_fresh_short`) is described by it, so that the footer
still shows every key it must on a narrow terminal.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import TypeVar

from textual.app import SystemCommand
from textual.binding import ActiveBinding, Binding
from textual.dom import DOMNode

from quiz.locale.i18n import catalogue, tr

OUR_AREAS = ("ui.", "mockapp.")
"""Catalogue areas whose keys describe the quiz's own bindings (the mock interview's have their own)."""
NARROW_CLASSES = frozenset({"-tiny", "-narrow"})
"""The screen's width classes at which the footer uses short key labels."""


def interface_text(text: str, lang: str) -> str:
    """`text` in `lang`: an i18n key (`ui.key_hint`) or one of Textual's English texts."""
    if text.startswith(OUR_AREAS):
        return tr(text, lang)
    return catalogue(lang).get(f"textual.{text}", text)


def short_text(text: str, lang: str) -> str:
    """The short form of a key description, where the catalogue has one."""
    if text.startswith(OUR_AREAS) and f"{text}_short" in catalogue("en"):
        return tr(f"{text}_short", lang)
    return interface_text(text, lang)


@cache
def translate_binding(binding: Binding, lang: str, short: bool = False) -> Binding:
    """`binding` with its description and tooltip in `lang` (bindings are frozen and few: cached)."""
    describe = short_text if short else interface_text
    group = binding.group
    return replace(
        binding,
        description=describe(binding.description, lang) if binding.description else "",
        tooltip=interface_text(binding.tooltip, lang) if binding.tooltip else "",
        group=replace(group, description=describe(group.description, lang)) if group else None,
    )


def is_ours(binding: Binding) -> bool:
    """A key the quiz declared (described by a catalogue key), as opposed to a widget's own."""
    return binding.description.startswith(OUR_AREAS)


class TranslatedBindings:
    """Screen mixin: the keys the footer and the help screen list, described in `self.lang`."""

    lang: str

    def footer_omits(self, narrow: bool) -> frozenset[str]:
        """Actions left out of the footer (on a narrow terminal, or always), because another key
        does them or they matter little here; the help screen still lists them."""
        return frozenset()

    @property
    def untranslated_bindings(self) -> dict[str, ActiveBinding]:
        """The active bindings as declared, descriptions still catalogue keys."""
        return super().active_bindings  # type: ignore[misc]  # a mixin: the Screen after it in the MRO has them

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        narrow = bool(NARROW_CLASSES & self.classes)  # type: ignore[attr-defined]  # the Screen it is mixed into has classes
        omitted = self.footer_omits(narrow)
        return {
            key: active._replace(binding=translate_binding(active.binding, self.lang, narrow))
            for key, active in self.untranslated_bindings.items()
            if active.binding.action not in omitted
        }


Node = TypeVar("Node", bound=DOMNode)


def with_group_title(node: Node, lang: str) -> Node:
    """`node` with the heading its keys are grouped under (Textual's Input has "Input") in `lang`."""
    if node.BINDING_GROUP_TITLE:
        node.BINDING_GROUP_TITLE = interface_text(node.BINDING_GROUP_TITLE, lang)
    return node


def translate_command(command: SystemCommand, lang: str) -> SystemCommand:
    """One of Textual's system commands (theme, quit, keys, ...) with its title and help in `lang`."""
    return command._replace(title=interface_text(command.title, lang), help=interface_text(command.help, lang))
