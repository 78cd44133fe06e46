"""Nothing hidden: choice, multi and checklist options take the rows the question leaves empty, and
where they still cannot all be shown the list says how many lie below, as it scrolls. The bundled
`stable-softmax-facts` (multi, six options) and `explain-why-sqrt-dk` (a seven-point checklist
under its model answer) at 100×30, 80×24 and 60×16, through Textual's pilot."""

from __future__ import annotations

import pytest

from pilot_waits import settle
from quiz.bank import Selection, load_bank
from quiz.ui.answer_widgets.lettered import CountedOptions
from quiz.ui.app import QuizApp, make_app

BANK = load_bank()


def start(key: str, lang: str = "en") -> QuizApp:
    return make_app(start=Selection(key=key), seed=1, lang=lang, bank=BANK)


def options_of(app: QuizApp) -> CountedOptions:
    return app.screen.query_one("#answer-area").query_one(CountedOptions)


def lines_hidden(options: CountedOptions) -> int:
    """Textual's own measure: the option lines beyond the rows the list shows."""
    return max(0, options.virtual_size.height - options.scrollable_content_region.height - round(options.scroll_y))


def said_below(options: CountedOptions) -> str:
    return str(options.border_subtitle or "")


@pytest.mark.parametrize("size", [(100, 30), (80, 24)])
async def test_every_option_of_stable_softmax_facts_shows_where_the_question_leaves_room(size):
    app = start("stable-softmax-facts")
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        options = options_of(app)
        assert options.option_count == 6
        assert lines_hidden(options) == 0 and said_below(options) == ""
        assert options.region.bottom <= app.screen.query_one("#answer-dock").region.bottom  # on screen, above the footer


@pytest.mark.parametrize("lang, said", [("en", "▼ {n} more below"), ("ja", "▼ 下にあと {n} 件")])
async def test_at_60x16_the_count_below_is_shown_and_follows_the_scroll(lang, said):
    app = start("stable-softmax-facts", lang)
    async with app.run_test(size=(60, 16)) as pilot:
        await settle(pilot)
        options = options_of(app)
        hidden = options.below
        assert lines_hidden(options) > 0 and hidden > 0
        assert said_below(options) == said.format(n=hidden)
        await pilot.press("down", "down", "down", "down", "down")  # the highlight walks to option f), scrolling
        await settle(pilot)
        assert lines_hidden(options) == 0 and said_below(options) == ""
        assert options.highlighted == 5
        await pilot.press("up", "up", "up", "up", "up")
        await settle(pilot)
        assert options.scroll_y == 0 and said_below(options) == said.format(n=hidden)  # back at the top: counted again


@pytest.mark.parametrize("size", [(100, 30), (80, 24), (60, 16)])
async def test_the_checklist_under_a_model_answer_counts_the_points_below(size):
    app = start("explain-why-sqrt-dk")
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("f4")
        await settle(pilot)
        options = options_of(app)
        assert options.option_count == 7
        hidden = options.below
        assert (hidden > 0) == (lines_hidden(options) > 0)
        assert said_below(options) == (f"▼ {hidden} more below" if hidden else "")
        await pilot.press(*["down"] * 6)
        await settle(pilot)
        assert said_below(options) == "" and lines_hidden(options) == 0
