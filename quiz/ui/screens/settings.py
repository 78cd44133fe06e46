"""Settings: the language of the whole interface and its questions, and the colour theme."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Header, Label, RadioButton, RadioSet, Select

from quiz.history.settings import Settings
from quiz.locale.i18n import LANGUAGES, tr
from quiz.ui.messages import ChangeLanguage, ChangeTheme
from quiz.ui.screens.base import QuizScreen
from quiz.ui.widgets.footer import KeyFooter

LANGUAGE_NAMES = {"en": "English", "ja": "日本語"}


class SettingsScreen(QuizScreen):
    """Change settings; each change applies and is saved at once."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "go_home", "ui.key_home")]

    def __init__(self, settings: Settings, themes: list[str]) -> None:
        super().__init__(settings.language)
        self.settings = settings
        self.themes = themes

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="settings"):
            yield Label(tr("ui.language", self.lang), classes="setting-title")
            with RadioSet(id="language"):
                for lang in LANGUAGES:
                    yield RadioButton(LANGUAGE_NAMES[lang], value=lang == self.settings.language, name=lang, id=f"lang-{lang}")
            yield Label(tr("ui.theme", self.lang), classes="setting-title")
            yield Select([(name, name) for name in self.themes], value=self.settings.theme, allow_blank=False, id="theme")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = tr("ui.title", self.lang)
        self.sub_title = tr("ui.menu_settings", self.lang)
        self.query_one("#language").focus()

    @on(RadioSet.Changed, "#language")
    def _language(self, event: RadioSet.Changed) -> None:
        if event.pressed.name is not None:
            self.post_message(ChangeLanguage(event.pressed.name))

    @on(Select.Changed, "#theme")
    def _theme(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self.post_message(ChangeTheme(event.value))
