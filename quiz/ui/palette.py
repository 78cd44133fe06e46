"""Textual's command palette in the learner's language: its search prompt, and the line it shows
when nothing matches.

Textual writes that line ("No matches found") itself, in English, with no setting for it. It adds
the line to its result list as a disabled option under a fixed id, through the list's public
`add_option`; `localise_no_matches` wraps that call on this palette's own list, so the option goes
in with the learner's words. If a Textual release changes how the line is made, the palette shows
Textual's English line as before: `NOT_LOCALISED` is logged, and tests/app/test_app.py fails.
"""

from __future__ import annotations

from typing import Final

from rich.align import Align
from rich.text import Text
from textual.command import CommandList, CommandPalette
from textual.visual import VisualType
from textual.widgets.option_list import Option

from quiz.locale.i18n import tr

NO_MATCHES_ID: Final[str | None] = getattr(CommandPalette, "_NO_MATCHES", None)
NOT_LOCALISED: Final = "The command palette's 'No matches found' stays in English: this Textual has no CommandPalette._NO_MATCHES."


class QuizCommandPalette(CommandPalette):
    """The command palette, speaking the interface language."""

    def __init__(self, lang: str) -> None:
        super().__init__(placeholder=tr("ui.palette_placeholder", lang), id="--command-palette")
        self.lang = lang

    def on_mount(self) -> None:
        if NO_MATCHES_ID is None:
            self.log.warning(NOT_LOCALISED)
            return
        results = self.query_one(CommandList)
        add_option = results.add_option
        words = tr("ui.palette_no_matches", self.lang)

        def add_localised(option: Option | VisualType | None = None) -> CommandList:
            if isinstance(option, Option) and option.id == NO_MATCHES_ID:
                option = Option(Align.center(Text(words, style="not bold")), disabled=True, id=NO_MATCHES_ID)
            return add_option(option)

        # The ignore: replacing a bound method on one instance is the point here.
        results.add_option = add_localised  # type: ignore[method-assign]
