"""Shown while the question bank loads in a worker thread, so the terminal never sits blank."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from quiz.locale.i18n import tr


class LoadingScreen(Screen[None]):
    """A short wait: reading and checking the question packs."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def compose(self) -> ComposeResult:
        yield Static(tr("ui.loading", self.lang), id="loading-text", markup=False)
