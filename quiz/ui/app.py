"""The quiz app and its one factory, `make_app`, used by the command line and the tests alike.

The app owns navigation, settings and the learner's history: screens post typed messages
(`quiz.ui.messages`) saying what the learner chose, and the handlers below open the screen that
follows or save the change. The history file is opened in a worker while the first screen is
built; every graded attempt is committed to it before its feedback is drawn, and a file that
cannot be used is said once, while practice goes on.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from textual import on, work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.filter import LineFilter
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.worker import get_current_worker

from quiz import locations
from quiz.bank import Bank, Selection, SelectionError, SkippedQuestion, load_bank
from quiz.format.yaml_source import ReadingStopped
from quiz.i18n import LANGUAGES, tr
from quiz.history.recorder import Recorder
from quiz.history.records import AttemptRecord
from quiz.practice.session import PracticeSession
from quiz.settings import Settings, load_settings, save_settings
from quiz.ui import linebreaks
from quiz.ui.messages import (
    ChangeLanguage,
    ChangeTheme,
    DraftElsewhere,
    GoHome,
    MarkEasy,
    OpenBrowser,
    OpenSettings,
    OpenStatistics,
    ReviewDue,
    RoundOver,
    StartPractice,
)
from quiz.ui.screens.base import QuizScreen
from quiz.ui.screens.help import HelpScreen, general_sections, key_table
from quiz.ui.screens.home import HomeScreen
from quiz.ui.screens.loading import LoadingScreen
from quiz.ui.screens.question import QuestionScreen
from quiz.ui.terminal_filter import TerminalSafeFilter
from quiz.ui.translate import translate_command

log = logging.getLogger(__name__)

# Textual's system commands the quiz replaces with its own (the screenshot says where it went).
REPLACED_COMMANDS = frozenset({"Screenshot"})


class QuizApp(App[None]):
    """Practise attention interview questions in the terminal."""

    CSS_PATH = ["app.tcss", "history.tcss"]
    # Screens get a class for the terminal's size: the footer and the question's layout follow it.
    HORIZONTAL_BREAKPOINTS = [(0, "-tiny"), (60, "-narrow"), (80, "-medium"), (120, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (16, "-tall")]
    # Textual's own palette and quit bindings have English labels; declared here, they are translated.
    BINDINGS = [
        Binding("f1", "help", "ui.key_help"),
        Binding("ctrl+p", "command_palette", "ui.key_palette", show=False, key_display="^p", priority=True),
        Binding("ctrl+q", "quit", "ui.key_quit", show=False, priority=True),
    ]

    def __init__(
        self,
        settings: Settings,
        *,
        bank: Bank | None = None,
        bank_paths: Sequence[Path] = (),
        start: Selection | None = None,
        start_mode: str = "practice",
        seed: int | None = None,
        settings_file: Path | None = None,
        on_attempt: Callable[[AttemptRecord], None] | None = None,
        history: Recorder | None = None,
        startup_messages: Sequence[str] = (),
    ) -> None:
        super().__init__()
        self.bank = bank
        self.bank_paths = list(bank_paths)
        self.settings = settings
        self.start = start
        self.start_mode = start_mode
        self.rng = random.Random(seed)
        self.settings_file = settings_file
        self.on_attempt = on_attempt
        """Also told of every graded attempt (after history has it)."""
        self.history = history or Recorder()
        self.startup_messages = list(startup_messages)
        self.title = tr("ui.title", self.lang)
        self._terminal_safe = TerminalSafeFilter()
        self._theme_applied = False  # until on_mount has applied the saved theme, nothing is saved

    @property
    def lang(self) -> str:
        return self.settings.language

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Textual's notice with markup off unless asked: notices quote settings files, file names
        and pack messages, where `[/]` is text (as markup it raised MarkupError and closed the app)."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters (no colour, dimming), then ours: no control character reaches the terminal."""
        return [*super().get_line_filters(), self._terminal_safe]

    def on_mount(self) -> None:
        if not linebreaks.install():
            log.warning(linebreaks.NOT_INSTALLED)
            self.log.warning(linebreaks.NOT_INSTALLED)
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        else:  # a theme this Textual lacks: show the default, keep the file's choice until one is made
            self.notify(tr("ui.unknown_theme", self.lang, theme=self.settings.theme, default=self.theme), severity="warning")
        self._theme_applied = True
        for message in self.startup_messages:
            self.notify(message, severity="warning", timeout=10)
        if self.bank is None:
            self.push_screen(LoadingScreen(self.lang))
            self._load_bank()
        else:
            self._open_first_screen()

    @work(thread=True, exclusive=True, group="bank")
    def _load_bank(self) -> None:
        """Read and convert every pack in a thread, off the event loop, so keys work meanwhile.

        Python waits for a running thread before the process exits, so the loader asks
        between files, questions and YAML events whether Textual has cancelled the worker
        (it does when the app quits) and then stops at once.
        """
        worker = get_current_worker()
        try:
            bank = load_bank(extra=self.bank_paths, stop=lambda: worker.is_cancelled)
        except ReadingStopped:
            return
        if not worker.is_cancelled:
            self.call_from_thread(self._bank_loaded, bank)

    @work(thread=True, exclusive=True, group="history")
    def _open_history(self) -> None:
        """Open the history file off the event loop and after the first screen: a large file
        never delays the first question (an answer given before it is open waits for it)."""
        self.history.open()
        self.call_from_thread(self._history_opened)

    def _history_opened(self) -> None:
        self._tell_history_problem()
        self._show_due()
        if isinstance(self.screen, QuestionScreen):
            self.screen.update_status()  # today's count, now from the file

    def _tell_history_problem(self) -> None:
        """Say why history is not being saved, once a run."""
        problem = self.history.notice()
        if problem is not None:
            self.notify(problem.message(self.lang), title=tr("ui.history_not_saved", self.lang), severity="warning", timeout=20, markup=False)

    @on(DraftElsewhere)
    def _tell_draft_elsewhere(self, message: DraftElsewhere) -> None:
        """One notice for both: why history is not being saved and where the draft goes instead
        (only where, once why has been said)."""
        note = message.note
        if note.reason is not None and self.history.tell_once(note.reason):
            self.notify(note.message(self.lang), title=tr("ui.history_not_saved", self.lang), severity="warning", timeout=20)
        else:
            self.notify(note.without_reason().message(self.lang), severity="warning", timeout=15)

    def _attempt_graded(self, attempt: AttemptRecord) -> None:
        """Commit a graded attempt (before its feedback is drawn), then tell whoever else listens."""
        self.history.record(attempt)
        if self.on_attempt is not None:
            self.on_attempt(attempt)
        self._tell_history_problem()

    def _due(self, wait: bool = False) -> list[str] | None:
        assert self.bank is not None
        return self.history.due(self.bank.questions, wait=wait)

    def _show_due(self) -> None:
        """Home's count of questions due for review, as the file has it now."""
        if self.bank is not None:
            due = self._due()
            for screen in self.screen_stack:
                if isinstance(screen, HomeScreen):
                    screen.due = None if due is None else len(due)

    def on_unmount(self) -> None:
        self.history.close()

    def _bank_loaded(self, bank: Bank) -> None:
        self.bank = bank
        if bank.skipped:  # a broken pack costs only its own questions; say which
            self.notify(skipped_notice(bank.skipped, self.lang), severity="warning", timeout=30)
        self.pop_screen()  # the loading screen
        self._open_first_screen()

    def _open_first_screen(self) -> None:
        # Started on a selection, the question comes first and home is built when asked for.
        if self.start is None or not self.start_practice(self.start, self.start_mode):
            self.push_screen(self._home())
        # Once that screen is drawn: opening the file (and loading the store) takes nothing from it.
        self.call_after_refresh(self._open_history)

    def _home(self) -> HomeScreen:
        assert self.bank is not None
        due = self._due()
        return HomeScreen(self.lang, self.bank, None if due is None else len(due))

    # -- what the screens ask for -----------------------------------------------------------

    def start_practice(self, selection: Selection, mode: str = "practice") -> bool:
        """Open the question screen for the questions `selection` picks, their attempts filed
        under `mode` (`practice` or `review`); False if none can be."""
        if self.bank is None:
            return False
        try:
            session = PracticeSession(
                self.bank,
                selection,
                on_attempt=self._attempt_graded,
                rng=self.rng,
                lang=self.lang,
                mode=mode,
                wall_clock=self.history.now_ms,
            )
            session.next_question()
        except SelectionError as exc:
            self.notify(exc.message(self.lang), severity="error")
            return False
        for problem in session.problems:
            self.notify(problem, severity="warning", timeout=10)
        self.push_screen(QuestionScreen(session, self.lang, self.history))
        return True

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
            self.start_practice(Selection(ids=tuple(due)), "review")

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

    def _save(self, settings: Settings) -> None:
        self.settings = settings
        try:
            save_settings(settings, self.settings_file)
        except OSError as exc:
            self.notify(tr("ui.settings_not_saved", self.lang, reason=str(exc)), severity="error")

    # -- keys and commands ------------------------------------------------------------------

    def action_help(self) -> None:
        """F1: the quiz's help for the screen in front of the learner (F1 again closes it)."""
        screen = self.screen
        if isinstance(screen, HelpScreen):
            screen.dismiss(None)
            return
        lang = self.lang
        own = screen.help_sections() if isinstance(screen, QuizScreen) else []
        keys = (tr("ui.help_keys_title", lang), key_table(screen, lang))
        self.push_screen(HelpScreen([*own, keys, *general_sections(lang)], lang))

    def action_command_palette(self) -> None:
        """Textual's palette, with its search prompt in the interface language."""
        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(CommandPalette(placeholder=tr("ui.palette_placeholder", self.lang), id="--command-palette"))

    def action_help_quit(self) -> None:
        """Ctrl+C with nothing to copy: say how to quit, as Textual does, in the interface language."""
        for active in self.active_bindings.values():
            if active.binding.action in ("quit", "app.quit"):
                key = self.get_key_display(active.binding)
                self.notify(tr("ui.quit_hint", self.lang, key=key), title=tr("ui.quit_title", self.lang))
                return

    def action_screenshot(self) -> None:
        """Save an SVG of the screen in the screenshots folder (made if needed) and say where."""
        folder = locations.screenshots_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = self.save_screenshot(path=str(folder))
        except OSError as exc:
            self.notify(tr("ui.screenshot_failed", self.lang, reason=str(exc)), severity="error")
            return
        self.notify(tr("ui.screenshot_saved", self.lang, path=path), title=tr("ui.screenshot_title", self.lang), markup=False)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        lang = self.lang
        for command in super().get_system_commands(screen):
            if command.title not in REPLACED_COMMANDS:
                yield translate_command(command, lang)
        yield SystemCommand(tr("ui.cmd_title_screenshot", lang), tr("ui.cmd_screenshot", lang), self.action_screenshot)
        yield SystemCommand(tr("ui.menu_practice_all", lang), tr("ui.cmd_practice_all", lang), lambda: self.post_message(StartPractice(Selection())))
        yield SystemCommand(tr("ui.menu_review_due", lang), tr("ui.cmd_review_due", lang), lambda: self.post_message(ReviewDue()))
        yield SystemCommand(tr("ui.menu_browse", lang), tr("ui.cmd_browse", lang), lambda: self.post_message(OpenBrowser()))
        yield SystemCommand(tr("ui.menu_statistics", lang), tr("ui.cmd_statistics", lang), lambda: self.post_message(OpenStatistics()))
        yield SystemCommand(tr("ui.menu_settings", lang), tr("ui.cmd_settings", lang), lambda: self.post_message(OpenSettings()))
        other = "ja" if lang == "en" else "en"
        yield SystemCommand(tr("ui.cmd_language", lang), tr("ui.cmd_language_help", lang), lambda: self.post_message(ChangeLanguage(other)))


