"""The bank browser: every question in a table, filtered by topic, claim and type."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import DataTable, Header, Select

from quiz.bank import Bank, Selection
from quiz.locale.i18n import tr
from quiz.models.registry import TYPE_NAMES
from quiz.types.preview import prompt_preview
from quiz.ui.messages import StartPractice
from quiz.ui.screens.base import QuizScreen
from quiz.ui.widgets.footer import KeyFooter


class BrowserScreen(QuizScreen):
    """Browse and open any question of the bank."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "go_home", "ui.key_home")]

    def __init__(self, bank: Bank, lang: str) -> None:
        super().__init__(lang)
        self.bank = bank

    def compose(self) -> ComposeResult:
        yield Header()
        claims = self.bank.claims
        with Horizontal(id="filters"):
            yield Select(
                [(Content(t.label(self.lang)), t.id) for t in claims.topics.values()],
                prompt=tr("ui.filter_topic", self.lang),
                id="topic",
            )
            yield Select(
                [(Content(f"{c.id} {c.label(self.lang)}"), c.id) for c in claims.claims.values()],
                prompt=tr("ui.filter_claim", self.lang),
                id="claim",
            )
            yield Select(
                [(tr(f"ui.type_{name}", self.lang), name) for name in TYPE_NAMES],
                prompt=tr("ui.filter_type", self.lang),
                id="type",
            )
        yield DataTable(id="questions", cursor_type="row", zebra_stripes=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = tr("ui.title", self.lang)
        self.sub_title = tr("ui.menu_browse", self.lang)
        table = self.query_one(DataTable)
        # The question's start comes early, so it shows at 80 columns; topic and claims follow.
        for column in ("id", "type", "difficulty", "prompt", "topic", "claims"):
            table.add_column(tr(f"ui.column_{column}", self.lang), key=column)
        self._fill()
        table.focus()

    @on(Select.Changed)
    def _filter(self) -> None:
        self._fill()

    def _fill(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        topic, claim, kind = (self.query_one(f"#{name}", Select).value for name in ("topic", "claim", "type"))
        for q in self.bank.questions.values():
            if topic is not Select.NULL and q.topic != topic:
                continue
            if claim is not Select.NULL and claim not in q.refs:
                continue
            if kind is not Select.NULL and q.type != kind:
                continue
            preview = Text(prompt_preview(q, self.lang, 70))  # Rich Text: DataTable can measure it
            type_label = tr(f"ui.type_{q.type}", self.lang)
            table.add_row(q.id, type_label, str(q.difficulty), preview, q.topic, ",".join(q.refs), key=q.id)

    @on(DataTable.RowSelected)
    def _open(self, event: DataTable.RowSelected) -> None:
        self.post_message(StartPractice(Selection(key=event.row_key.value)))
