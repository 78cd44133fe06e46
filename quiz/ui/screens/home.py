"""The home screen: practise (everything or a selection), browse the bank, settings."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from quiz.i18n import tr
from quiz.ui.translate import TranslatedBindings
from quiz.ui.widgets.footer import KeyFooter

MENU = ("practice_all", "practice_topic", "practice_claim", "practice_difficulty", "practice_one", "browse", "settings", "quit")


class HomeScreen(TranslatedBindings, Screen[None]):
    """Where every session starts."""

    BINDINGS = [Binding("f8", "app.open_settings", "ui.key_settings")]

    def __init__(self, lang: str, question_count: int) -> None:
        super().__init__()
        self.lang = lang
        self.question_count = question_count

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home"):
            yield Static(tr("ui.welcome", self.lang, count=self.question_count), id="welcome", markup=False)
            yield OptionList(*(Option(tr(f"ui.menu_{item}", self.lang), id=item) for item in MENU), id="menu")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = tr("ui.title", self.lang)
        self.sub_title = ""
        menu = self.query_one("#menu", OptionList)
        menu.highlighted = 0
        menu.focus()

    @on(OptionList.OptionSelected, "#menu")
    async def _chosen(self, event: OptionList.OptionSelected) -> None:
        await self.app.run_action(f"menu('{event.option.id}')")
