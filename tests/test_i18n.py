"""The interface catalogues: Japanese covers every English text, with the same placeholders, and
every English text Textual shows for the widgets the app uses."""

from __future__ import annotations

import string

from textual.app import App
from textual.containers import ScrollableContainer, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import (
    Checkbox,
    DataTable,
    Input,
    ListView,
    Markdown,
    OptionList,
    RadioButton,
    RadioSet,
    Select,
    SelectionList,
)
from textual.widgets._select import SelectOverlay

from quiz.i18n import LANGUAGES, catalogue
from quiz.ui.answers.registry import WIDGETS
from quiz.ui.answers.base import SingleChoice
from quiz.ui.translate import interface_text

TEXTUAL = "textual."  # Textual's own English texts, by their English: only other languages list them


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_language_has_every_key_with_the_same_placeholders():
    english = catalogue("en")
    for lang in LANGUAGES:
        texts = {key: text for key, text in catalogue(lang).items() if not key.startswith(TEXTUAL)}
        assert texts.keys() == english.keys(), lang
        for key, text in english.items():
            assert fields(texts[key]) == fields(text), (lang, key)


def test_every_key_description_of_the_widgets_we_use_has_a_japanese_text():
    ours = [*WIDGETS.values(), SingleChoice]
    textual = [App, Screen, ModalScreen, Input, OptionList, ListView, SelectionList, Checkbox, DataTable, Select, SelectOverlay]
    textual += [RadioSet, RadioButton, VerticalScroll, ScrollableContainer, Markdown]
    descriptions = {
        binding.description
        for cls in [*textual, *ours]
        if cls._merged_bindings is not None
        for bindings in cls._merged_bindings.key_to_bindings.values()
        for binding in bindings
        if binding.description and not binding.system
    } | {cls.BINDING_GROUP_TITLE for cls in textual if cls.BINDING_GROUP_TITLE}  # the help panel's headings
    untranslated = {text for text in descriptions if interface_text(text, "ja") == text}
    assert not untranslated
    assert interface_text("ui.key_hint", "ja") == "ヒント" and interface_text("Copy selected text", "en") == "Copy selected text"
