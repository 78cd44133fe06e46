"""Footer and help texts of key bindings in the interface language.

Bindings are declared with an i18n key as their description (`"ui.key_hint"`). Textual copies
a class's merged bindings into each node's own map and offers no public way to change their
descriptions, so `translate_bindings` rebuilds a node's map from the class's, in `lang`; it can
run again when the language changes.
"""

from __future__ import annotations

from dataclasses import replace

from textual.dom import DOMNode

from quiz.i18n import tr


def translate_bindings(node: DOMNode, lang: str) -> None:
    """Give `node` its class's bindings with each i18n-key description in `lang`."""
    original = type(node)._merged_bindings  # noqa: SLF001 - see the module docstring
    if original is None:
        return
    bindings = original.copy()
    for key, entries in bindings.key_to_bindings.items():
        bindings.key_to_bindings[key] = [
            replace(b, description=tr(b.description, lang)) if b.description.startswith("ui.") else b for b in entries
        ]
    node._bindings = bindings  # noqa: SLF001
