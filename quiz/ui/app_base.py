"""What every part of the quiz app shares: the settings, the bank, the learner's history, and
opening the first screen and a practice round.

`quiz.ui.app.QuizApp` puts this together with the parts that each do one job: loading the bank
(`quiz.ui.bank_loading`), answering the screens' messages (`quiz.ui.navigation`) and the app's
keys and palette commands (`quiz.ui.app_commands`). The history file is opened in a worker once
the first screen is drawn; every graded attempt is committed to it before its feedback is drawn,
and a file that cannot be used is said once, while practice goes on.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import App
from textual.content import Content
from textual.filter import LineFilter
from textual.notifications import SeverityLevel

from quiz.bank import Bank, Selection, SelectionError
from quiz.base.collector import STARTING
from quiz.history.recorder import Recorder
from quiz.history.records import Mode
from quiz.history.settings import Settings, save_settings
from quiz.locale.i18n import tr
from quiz.practice.session import PracticeSession
from quiz.ui.messages import AttemptRecorded, DraftElsewhere
from quiz.ui.screens.question import QuestionScreen
from quiz.ui.terminal_filter import TerminalSafeFilter
from quiz.ui.widgets.status import SEPARATOR

if TYPE_CHECKING:  # home is imported when first shown: a start on a question never needs it
    from quiz.ui.screens.home import HomeScreen

HISTORY_AT_LATEST = 0.25
"""Seconds after the first screen is opened by which the history file starts opening, drawn or not."""
COLLECTOR_RESUMES_AFTER = 1.0
"""Seconds after the history file has opened until the cyclic collector runs again (see `on_load`)."""


class QuizAppBase(App[None]):
    """The quiz app's state and the screens it opens on its own (see `quiz.ui.app.QuizApp`)."""

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
        self.title = tr("ui.title", self.lang)
        self._terminal_safe = TerminalSafeFilter()
        self._theme_applied = False  # until on_mount has applied the saved theme, nothing is saved
        self._history_started = False

    def on_load(self) -> None:
        # A start builds tens of thousands of objects that live as long as the app (the bank, the
        # screens' widgets and styles): the cyclic collector would walk them again and again as
        # they are made, for no garbage. It waits until the start is over: a moment after the
        # first screen is drawn and the history file is open (or until the app ends). The command
        # that opens the app has taken the hold already, before loading the bank and importing us.
        STARTING.hold()

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

    def format_title(self, title: str, sub_title: str) -> Content:
        """The header's title, then the screen's subtitle after " · " as everywhere else (Textual's own is " — ")."""
        if not sub_title:
            return Content(title)
        return Content.assemble(Content(title), (SEPARATOR, "dim"), Content(sub_title).stylize("dim"))

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters (no colour, dimming), then ours: no control character reaches the terminal."""
        return [*super().get_line_filters(), self._terminal_safe]

    def _save(self, settings: Settings) -> None:
        self.settings = settings
        try:
            save_settings(settings, self.settings_file)
        except OSError as exc:
            self.notify(tr("ui.settings_not_saved", self.lang, reason=str(exc)), severity="error")

    # -- history ----------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="history")
    def _open_history(self) -> None:
        """Open the history file off the event loop and after the first screen: a large file
        never delays the first question (an answer given before it is open waits for it)."""
        self.history.open()
        self.call_from_thread(self._history_opened)

    def _history_opened(self) -> None:
        # Its first run walks all that the start made: while the learner reads, not before they see it.
        self.set_timer(COLLECTOR_RESUMES_AFTER, STARTING.release)
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
            self.notify(note.message(self.lang), title=tr("ui.history_not_saved", self.lang), severity="warning", timeout=20, markup=False)
        else:
            self.notify(note.without_reason().message(self.lang), severity="warning", timeout=15, markup=False)

    @on(AttemptRecorded)
    def _attempt_recorded(self) -> None:
        """A session committed an attempt: say once if the history could not keep it."""
        self._tell_history_problem()

    def _due(self, wait: bool = False) -> list[str] | None:
        assert self.bank is not None
        return self.history.due(self.bank.questions, wait=wait)

    def _show_due(self) -> None:
        """Home's count of questions due for review, as the file has it now."""
        if self.bank is not None:
            from quiz.ui.screens.home import HomeScreen

            due = self._due()
            for screen in self.screen_stack:
                if isinstance(screen, HomeScreen):
                    screen.due = None if due is None else len(due)

    def on_unmount(self) -> None:
        STARTING.release()
        self.history.close()

    # -- the screens the app opens on its own -----------------------------------------------

    def _open_first_screen(self) -> None:
        # Started on a selection, the question comes first and home is built when asked for.
        if self.start is None or not self.start_practice(self.start, self.start_mode):
            self.push_screen(self._home())
        self._open_history_once_drawn()

    def _open_history_once_drawn(self) -> None:
        """Open the history file once the first screen is drawn: opening the file (and loading the
        store) then takes nothing from it."""
        self.call_after_refresh(self._start_history)
        # A callback after refresh waits on the screen showing when it is handled: one the learner
        # leaves before it is drawn again (Enter on home at once) would hold it until they return.
        self.set_timer(HISTORY_AT_LATEST, self._start_history)

    def _start_history(self) -> None:
        """Start opening the history file, once (whichever of the two calls above comes first)."""
        if not self._history_started:
            self._history_started = True
            self._open_history()

    def _home(self) -> HomeScreen:
        from quiz.ui.screens.home import HomeScreen

        assert self.bank is not None
        due = self._due()
        return HomeScreen(self.lang, self.bank, None if due is None else len(due))

    def start_practice(self, selection: Selection, mode: Mode = Mode.PRACTICE) -> bool:
        """Open the question screen for the questions `selection` picks, their attempts filed
        under `mode` (`practice` or `review`); False if none can be."""
        if self.bank is None:
            return False
        try:
            session = PracticeSession(
                self.bank,
                selection,
                sink=self.history,
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