MAX_SKIPPED_LISTED = 8
"""Skipped questions named in the notice; the rest are counted."""


def skipped_notice(skipped: Sequence[SkippedQuestion], lang: str) -> str:
    """The notice after loading: how many questions or files were skipped, and which."""
    items = [f"• {item}" for item in skipped[:MAX_SKIPPED_LISTED]]
    if len(skipped) > MAX_SKIPPED_LISTED:
        items.append(tr("ui.skipped_more", lang, count=len(skipped) - MAX_SKIPPED_LISTED))
    return tr("ui.skipped", lang, count=len(skipped), items="\n".join(items))


def make_app(
    bank_paths: Sequence[Path] = (),
    *,
    lang: str | None = None,
    start: Selection | None = None,
    start_mode: str = "practice",
    seed: int | None = None,
    bank: Bank | None = None,
    on_attempt: Callable[[AttemptRecord], None] | None = None,
    now: Callable[[], datetime] | None = None,
) -> QuizApp:
    """The app with the saved settings; it loads the bank (bundled, user packs, `bank_paths`) in a
    worker unless one is given, and keeps history in the data directory's file. `now` is the
    clock attempts are stamped with and statistics counted at (the system's unless given)."""
    settings, problem = load_settings()
    if lang is not None:
        settings = replace(settings, language=lang)
    return QuizApp(
        settings,
        bank=bank,
        bank_paths=bank_paths,
        start=start,
        start_mode=start_mode,
        seed=seed,
        on_attempt=on_attempt,
        history=Recorder(now=now) if now is not None else None,
        startup_messages=[problem] if problem else [],
    )
