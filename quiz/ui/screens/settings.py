"""Settings: the language of the whole interface and its questions, the colour theme, and the
desired retention of review scheduling, with the daily load it would bring shown before it is saved."""

from __future__ import annotations

from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Header, Label, RadioButton, RadioSet, Select, Static

from quiz.history.personal import LOAD_DAYS, MAX_RETENTION, MIN_RETENTION, DailyLoad
from quiz.history.recorder import Recorder
from quiz.history.settings import Settings
from quiz.locale.i18n import LANGUAGES, tr
from quiz.ui.messages import ChangeLanguage, ChangeRetention, ChangeTheme
from quiz.ui.screens.base import QuizScreen
from quiz.ui.widgets.footer import KeyFooter

LANGUAGE_NAMES = {"en": "English", "ja": "日本語"}
RETENTIONS = [round(MIN_RETENTION + n / 100, 2) for n in range(round((MAX_RETENTION - MIN_RETENTION) * 100) + 1)]
"""The desired retentions offered, a hundredth apart."""


class SettingsScreen(QuizScreen):
    """Change settings; language and theme apply and are saved at once, the desired retention once
    its expected daily load has been seen and Save pressed."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "go_home", "ui.key_home")]

    def __init__(self, settings: Settings, themes: list[str], history: Recorder, retention: float) -> None:
        super().__init__(settings.language)
        self.settings = settings
        self.themes = themes
        self.history = history
        self.retention = min(RETENTIONS, key=lambda offered: abs(offered - retention))
        """The desired retention the reviews are scheduled at (the nearest offered, for one set elsewhere)."""
        self.load: DailyLoad | None = None
        """The expected load shown, once simulated."""
        self.simulated = False
        """The load of the retention picked is on screen (or why there is none)."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="settings"):
            yield Label(tr("ui.language", self.lang), classes="setting-title")
            with RadioSet(id="language"):
                for lang in LANGUAGES:
                    yield RadioButton(LANGUAGE_NAMES[lang], value=lang == self.settings.language, name=lang, id=f"lang-{lang}")
            yield Label(tr("ui.theme", self.lang), classes="setting-title")
            yield Select([(name, name) for name in self.themes], value=self.settings.theme, allow_blank=False, id="theme")
            yield Label(tr("ui.retention", self.lang), classes="setting-title")
            with Horizontal(id="retention-row"):
                yield Select([(f"{r:.2f}", r) for r in RETENTIONS], value=self.retention, allow_blank=False, id="retention")
                yield Button(tr("ui.retention_save", self.lang), id="retention-save", disabled=True)
            yield Static(tr("ui.retention_counting", self.lang), id="retention-load", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = tr("ui.title", self.lang)
        self.sub_title = tr("ui.menu_settings", self.lang)
        self.query_one("#language").focus()
        self._simulate(self.retention)

    @on(RadioSet.Changed, "#language")
    def _language(self, event: RadioSet.Changed) -> None:
        if event.pressed.name is not None:
            self.post_message(ChangeLanguage(event.pressed.name))

    @on(Select.Changed, "#theme")
    def _theme(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self.post_message(ChangeTheme(event.value))

    @on(Select.Changed, "#retention")
    def _retention(self, event: Select.Changed) -> None:
        if isinstance(event.value, float):
            self.query_one("#retention-save", Button).disabled = event.value == self.retention
            self.query_one("#retention-load", Static).update(tr("ui.retention_counting", self.lang))
            self.simulated = False
            self._simulate(event.value)

    @on(Button.Pressed, "#retention-save")
    def _save_retention(self) -> None:
        value = self.query_one("#retention", Select).value
        if isinstance(value, float) and value != self.retention:
            self.retention = value
            self.query_one("#retention-save", Button).disabled = True
            self.post_message(ChangeRetention(value))

    class Simulated(Message):
        """The expected daily load at a retention, from the worker (None: no history file)."""

        def __init__(self, retention: float, load: DailyLoad | None) -> None:
            super().__init__()
            self.retention = retention
            self.load = load

    @work(thread=True, exclusive=True, group="retention-load")
    def _simulate(self, retention: float) -> None:
        self.post_message(self.Simulated(retention, self.history.daily_load(retention)))

    @on(Simulated)
    def _show_load(self, message: Simulated) -> None:
        if message.retention != self.query_one("#retention", Select).value:
            return  # another retention was picked meanwhile: its own simulation follows
        self.load, self.simulated = message.load, True
        shown = self.query_one("#retention-load", Static)
        if message.load is None:
            shown.update(tr("ui.retention_no_history", self.lang))
            return
        load = message.load
        figures = {"retention": f"{load.retention:.2f}", "mean": f"{load.mean:.1f}", "peak": load.peak, "today": load.per_day[0]}
        shown.update(tr("ui.retention_load", self.lang, days=LOAD_DAYS, **figures))
