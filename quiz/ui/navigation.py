"""The app's answers to what the screens ask for: each typed message (`quiz.ui.messages`) a
screen posts opens the screen that follows or saves the change."""

from __future__ import annotations

from dataclasses import replace

from textual import on

from quiz.bank import Selection
from quiz.history.records import Mode
from quiz.locale.i18n import LANGUAGES, tr
from quiz.ui.app_base import QuizAppBase
from quiz.ui.messages import (
    ChangeLanguage,
    ChangeTheme,
    GoHome,
    MarkEasy,
    OpenBrowser,
    OpenSettings,
    OpenStatistics,
    ReviewDue,
    RoundOver,
    StartPractice,
)
from quiz.ui.screens.loading import LoadingScreen


class Navigation(QuizAppBase):
    """The app's part that moves between screens and applies settings chosen on them."""

    @on(StartPractice)
    def _start_practice(self, message: StartPractice) -> None:
        self.start_practice(message.selection)

    @on(ReviewDue)
    def _review_due(self) -> None:
        """A round of the questions due for review, most overdue first."""
        if self.bank is None:
            return
        due = self._due(wait=True)
        if due is None:
            problem = self.history.problem
            self.notify(problem.message(self.lang) if problem else tr("ui.history_not_saved", self.lang), severity="warning", markup=False)
        elif not due:
            self.notify(tr("history.nothing_due", self.lang))
        else:
            self.start_practice(Selection(ids=tuple(due)), Mode.REVIEW)

    @on(RoundOver)
    def _round_over(self, message: RoundOver) -> None:
        """The summary of the round takes the place of its question screen."""
        from quiz.ui.screens.summary import SummaryScreen  # imported when first needed: start-up stays short

        session = message.session
        due = self._due()
        self.switch_screen(SummaryScreen(session.summary(), session.bank, self.lang, None if due is None else len(due)))

    @on(MarkEasy)
    def _mark_easy(self, message: MarkEasy) -> None:
        card = self.history.mark_easy(message.attempt)
        self._tell_history_problem()
        if card is not None:
            due = card.due.astimezone(self.history.now().tzinfo)  # on the learner's calendar
            self.notify(tr("ui.easy_marked", self.lang, date=f"{due:%Y-%m-%d}"))

    @on(OpenStatistics)
    def _open_statistics(self) -> None:
        if self.bank is None:
            return
        from quiz.ui.screens.stats import StatisticsScreen

        self.push_screen(StatisticsScreen(self.bank, self.lang, self.history))

    @on(OpenBrowser)
    def _open_browser(self) -> None:
        if self.bank is None:  # still loading: the palette can be opened before the bank is in
            return
        from quiz.ui.screens.browser import BrowserScreen  # imported when first opened: start-up stays short

        self.push_screen(BrowserScreen(self.bank, self.lang))

    @on(OpenSettings)
    def _open_settings(self) -> None:
        from quiz.ui.screens.settings import SettingsScreen

        # Settings shows the theme in use: the one the file names may not exist in this Textual.
        self.push_screen(SettingsScreen(replace(self.settings, theme=self.theme), sorted(self.available_themes)))

    @on(GoHome)
    def _go_home(self) -> None:
        if self.bank is None:
            return
        from quiz.ui.screens.home import HomeScreen  # imported when first asked for

        while len(self.screen_stack) > 2:  # Textual's base screen, then home
            self.pop_screen()
        if not isinstance(self.screen, HomeScreen):  # started straight on a question
            self.switch_screen(self._home())
        else:
            self._show_due()

    @on(ChangeLanguage)
    def _change_language(self, message: ChangeLanguage) -> None:
        """Switch the whole interface to the language: home and settings are rebuilt in it."""
        if message.lang not in LANGUAGES or message.lang == self.lang:
            return
        self._save(replace(self.settings, language=message.lang))
        self.title = tr("ui.title", self.lang)
        while len(self.screen_stack) > 1:
            self.pop_screen()
        if self.bank is None:  # switched from the palette while the packs still load
            self.push_screen(LoadingScreen(self.lang))
            return
        self.push_screen(self._home())
        self._open_settings()

    @on(ChangeTheme)
    def _change_theme(self, message: ChangeTheme) -> None:
        if message.theme in self.available_themes:
            self.theme = message.theme  # saved by watch_theme

    def watch_theme(self, theme: str) -> None:
        """Save a theme chosen anywhere: Settings, or the command palette's theme list."""
        if self._theme_applied and theme != self.settings.theme:
            self._save(replace(self.settings, theme=theme))
