"""The text a screen shows, read off its widgets, for tests that look for words wherever they are drawn."""

from __future__ import annotations

from rich.console import Console
from textual.widgets import OptionList, Static

from quiz.ui.widgets.explanation import PlainExplanation


def screen_text(screen) -> str:
    """All text on the screen's widgets, whitespace removed (wrapping may split a formula)."""
    parts = [widget.plain if isinstance(widget, PlainExplanation) else str(widget.render()) for widget in screen.query(Static)]
    for options in screen.query(OptionList):
        parts += [plain(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
    return "".join("".join(parts).split())


def plain(prompt: object) -> str:
    """An option's prompt as text: a string, or a renderable (a lettered option is a grid)."""
    if isinstance(prompt, str):
        return prompt
    console = Console(width=400, color_system=None)
    with console.capture() as captured:
        console.print(prompt)
    return captured.get()
