"""The command palette's system commands in the learner's language: Textual's own translated (but
the screenshot, which the app saves where it says), then the quiz's screens and language switch."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from textual.app import SystemCommand
from textual.message import Message

from quiz.bank import Selection
from quiz.locale.i18n import tr
from quiz.ui.messages import ChangeLanguage, OpenBrowser, OpenSettings, OpenStatistics, ReviewDue, StartPractice
from quiz.ui.translate import translate_command

REPLACED_COMMANDS = frozenset({"Screenshot"})
"""Textual's system commands the quiz replaces with its own (the screenshot says where it went)."""


def system_commands(
    textual: Iterable[SystemCommand], lang: str, post: Callable[[Message], object], screenshot: Callable[[], None]
) -> Iterable[SystemCommand]:
    """Textual's commands (`textual`) translated, then the quiz's: each posts its message with `post`."""
    for command in textual:
        if command.title not in REPLACED_COMMANDS:
            yield translate_command(command, lang)
    yield SystemCommand(tr("ui.cmd_title_screenshot", lang), tr("ui.cmd_screenshot", lang), screenshot)
    yield SystemCommand(tr("ui.menu_practice_all", lang), tr("ui.cmd_practice_all", lang), lambda: post(StartPractice(Selection())))
    yield SystemCommand(tr("ui.menu_review_due", lang), tr("ui.cmd_review_due", lang), lambda: post(ReviewDue()))
    yield SystemCommand(tr("ui.menu_browse", lang), tr("ui.cmd_browse", lang), lambda: post(OpenBrowser()))
    yield SystemCommand(tr("ui.menu_statistics", lang), tr("ui.cmd_statistics", lang), lambda: post(OpenStatistics()))
    yield SystemCommand(tr("ui.menu_settings", lang), tr("ui.cmd_settings", lang), lambda: post(OpenSettings()))
    other = "ja" if lang == "en" else "en"
    yield SystemCommand(tr("ui.cmd_language", lang), tr("ui.cmd_language_help", lang), lambda: post(ChangeLanguage(other)))
