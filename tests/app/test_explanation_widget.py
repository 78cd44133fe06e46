"""The explanation drawn as one widget: code blocks shaded as Textual's Markdown shades a fence."""

from __future__ import annotations

from rich.padding import Padding
from textual.app import App, ComposeResult

from quiz.ui.widgets.explanation import PlainExplanation, explanation_widget

EXPLANATION = "The weights come out as\n\n```\n[0.25, 0.75]\n```\n\nso the output is 0.75."


class Shown(App[None]):
    def compose(self) -> ComposeResult:
        yield explanation_widget(EXPLANATION, id="explanation")


async def code_block_background(theme: str, *, ansi: bool = False) -> object:
    app = Shown()
    async with app.run_test() as pilot:
        app.theme = theme
        app.ansi_color = ansi
        await pilot.pause()
        widget = app.query_one(PlainExplanation)
        [block] = [r for r in widget.render().renderables if isinstance(r, Padding)]
        assert widget.plain == "The weights come out as\n[0.25, 0.75]\nso the output is 0.75."
        return block.style.bgcolor, widget.background_colors[1].rich_color


async def test_a_code_block_is_shaded_darker_on_a_dark_theme_and_lighter_on_a_light_one():
    shade, background = await code_block_background("textual-dark")
    assert shade is not None and sum(shade.triplet) < sum(background.triplet)
    shade, background = await code_block_background("textual-light")
    assert shade is not None and sum(shade.triplet) > sum(background.triplet)


async def test_a_code_block_takes_no_shade_in_the_terminals_own_colours():
    shade, _ = await code_block_background("textual-dark", ansi=True)
    assert shade is None
