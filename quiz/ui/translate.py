"""Textual's own interface texts in the interface language: key bindings and system commands.

Bindings are declared with an i18n key as their description (`"ui.key_hint"`). Textual copies
a class's merged bindings into each node's own map and offers no public way to change their
descriptions, so `translate_bindings` rebuilds a node's map from the class's, in `lang`; it can
run again when the language changes. Bindings added to the node at run time (`App.__init__` adds
a command-palette key when the class declares none) are kept as they are.

The command palette's system commands (theme, quit, keys, screenshot) come from Textual in
English; `translate_command` gives each known one its text in `lang`.
"""

from __future__ import annotations

from dataclasses import replace

from textual.app import SystemCommand
from textual.dom import DOMNode

from quiz.i18n import tr


def translate_bindings(node: DOMNode, lang: str) -> None:
    """Give `node` its class's bindings with each i18n-key description in `lang`."""
    original = type(node)._merged_bindings  # noqa: SLF001 - see the module docstring
    if original is None:
        return
    bindings = original.copy()
    for key, entries in node._bindings.key_to_bindings.items():  # noqa: SLF001
        bindings.key_to_bindings.setdefault(key, entries)
    for key, entries in bindings.key_to_bindings.items():
        bindings.key_to_bindings[key] = [
            replace(b, description=tr(b.description, lang)) if b.description.startswith("ui.") else b for b in entries
        ]
    node._bindings = bindings  # noqa: SLF001


# Textual's system-command texts and their catalogue keys; a text Textual adds later stays English.
_SYSTEM_TEXTS = {
    "Theme": "ui.sys_theme",
    "Change the current theme": "ui.sys_theme_help",
    "Quit": "ui.sys_quit",
    "Quit the application as soon as possible": "ui.sys_quit_help",
    "Keys": "ui.sys_keys",
    "Show help for the focused widget and a summary of available keys": "ui.sys_keys_show_help",
    "Hide the keys and widget help panel": "ui.sys_keys_hide_help",
    "Maximize": "ui.sys_maximize",
    "Maximize the focused widget": "ui.sys_maximize_help",
    "Minimize": "ui.sys_minimize",
    "Minimize the widget and restore to normal size": "ui.sys_minimize_help",
    "Screenshot": "ui.sys_screenshot",
    "Save an SVG 'screenshot' of the current screen": "ui.sys_screenshot_help",
}


def translate_command(command: SystemCommand, lang: str) -> SystemCommand:
    """One of Textual's system commands with its title and help in `lang`."""

    def text(english: str) -> str:
        key = _SYSTEM_TEXTS.get(english)
        return tr(key, lang) if key else english

    return command._replace(title=text(command.title), help=text(command.help))
