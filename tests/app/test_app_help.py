"""F1 opens the quiz's own help, in the learner's language: how to give the answer in front of
them, what each of the screen's keys does, how typed numbers are read and how scoring and the
tolerance rule work. F1 or Esc closes it, and Esc there never leaves the question."""

from __future__ import annotations

import pytest
from textual.widgets import Markdown

from fixture_bank import fixture_bank
from pilot_waits import settle
from quiz.bank import Selection
from quiz.ui.app import QuizApp, make_app
from quiz.ui.screens.help import HelpScreen
from quiz.ui.screens.home import HomeScreen
from quiz.ui.screens.question import QuestionScreen

BANK = fixture_bank()


def help_text(app: QuizApp) -> str:
    return "\n".join(section.source for section in app.screen.query(Markdown))


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("fx-vector", ["Type the answer in the field", "Accepted when |your answer − key| ≤", "Hints for this question: 2 (F2), each costing 25%"]),
        ("fx-choice#2", ["Press an option's letter (a, b, c, …)", "Enter marks the highlighted option and submits it"]),
        ("fx-truefalse", ["Press t for true or f for false"]),
        ("fx-multi#1", ["Tick every correct option", "Enter submits what is ticked"]),
        ("fx-order#1", ["Ctrl+↑ or Ctrl+↓", "Enter submits the order as it stands"]),
        ("fx-explain", ["F4 shows the model answer and a checklist"]),
    ],
)
async def test_help_says_how_to_answer_the_question_on_screen(key, expected):
    app = make_app(start=Selection(key=key), seed=3, bank=BANK)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        text = help_text(app)
        for words in expected:
            assert words in text
        for general in ("`3/4`", "`1 0; 0.5 0.5`", "atol + rtol × |key|", "Give up (F3, pressed twice)"):
            assert general in text


async def test_help_lists_the_screens_own_keys_not_textuals_generic_ones():
    app = make_app(start=Selection(key="fx-choice#2"), seed=3, bank=BANK)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("f1")
        await settle(pilot)
        keys = next(section.source for section in app.screen.query(Markdown) if "Keys on this screen" in section.source)
        for row in ("| ^s | Submit |", "| f2 | Hint |", "| f3 | Give up |", "| f6 / ^n | Next |", "| esc | Home |", "| f1 | Help |"):
            assert row in keys
        assert "| pgup | Scroll the question up |" in keys and "| ⏎ | Mark the highlighted option and submit |" in keys
        assert "Scroll Left" not in keys and "Page Left" not in keys


@pytest.mark.parametrize("close", ["f1", "escape"])
async def test_f1_or_escape_closes_the_help_and_escape_does_not_go_home(close):
    app = make_app(start=Selection(key="fx-vector"), seed=3, bank=BANK)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press(close)
        await settle(pilot)
        assert isinstance(app.screen, QuestionScreen)


async def test_help_is_in_japanese():
    app = make_app(start=Selection(key="fx-vector"), seed=3, lang="ja", bank=BANK)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("f1")
        await settle(pilot)
        text = help_text(app)
        for words in (
            "この問題", "入力欄に答えを入力して Enter", "この画面のキー", "| f3 | ギブアップ |", "数値の入力", "採点", "ギブアップ（F3 を 2 回）"
        ):
            assert words in text
        assert "Press" not in text and "Submit" not in text


async def test_help_on_home_lists_home_keys():
    app = make_app(seed=3, bank=BANK)
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        assert "| f8 | Settings |" in help_text(app)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)


@pytest.mark.parametrize("size", [(80, 24), (100, 30)], ids=["80x24", "100x30"])
@pytest.mark.parametrize("key", ["fx-choice#2", "fx-number#4", None], ids=["choice", "number", "home"])
async def test_the_keys_table_comes_first_and_every_row_shows_without_scrolling(key, size):
    app = make_app(start=Selection(key=key) if key else None, seed=3, bank=BANK)
    async with app.run_test(size=size) as pilot:
        await pilot.press("f1")
        await settle(pilot)
        body = app.screen.query_one("#help-body")
        sections = list(body.query(Markdown))
        assert "Keys on this screen" in sections[0].source
        assert body.scroll_y == 0
        cells = list(sections[0].query("MarkdownTableCellContents"))  # by its type name: the class is private
        rows = {cell.region.y for cell in cells}
        assert len(rows) == sections[0].source.count("\n|") - 1  # the header and one line per key
        for cell in cells:
            assert cell.region.height == 1 and body.content_region.contains_region(cell.region), (cell.content, cell.region)
