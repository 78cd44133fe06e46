"""The quiz app and its one factory, `make_app`, used by the command line and the tests alike."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from quiz.bank import Bank, load_bank
from quiz.i18n import LANGUAGES, tr
from quiz.bank import Selection, SelectionError
from quiz.history.records import AttemptRecord
from quiz.practice.session import PracticeSession
from quiz.settings import Settings, load_settings, save_settings
from quiz.ui import linebreaks
from quiz.ui.screens.home import HomeScreen
from quiz.ui.screens.loading import LoadingScreen
from quiz.ui.screens.question import QuestionScreen
from quiz.ui.translate import translate_command


class QuizApp(App[None]):
    """Practise attention interview questions in the terminal."""

    CSS_PATH = "app.tcss"
    # Textual's own palette binding has an English label; declared here, it is translated too.
    BINDINGS = [
        Binding("f1", "show_help_panel", "ui.key_help"),
        Binding("ctrl+p", "command_palette", "ui.key_palette", show=False, key_display="^p", priority=True),
    ]

    def __init__(
        self,
        settings: Settings,
        *,
        bank: Bank | None = None,
        bank_paths: Sequence[Path] = (),
        start: Selection | None = None,
        seed: int | None = None,
        settings_file: Path | None = None,
        on_attempt: Callable[[AttemptRecord], None] | None = None,
        startup_messages: Sequence[str] = (),
    ) -> None:
        super().__init__()
        linebreaks.install()  # Japanese paragraphs break between characters, not only at spaces
        self.bank = bank
        self.bank_paths = list(bank_paths)
        self.settings = settings
        self.start = start
        self.rng = random.Random(seed)
        self.settings_file = settings_file
        self.on_attempt = on_attempt
        self.startup_messages = list(startup_messages)
        self.title = tr("ui.title", self.lang)

    @property
    def lang(self) -> str:
        return self.settings.language

    def on_mount(self) -> None:
        if self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        for message in self.startup_messages:
            self.notify(message, severity="warning", timeout=10)
        if self.bank is None:
            self.push_screen(LoadingScreen(self.lang))
            self._load_bank()
        else:
            self._open_first_screen()

    @work(thread=True, exclusive=True, group="bank")
    def _load_bank(self) -> None:
        """Read, convert and check every pack off the event loop; large packs never freeze the UI."""
        bank = load_bank(extra=self.bank_paths)
        self.call_from_thread(self._bank_loaded, bank)

    def _bank_loaded(self, bank: Bank) -> None:
        self.bank = bank
        for diagnostic in bank.report.errors:  # a broken pack costs only its own questions
            self.notify(str(diagnostic), severity="warning", timeout=10)
        self.pop_screen()  # the loading screen
        self._open_first_screen()

    def _open_first_screen(self) -> None:
        # Started on a selection, the question comes first and home is built when asked for.
        if self.start is None or not self.start_practice(self.start):
            self.push_screen(HomeScreen(self.lang, len(self.bank)))

    # -- practice ---------------------------------------------------------------------------

    def start_practice(self, selection: Selection) -> bool:
        """Open the question screen for the questions `selection` picks; False if none can be."""
        if self.bank is None:
            return False
        try:
            session = PracticeSession(self.bank, selection, on_attempt=self.on_attempt, rng=self.rng, lang=self.lang)
            session.next_question()
        except SelectionError as exc:
            self.notify(exc.message(self.lang), severity="error")
            return False
        for problem in session.problems:
            self.notify(problem, severity="warning", timeout=10)
        self.push_screen(QuestionScreen(session, self.lang))
        return True

    def action_menu(self, choice: str) -> None:
        """A home-menu entry: practise, browse, settings or quit."""
        if self.bank is None:  # still loading: the palette can be opened before the bank is in
            return
        # Screens beyond home and question are imported when first opened: start-up stays short.
        from quiz.ui.screens.browser import BrowserScreen
        from quiz.ui.screens.pick import KeyScreen, PickScreen

        lang = self.lang
        claims = self.bank.claims
        if choice == "practice_all":
            self.start_practice(Selection())
        elif choice == "practice_topic":
            options = [(t.id, t.label(lang)) for t in claims.topics.values()]
            self.push_screen(PickScreen(tr("ui.pick_topic", lang), options, lang), self._with("topic"))
        elif choice == "practice_claim":
            options = [(c.id, f"{c.id}  {c.label(lang)}") for c in claims.claims.values()]
            self.push_screen(PickScreen(tr("ui.pick_claim", lang), options, lang), self._with("claim"))
        elif choice == "practice_difficulty":
            options = [(str(d), tr(f"ui.difficulty_{d}", lang)) for d in (1, 2, 3)]
            self.push_screen(PickScreen(tr("ui.pick_difficulty", lang), options, lang), self._with("difficulty"))
        elif choice == "practice_one":
            self.push_screen(KeyScreen(lang, self.bank), self._with("key"))
        elif choice == "browse":
            self.push_screen(BrowserScreen(self.bank, lang))
        elif choice == "settings":
            self.action_open_settings()
        elif choice == "quit":
            self.exit()

    def _with(self, field: str) -> Callable[[str | None], None]:
        def start(value: str | None) -> None:
            if value is not None:
                self.start_practice(Selection(**{field: int(value) if field == "difficulty" else value}))

        return start

    def action_practice_key(self, key: str) -> None:
        self.start_practice(Selection(key=key))

    def action_go_home(self) -> None:
        while len(self.screen_stack) > 2:  # Textual's base screen, then home
            self.pop_screen()
        if not isinstance(self.screen, HomeScreen):  # started straight on a question
            self.switch_screen(HomeScreen(self.lang, len(self.bank)))

    # -- settings ---------------------------------------------------------------------------

    def action_open_settings(self) -> None:
        from quiz.ui.screens.settings import SettingsScreen

        self.push_screen(SettingsScreen(self.settings, sorted(self.available_themes)))

    def action_set_language(self, lang: str) -> None:
        """Switch the whole interface to `lang`: home and settings are rebuilt in it."""
        if lang not in LANGUAGES or lang == self.lang:
            return
        self._save(replace(self.settings, language=lang))
        self.title = tr("ui.title", lang)
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(HomeScreen(lang, len(self.bank)))
        self.action_open_settings()

    def action_set_theme(self, theme: str) -> None:
        if theme in self.available_themes:
            self.theme = theme
            self._save(replace(self.settings, theme=theme))

    def _save(self, settings: Settings) -> None:
        self.settings = settings
        try:
            save_settings(settings, self.settings_file)
        except OSError as exc:
            self.notify(tr("ui.settings_not_saved", self.lang, reason=str(exc)), severity="error")

    def action_help_quit(self) -> None:
        """Ctrl+C with nothing to copy: say how to quit, as Textual does, in the interface language."""
        for active in self.active_bindings.values():
            if active.binding.action in ("quit", "app.quit"):
                key = self.get_key_display(active.binding)
                self.notify(tr("ui.quit_hint", self.lang, key=key), title=tr("ui.quit_title", self.lang))
                return

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        lang = self.lang
        yield from (translate_command(command, lang) for command in super().get_system_commands(screen))
        yield SystemCommand(tr("ui.menu_practice_all", lang), tr("ui.cmd_practice_all", lang), lambda: self.action_menu("practice_all"))
        yield SystemCommand(tr("ui.menu_browse", lang), tr("ui.cmd_browse", lang), lambda: self.action_menu("browse"))
        yield SystemCommand(tr("ui.menu_settings", lang), tr("ui.cmd_settings", lang), self.action_open_settings)
        other = "ja" if lang == "en" else "en"
        yield SystemCommand(tr("ui.cmd_language", lang), tr("ui.cmd_language_help", lang), lambda: self.action_set_language(other))
        if isinstance(screen, QuestionScreen):
            for action in ("next_question", "fresh_variant", "hint", "give_up"):
                if screen.check_action(action, ()):
                    yield SystemCommand(tr(f"ui.key_{action}", lang), tr(f"ui.cmd_{action}", lang), getattr(screen, f"action_{action}"))


def make_app(
    bank_paths: Sequence[Path] = (),
    *,
    lang: str | None = None,
    start: Selection | None = None,
    seed: int | None = None,
    bank: Bank | None = None,
    on_attempt: Callable[[AttemptRecord], None] | None = None,
) -> QuizApp:
    """The app with the saved settings; it loads the bank (bundled, user packs, `bank_paths`) in a
    worker unless one is given."""
    settings, problem = load_settings()
    if lang is not None:
        settings = replace(settings, language=lang)
    return QuizApp(
        settings,
        bank=bank,
        bank_paths=bank_paths,
        start=start,
        seed=seed,
        on_attempt=on_attempt,
        startup_messages=[problem] if problem else [],
    )
