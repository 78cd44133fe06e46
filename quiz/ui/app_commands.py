"""The app's own keys and command-palette entries: F1 help, the palette in the learner's
language, Ctrl+C's quit hint, the screenshot, and the system commands translated."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from textual.app import SystemCommand
from textual.command import CommandPalette
from textual.screen import Screen

from quiz.bank import Selection
from quiz.base import locations
from quiz.locale.i18n import tr
from quiz.ui.app_base import QuizAppBase
from quiz.ui.messages import ChangeLanguage, OpenBrowser, OpenSettings, OpenStatistics, ReviewDue, StartPractice
from quiz.ui.palette import QuizCommandPalette
from quiz.ui.screens.base import QuizScreen
from quiz.ui.translate import translate_command

# Textual's system commands the quiz replaces with its own (the screenshot says where it went).
REPLACED_COMMANDS = frozenset({"Screenshot"})


class AppCommands(QuizAppBase):
    """The app's part that answers its own keys and fills the command palette."""

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
        if needed) and say where. Textual's parameters are kept, as its bindings may pass them."""
        folder = Path(path) if path is not None else locations.screenshots_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            saved = self.save_screenshot(filename, path=str(folder))
        except OSError as exc:
            self.notify(tr("ui.screenshot_failed", self.lang, reason=str(exc)), severity="error")
            return
        self.notify(tr("ui.screenshot_saved", self.lang, path=saved), title=tr("ui.screenshot_title", self.lang), markup=False)

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
