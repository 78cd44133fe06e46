"""The quiz app and its one factory, `make_app`, used by the command line and the tests alike.

The app is put together from parts that each do one job: the shared state, history and first
screen (`quiz.ui.app_base`), loading the bank (`quiz.ui.bank_loading`), answering the typed
messages screens post (`quiz.ui.navigation`), the app's keys and palette commands
(`quiz.ui.app_commands`), and the mock interview's screens in turn (`quiz.ui.mock_flow`). This
module holds what the app is as a whole: its styles, size classes and keys, what happens when it
starts, and the factory.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding, BindingType

from quiz.bank import Bank, Selection
from quiz.history.recorder import Recorder
from quiz.history.records import AttemptRecord, Mode, local_now
from quiz.history.settings import load_settings
from quiz.locale.i18n import tr
from quiz.mock.clock import Clock, interview_clock
from quiz.ui import linebreaks
from quiz.ui.app_commands import AppCommands
from quiz.ui.bank_loading import BankLoading
from quiz.ui.mock_flow import MockFlow, MockStart
from quiz.ui.navigation import Navigation

if TYPE_CHECKING:
    from quiz.mock.compose import MockPlan

log = logging.getLogger(__name__)


class QuizApp(MockFlow, Navigation, BankLoading, AppCommands):
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
            self._start_loading()
        else:
            self._open_first_screen()


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
    app = QuizApp(
        settings,
        bank=bank,
        bank_paths=bank_paths,
        start=start,
        start_mode=start_mode,
        seed=seed,
        history=Recorder(now=now if now is not None else local_now, on_record=on_attempt),
        startup_messages=[problem] if problem else [],
    )
    app.mock_start = MockStart(mock, mock_feedback, mock_clock, mock_wall, mock_ticking)
    return app
