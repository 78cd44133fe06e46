"""The interface catalogues: Japanese covers every English text, with the same placeholders, and
every English text Textual shows for the widgets the app uses."""

from __future__ import annotations

import re
import string

import pytest
from textual.app import App
from textual.binding import Binding
from textual.widgets import DataTable, Input, Markdown, RadioButton, RadioSet, Select

from fixture_bank import fixture_bank
from pilot_waits import settle
from quiz.bank import Selection
from quiz.locale.i18n import LANGUAGES, catalogue, tr_count
from quiz.ui.app import make_app
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


def declared_bindings(cls: type) -> list[Binding]:
    """The bindings a class and its bases declare (each class's own BINDINGS)."""
    found = []
    for klass in cls.__mro__:
        for binding in vars(klass).get("BINDINGS", []):
            found.append(binding if isinstance(binding, Binding) else Binding(*binding))
    return found


async def test_every_text_textual_shows_for_the_widgets_we_use_has_a_japanese_text():
    """Key descriptions, tooltips, group headings and system commands of every widget on the
    app's screens (each kind of answer, the browser's filters, settings, the round's summary and
    the statistics), found by walking them."""
    from quiz.practice.summary import summarise
    from quiz.ui.screens.browser import BrowserScreen
    from quiz.ui.screens.settings import SettingsScreen
    from quiz.ui.screens.stats import StatisticsScreen
    from quiz.ui.screens.summary import SummaryScreen

    bank = fixture_bank()
    classes: set[type] = {DataTable, Input, Markdown, RadioButton, RadioSet, Select}
    app = make_app(seed=1, lang="ja", bank=bank)
    async with app.run_test(size=(100, 40)) as pilot:
        commands = list(App.get_system_commands(app, app.screen))  # Textual's own, in English
        for key in [f"{qid}#1" for qid in bank.questions]:
            app.practice.start(Selection(key=key))
            await settle(pilot)
            if key.startswith("fx-explain"):
                await pilot.press("f4")
                await settle(pilot)
            classes |= {type(node) for node in app.screen.walk_children()} | {type(app.screen)}
            app.pop_screen()
        others = (
            BrowserScreen(bank, "ja"),
            SettingsScreen(app.settings, ["textual-dark"], app.history, 0.9),
            SummaryScreen(summarise(bank, []), bank, "ja"),
            StatisticsScreen(bank, "ja", app.history),
        )
        for screen in others:
            await app.push_screen(screen)
            await settle(pilot)
            classes |= {type(node) for node in screen.walk_children()} | {type(screen)}
            for select in screen.query(Select):  # its overlay appears when it opens
                select.expanded = True
                await settle(pilot)
                classes |= {type(node) for node in select.walk_children()}
            app.pop_screen()
        classes.add(type(app))
    bindings = [binding for cls in classes for binding in declared_bindings(cls) if not binding.system]
    texts = {binding.description for binding in bindings if binding.description}
    texts |= {binding.tooltip for binding in bindings if binding.tooltip}
    texts |= {binding.group.description for binding in bindings if binding.group}
    texts |= {cls.BINDING_GROUP_TITLE for cls in classes if getattr(cls, "BINDING_GROUP_TITLE", None)}
    texts |= {text for command in commands for text in (command.title, command.help)}
    untranslated = {text for text in texts if interface_text(text, "ja") == text}
    assert not untranslated, untranslated
    assert "Quit the app and return to the command prompt." in texts  # the tooltip the key panel showed cut off
    assert interface_text("ui.key_hint", "ja") == "ヒント" and interface_text("Copy selected text", "en") == "Copy selected text"


JAPANESE = "\u3040-\u30ff\u4e00-\u9fff"
HALF_WIDTH_AROUND_JAPANESE = re.compile(f"[{JAPANESE}][:(,]|[{JAPANESE}] ?\\)|\\( ?[{JAPANESE}]")


def test_japanese_texts_use_full_width_punctuation_around_japanese():
    """「：」「（」「）」 next to Japanese, never the half-width ones (code and maths keep theirs)."""
    mixed = {key: text for key, text in catalogue("ja").items() if HALF_WIDTH_AROUND_JAPANESE.search(text)}
    assert not mixed, mixed


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_mock_of_one_question_says_one_question_in_the_sheet_and_the_report_counts(lang):
    one = tr_count("mock.sheet_summary", lang, 1, minutes="5", count=1, planned="05:00")
    many = tr_count("mock.sheet_summary", lang, 2, minutes="5", count=2, planned="05:00")
    counts = tr_count("mockreport.counts", lang, 1, questions=1, no_answer=0, not_reached=0, over_time=0, awaiting=0)
    if lang == "en":
        assert "1 question ·" in one and "1 questions" not in one and "2 questions" in many
        assert counts.startswith("1 question ·")
    else:
        assert "1 問" in one and "2 問" in many and counts.startswith("全 1 問")
