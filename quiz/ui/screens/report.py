"""The report at the end of a mock interview, as the core writes it in Markdown.

Ctrl+S saves it as a Markdown file in the reports folder of the data directory (and says where);
F5 starts a practice round on exactly the questions missed; Esc goes home.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Header

from quiz.bank import Selection
from quiz.base import locations
from quiz.base.atomic import write_text_atomically
from quiz.locale.i18n import tr
from quiz.ui.messages import StartPractice
from quiz.ui.screens.base import QuizScreen
from quiz.ui.widgets.footer import KeyFooter
from quiz.ui.widgets.maths import MathMarkdown


def reports_dir() -> Path:
    """Where saved mock interview reports go."""
    return locations.data_dir() / "reports"


class ReportScreen(QuizScreen):
    """A mock interview's report: scores, each question, the trend and what to practise next."""

    CSS_PATH = "mock.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "mockapp.key_save_report", priority=True),
        Binding("f5", "practise_missed", "mockapp.key_practise_missed", priority=True),
        Binding("escape", "go_home", "ui.key_home"),
    ]

    def __init__(self, markdown: str, missed: Sequence[str], file_name: str, lang: str) -> None:
        super().__init__(lang)
        self.markdown = markdown
        self.missed = tuple(missed)
        """The ids of the questions missed, for the practice round F5 starts."""
        self.file_name = file_name
        self.saved: Path | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="report-body"):
            yield MathMarkdown(self.markdown, id="report")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = tr("mockapp.title", self.lang)
        self.sub_title = tr("mockapp.report_title", self.lang)
        self.query_one("#report-body").focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "practise_missed":
            return bool(self.missed)
        return True

    def action_save(self) -> None:
        """Write the report's Markdown to the reports folder and say where; in a browser (`quiz
        serve`), where that folder is the server's, the browser downloads it instead."""
        if self.app.is_web:
            self.app.deliver_text(io.StringIO(self.markdown), save_filename=self.file_name, mime_type="text/markdown")
            self.notify(tr("mockapp.report_delivered", self.lang), markup=False)
            return
        folder = reports_dir()
        path = folder / self.file_name
        try:
            folder.mkdir(parents=True, exist_ok=True)
            write_text_atomically(path, self.markdown)
        except OSError as exc:
            self.notify(tr("mockapp.report_not_saved", self.lang, reason=str(exc)), severity="error", markup=False)
            return
        self.saved = path
        self.notify(tr("mockapp.report_saved", self.lang, path=str(path)), markup=False)

    def action_practise_missed(self) -> None:
        if self.missed:
            self.post_message(StartPractice(Selection(ids=self.missed)))
