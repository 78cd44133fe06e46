"""The quiz app and its one factory, `make_app`, used by the command line and the tests alike.

`QuizApp` is the one App class: it holds the settings, the bank and the learner's history, starts
the bank's loading and the history file's opening in workers, and answers the typed messages
screens post (`quiz.ui.messages`) by handing them to the flow they belong to: practice rounds
(`quiz.ui.practice_flow`) or mock interviews (`quiz.ui.mock_flow`). Every graded attempt is
committed to the history before its feedback is drawn; a file that cannot be used is said once,
while practice goes on.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import CommandPalette
from textual.content import Content
from textual.filter import LineFilter
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.worker import get_current_worker

from quiz.bank import Bank, Selection
from quiz.bank.cache import BankCache
from quiz.base import locations
from quiz.base.collector import STARTING
from quiz.history.recorder import Recorder
from quiz.history.records import AttemptRecord, Mode, local_now
from quiz.history.settings import Settings, load_settings, save_settings
from quiz.locale.i18n import LANGUAGES, tr
from quiz.mock.clock import Clock, interview_clock
from quiz.ui import linebreaks
from quiz.ui.bank_loading import read_packs, skipped_notice
from quiz.ui.messages import (
    AttemptRecorded,
    ChangeLanguage,
    ChangeRetention,
    ChangeTheme,
    DraftElsewhere,
    GoHome,
    MarkEasy,
    MockOver,
    OpenBrowser,
    OpenSettings,
    OpenStatistics,
    ReviewDue,
    RoundOver,
    StartMock,
    StartPractice,
)
from quiz.ui.mock_flow import MockFlow, MockStart
from quiz.ui.palette import QuizCommandPalette
from quiz.ui.practice_flow import PracticeFlow
from quiz.ui.screens.base import QuizScreen
from quiz.ui.screens.loading import LoadingScreen
from quiz.ui.screens.question import QuestionScreen
from quiz.ui.system_commands import system_commands
from quiz.ui.terminal_filter import TerminalSafeFilter
from quiz.ui.widgets.status import SEPARATOR

if TYPE_CHECKING:
    from quiz.mock.compose import MockPlan

log = logging.getLogger(__name__)

HISTORY_AT_LATEST = 0.25
"""Seconds after the first screen is opened by which the history file starts opening, drawn or not."""
COLLECTOR_RESUMES_AFTER = 1.0
"""Seconds after the history file has opened until the cyclic collector runs again (see `on_load`)."""


class QuizApp(App[None]):
    """Practise attention interview questions in the terminal."""

    CSS_PATH: ClassVar[list[str | PurePath]] = ["app.tcss"]  # the history screens bring their own
    # Screens get a class for the terminal's size: the footer and the question's layout follow it.
    # The ignores: Textual annotates these `ClassVar[...] | None`, which mypy reads as instance variables.
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-tiny"), (60, "-narrow"), (80, "-medium"), (120, "-wide")]  # type: ignore[misc]
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [(0, "-short"), (16, "-tall")]  # type: ignore[misc]
    # Textual's own palette and quit bindings have English labels; declared here, they are translated.
    BINDINGS: ClassVar[list[BindingType]] = [
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
        start_mode: Mode = Mode.PRACTICE,
        seed: int | None = None,
        settings_file: Path | None = None,
        history: Recorder | None = None,
        mock_start: MockStart | None = None,
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
        self.history = history or Recorder()
        self.startup_messages = list(startup_messages)
        self.practice = PracticeFlow(self)
        self.mock = MockFlow(self, mock_start or MockStart())
        self.title = tr("ui.title", self.lang)
        self._terminal_safe = TerminalSafeFilter()
        self._theme_applied = False  # until on_mount has applied the saved theme, nothing is saved
        self._history_started = False

    @property
    def lang(self) -> str:
        return self.settings.language

    # -- starting and ending ----------------------------------------------------------------

    def on_load(self) -> None:
        # A start builds tens of thousands of objects that live as long as the app (the bank, the
        # screens' widgets and styles): the cyclic collector would walk them again and again as
        # they are made, for no garbage. It waits until the start is over: a moment after the
        # first screen is drawn and the history file is open (or until the app ends). The command
        # that opens the app has taken the hold already, before loading the bank and importing us.
        STARTING.hold()

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

    def on_unmount(self) -> None:
        STARTING.release()
        self.history.close()

    @work(thread=True, exclusive=True, group="bank")
    def _load_bank(self) -> None:
        """Read and convert every pack in a thread, off the event loop, so keys work meanwhile.
        Python waits for a running thread before the process exits, so the reading stops as soon
        as Textual cancels the worker (it does when the app quits)."""
        worker = get_current_worker()
        loaded = read_packs(self.bank_paths, stop=lambda: worker.is_cancelled)
        if loaded is not None and not worker.is_cancelled:
            self.call_from_thread(self._bank_loaded, *loaded)

    def _bank_loaded(self, bank: Bank, cache: BankCache) -> None:
        self.bank = bank
        if bank.skipped:  # a broken pack costs only its own questions; say which
            self.notify(skipped_notice(bank.skipped, self.lang), severity="warning", timeout=30)
        self.pop_screen()  # the loading screen
        self._open_first_screen()
        self.call_after_refresh(self._save_bank_cache, cache)

    @work(thread=True, exclusive=True, group="bank-cache")
    def _save_bank_cache(self, cache: BankCache) -> None:
        """Keep what this start loaded for the next one, once the first screen is drawn."""
        cache.save()

    def _open_first_screen(self) -> None:
        if self.mock.start.plan is not None:
            self.mock.open_first(self.practice.home())
        # Started on a selection, the question comes first and home is built when asked for.
        elif self.start is None or not self.practice.start(self.start, self.start_mode):
            self.push_screen(self.practice.home())
        # Once the first screen is drawn, opening the file (and loading the store) takes nothing
        # from it. A callback after refresh waits on the screen showing when it is handled: one the
        # learner leaves before it is drawn again (Enter on home at once) would hold it until they
        # return, hence the timer too; whichever comes first starts the opening.
        self.call_after_refresh(self._start_history)
        self.set_timer(HISTORY_AT_LATEST, self._start_history)

    # -- the learner's history ----------------------------------------------------------------

    def _start_history(self) -> None:
        if not self._history_started:
            self._history_started = True
            self._open_history()

    @work(thread=True, exclusive=True, group="history")
    def _open_history(self) -> None:
        """Open the history file off the event loop and after the first screen: a large file
        never delays the first question (an answer given before it is open waits for it)."""
        self.history.open()
        self.call_from_thread(self._history_opened)

    def _history_opened(self) -> None:
        from quiz.ui.screens.home import HomeScreen  # imported when first shown

        # Its first run walks all that the start made: while the learner reads, not before they see it.
        self.set_timer(COLLECTOR_RESUMES_AFTER, STARTING.release)
        self.tell_history_problem()
        self.practice.show_due()
        if isinstance(self.screen, QuestionScreen):
            self.screen.update_status()  # today's count, now from the file
        if self.mock.start.plan is None and isinstance(self.screen, HomeScreen):
            self.mock.offer_running(None)

    def tell_history_problem(self) -> None:
        """Say why history is not being saved, once a run."""
        problem = self.history.notice()
        if problem is not None:
            self.notify(problem.message(self.lang), title=tr("ui.history_not_saved", self.lang), severity="warning", timeout=20)

    @on(AttemptRecorded)
    def _attempt_recorded(self) -> None:
        """A session committed an attempt: say once if the history could not keep it, and fit the
        review scheduler again when enough answers came since the last fit."""
        self.tell_history_problem()
        self._refit()

    @work(thread=True, exclusive=True, group="fsrs")
    def _refit(self) -> None:
        """Fit FSRS to the history off the event loop (rebuilding the cards takes a while on a long
        history); the learner goes on meanwhile, and answers recorded then wait only milliseconds."""
        self.history.refit_if_due()

    @on(DraftElsewhere)
    def _tell_draft_elsewhere(self, message: DraftElsewhere) -> None:
        """One notice for both: why history is not being saved and where the draft goes instead
        (only where, once why has been said)."""
        note = message.note
        if note.reason is not None and self.history.tell_once(note.reason):
            self.notify(note.message(self.lang), title=tr("ui.history_not_saved", self.lang), severity="warning", timeout=20)
        else:
            self.notify(note.without_reason().message(self.lang), severity="warning", timeout=15)

    @on(MarkEasy)
    def _mark_easy(self, message: MarkEasy) -> None:
        card = self.history.mark_easy(message.attempt)
        self.tell_history_problem()
        if card is not None:
            due = card.due.astimezone(self.history.now().tzinfo)  # on the learner's calendar
            self.notify(tr("ui.easy_marked", self.lang, date=f"{due:%Y-%m-%d}"))

    # -- what the screens ask for -------------------------------------------------------------

    @on(StartPractice)
    def _start_practice(self, message: StartPractice) -> None:
        self.practice.practise(message.selection)

    @on(ReviewDue)
    def _review_due(self) -> None:
        self.practice.review_due()

    @on(RoundOver)
    def _round_over(self, message: RoundOver) -> None:
        self.practice.round_over(message.session)

    @on(GoHome)
    def _go_home(self) -> None:
        self.practice.go_home()

    @on(StartMock)
    def _start_mock(self, message: StartMock) -> None:
        self.mock.compose_and_open(message.options)

    @on(MockOver)
    def _mock_over(self, message: MockOver) -> None:
        self.mock.over(message.session)

    @on(OpenStatistics)
    def _open_statistics(self) -> None:
        if self.bank is not None:
            from quiz.ui.screens.stats import StatisticsScreen  # imported when first opened: start-up stays short

            self.push_screen(StatisticsScreen(self.bank, self.lang, self.history))

    @on(OpenBrowser)
    def _open_browser(self) -> None:
        if self.bank is not None:  # still loading: the palette can be opened before the bank is in
            from quiz.ui.screens.browser import BrowserScreen

            self.push_screen(BrowserScreen(self.bank, self.lang))

    @on(OpenSettings)
    def _open_settings(self) -> None:
        from quiz.ui.screens.settings import SettingsScreen

        # Settings shows the theme in use: the one the file names may not exist in this Textual.
        settings = replace(self.settings, theme=self.theme)
        self.push_screen(SettingsScreen(settings, sorted(self.available_themes), self.history, self.history.desired_retention()))

    @on(ChangeRetention)
    def _change_retention(self, message: ChangeRetention) -> None:
        self._save_retention(message.retention)

    @work(thread=True, group="retention")
    def _save_retention(self, retention: float) -> None:
        """Every card is rebuilt at the new retention: off the event loop, as a refit is."""
        saved = self.history.set_desired_retention(retention)
        self.call_from_thread(self._retention_saved, retention, saved)

    def _retention_saved(self, retention: float, saved: bool) -> None:
        self.tell_history_problem()
        if saved:
            self.notify(tr("ui.retention_saved", self.lang, retention=f"{retention:.2f}"))

    # -- settings -------------------------------------------------------------------------------

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
        self.push_screen(self.practice.home())
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

    # -- the app's own keys and how it draws ------------------------------------------------------

    def action_help(self) -> None:
        """F1: the quiz's help for the screen in front of the learner (F1 again closes it)."""
        from quiz.ui.screens.help import HelpScreen, general_sections, key_table  # when first asked for: start-up stays short

        screen = self.screen
        if isinstance(screen, HelpScreen):
            screen.dismiss(None)
            return
        lang = self.lang
        own = screen.help_sections() if isinstance(screen, QuizScreen) else []
        keys = (tr("ui.help_keys_title", lang), key_table(screen, lang))
        self.push_screen(HelpScreen(keys, [*own, *general_sections(lang)], lang))

    def action_command_palette(self) -> None:
        """Textual's palette, with its search prompt in the interface language."""
        # The ignore: Textual types is_open's argument App[object], and App's return type is invariant.
        if self.use_command_palette and not CommandPalette.is_open(self):  # type: ignore[arg-type]
            self.push_screen(QuizCommandPalette(self.lang))

    def action_help_quit(self) -> None:
        """Ctrl+C with nothing to copy: say how to quit, as Textual does, in the interface language."""
        for active in self.active_bindings.values():
            if active.binding.action in ("quit", "app.quit"):
                key = self.get_key_display(active.binding)
                self.notify(tr("ui.quit_hint", self.lang, key=key), title=tr("ui.quit_title", self.lang))
                return

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        """Save an SVG of the screen (in the screenshots folder unless `path` names another; made
        if needed) and say where; in a browser (`quiz serve`) the browser gets it instead. Textual's
        parameters are kept, as its bindings may pass them."""
        if self.is_web:
            self.deliver_screenshot(filename)
            self.notify(tr("ui.screenshot_delivered", self.lang), title=tr("ui.screenshot_title", self.lang))
            return
        folder = Path(path) if path is not None else locations.screenshots_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            saved = self.save_screenshot(filename, path=str(folder))
        except OSError as exc:
            self.notify(tr("ui.screenshot_failed", self.lang, reason=str(exc)), severity="error")
            return
        self.notify(tr("ui.screenshot_saved", self.lang, path=saved), title=tr("ui.screenshot_title", self.lang))

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        return system_commands(super().get_system_commands(screen), self.lang, self.post_message, self.action_screenshot)

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

    def format_title(self, title: str, sub_title: str) -> Content:
        """The header's title, then the screen's subtitle after " · " as everywhere else (Textual's own is " — ")."""
        if not sub_title:
            return Content(title)
        return Content.assemble(Content(title), (SEPARATOR, "dim"), Content(sub_title).stylize("dim"))

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters (no colour, dimming), then ours: no control character reaches the terminal."""
        return [*super().get_line_filters(), self._terminal_safe]


def make_app(
    bank_paths: Sequence[Path] = (),
    *,
    lang: str | None = None,
    start: Selection | None = None,
    start_mode: Mode = Mode.PRACTICE,
    seed: int | None = None,
    bank: Bank | None = None,
    on_attempt: Callable[[AttemptRecord], None] | None = None,
    now: Callable[[], datetime] | None = None,
    mock: MockPlan | None = None,
    mock_feedback: str = "end",
    mock_clock: Clock = interview_clock,
    mock_wall: Clock = time.time,
    mock_ticking: bool = True,
) -> QuizApp:
    """The app with the saved settings; it loads the bank (bundled, user packs, `bank_paths`) in a
    worker unless one is given, and keeps history in the data directory's file. `now` is the
    clock attempts are stamped with and statistics counted at (the system's unless given).
    With `mock`, it opens straight into that mock interview (feedback `end` or `each`); every
    mock interview keeps time on `mock_clock` and `mock_wall` (tests set them)."""
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
        history=Recorder(now=now if now is not None else local_now, on_record=on_attempt),
        mock_start=MockStart(mock, mock_feedback, mock_clock, mock_wall, mock_ticking),
        startup_messages=[problem] if problem else [],
    )
