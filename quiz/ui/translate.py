"""Key descriptions and Textual's own texts in the interface language.

Our bindings are declared with an i18n key as their description (`"ui.key_hint"`); Textual's
widgets describe theirs in English ("Copy selected text"), and so do the command palette's system
commands. Both the footer and the F1 help panel read a screen's `active_bindings`, so screens
take `TranslatedBindings` and every key they list is described in the screen's language. Textual's
English texts are looked up in the catalogue's `[textual]` table; one it lacks stays English.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import TypeVar

from textual.app import SystemCommand
from textual.binding import ActiveBinding, Binding
from textual.dom import DOMNode

from quiz.i18n import catalogue, tr


def interface_text(text: str, lang: str) -> str:
    """`text` in `lang`: an i18n key (`ui.key_hint`) or one of Textual's English texts."""
    if text.startswith("ui."):
        return tr(text, lang)
    return catalogue(lang).get(f"textual.{text}", text)


@cache
def translate_binding(binding: Binding, lang: str) -> Binding:
    """`binding` with its description in `lang` (bindings are frozen and few: cached)."""
    return replace(binding, description=interface_text(binding.description, lang)) if binding.description else binding


class TranslatedBindings:
    """Screen mixin: the keys the footer and the help panel list, described in `self.lang`."""

    lang: str

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        bindings: dict[str, ActiveBinding] = super().active_bindings  # type: ignore[misc]
        return {key: active._replace(binding=translate_binding(active.binding, self.lang)) for key, active in bindings.items()}


Node = TypeVar("Node", bound=DOMNode)


def with_group_title(node: Node, lang: str) -> Node:
    """`node` with the heading the help panel gives its keys (Textual's Input has "Input") in `lang`."""
    if node.BINDING_GROUP_TITLE:
        node.BINDING_GROUP_TITLE = interface_text(node.BINDING_GROUP_TITLE, lang)
    return node


def translate_command(command: SystemCommand, lang: str) -> SystemCommand:
    """One of Textual's system commands (theme, quit, keys, ...) with its title and help in `lang`."""
    return command._replace(title=interface_text(command.title, lang), help=interface_text(command.help, lang))
