"""Dialogs before a mock interview: its choices (as `quiz mock` takes them), and whether to resume
one that was interrupted.

The setup dialog offers the command line's choices with its defaults: 30 minutes, as many
questions as the time budgets fit, every topic, any difficulty, feedback at the end, and a seed
drawn now but shown, so the interview can be given again (its key says the same). Enter in a
field or the Start button checks the choices with `MockOptions` and returns them; a choice that
cannot be used is said under the form, in the interface language, and nothing starts.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, SelectionList, Static

from quiz.bank import Bank
from quiz.history.mocks import MockRow
from quiz.locale.i18n import tr
from quiz.mock.options import DEFAULT_MINUTES, MAX_MINUTES, MAX_QUESTIONS, MAX_SEED, MockOptions, MockOptionsError, minutes_text, parse_minutes
from quiz.ui.translate import TranslatedBindings, with_group_title


class SetupRefused(ValueError):
    """A choice that cannot be used; the message says which, in the interface language."""


class MockSetupScreen(TranslatedBindings, ModalScreen[MockOptions | None]):
    """The choices of a mock interview; dismisses with them, or None on Escape."""

    CSS_PATH = "mock.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "ui.key_back")]

    def __init__(self, lang: str, bank: Bank, seed: int | None = None) -> None:
        super().__init__()
        self.lang = lang
        self.bank = bank
        self.seed = random.randrange(1000) if seed is None else seed

    def compose(self) -> ComposeResult:
        lang = self.lang
        with Vertical(classes="dialog", id="mock-setup"):
            yield Label(tr("mockapp.setup_title", lang), classes="dialog-title")
            with VerticalScroll(id="mock-fields"):
                yield from self._row("minutes", Input(minutes_text(DEFAULT_MINUTES), id="mock-minutes", compact=True))
                yield from self._row("questions", Input(placeholder=tr("mockapp.setup_questions_auto", lang), id="mock-questions", compact=True))
                difficulties = [(tr(f"ui.difficulty_{d}", lang), d) for d in (1, 2, 3)]
                yield from self._row("difficulty", Select(difficulties, prompt=tr("mockapp.setup_any", lang), id="mock-difficulty", compact=True))
                feedback = [(tr("mockapp.feedback_end", lang), "end"), (tr("mockapp.feedback_each", lang), "each")]
                yield from self._row("feedback", Select(feedback, value="end", allow_blank=False, id="mock-feedback", compact=True))
                yield from self._row("seed", Input(str(self.seed), id="mock-seed", compact=True))
                yield Label(tr("mockapp.setup_topics", lang), id="topics-label")
                topics = [(topic.label(lang), topic.id) for topic in self.bank.claims.topics.values()]
                yield SelectionList[str](*topics, id="mock-topics", compact=True)
            yield Static(id="setup-message", markup=False)
            with Horizontal(id="setup-buttons"):
                yield Button(tr("mockapp.setup_start", lang), id="mock-start", variant="primary", compact=True)
                yield Button(tr("mockapp.setup_cancel", lang), id="mock-cancel", compact=True)

    def _row(self, name: str, field: Input | Select[int] | Select[str]) -> ComposeResult:
        with Horizontal(classes="setup-row"):
            yield Label(tr(f"mockapp.setup_{name}", self.lang), classes="setup-label")
            yield with_group_title(field, self.lang)

    def on_mount(self) -> None:
        self.query_one("#mock-minutes", Input).focus()

    def options(self) -> MockOptions:
        """The choices as options; SetupRefused says which cannot be used."""
        minutes = self._minutes()
        questions = self._whole("questions", "#mock-questions", 1, MAX_QUESTIONS)
        seed = self._whole("seed", "#mock-seed", 0, MAX_SEED - 1)
        difficulty = self.query_one("#mock-difficulty", Select).value
        topics = tuple(self.query_one("#mock-topics", SelectionList).selected)
        feedback = self.query_one("#mock-feedback", Select).value
        return MockOptions(
            minutes=minutes,
            questions=questions,
            topics=topics,
            difficulty=difficulty if isinstance(difficulty, int) else None,
            seed=seed if seed is not None else self.seed,
            feedback=str(feedback),
        )

    def _minutes(self) -> float:
        refused = SetupRefused(tr("mockapp.setup_minutes_bad", self.lang, high=f"{MAX_MINUTES:g}"))
        try:
            minutes = parse_minutes(self.query_one("#mock-minutes", Input).value)
        except MockOptionsError:
            raise refused from None
        if not 0 < minutes <= MAX_MINUTES:
            raise refused
        return minutes

    def _whole(self, name: str, selector: str, low: int, high: int) -> int | None:
        text = self.query_one(selector, Input).value.strip()
        if not text:
            return None
        if not text.isdigit() or not low <= int(text) <= high:
            raise SetupRefused(tr("mockapp.setup_whole", self.lang, field=tr(f"mockapp.setup_{name}", self.lang), low=low, high=high))
        return int(text)

    @on(Input.Submitted)
    @on(Button.Pressed, "#mock-start")
    def _start(self) -> None:
        try:
            options = self.options()
        except SetupRefused as exc:
            self.query_one("#setup-message", Static).update(str(exc))
            return
        self.dismiss(options)

    @on(Button.Pressed, "#mock-cancel")
    def _cancel(self) -> None:
        self.dismiss(None)


class ResumeScreen(TranslatedBindings, ModalScreen[bool | None]):
    """An interview was interrupted: resume it (True) or end it (False; `starting` another, the
    new one starts then); Esc: neither, for now."""

    CSS_PATH = "mock.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "ui.key_back")]

    def __init__(self, row: MockRow, lang: str, *, starting: bool = True) -> None:
        super().__init__()
        self.row = row
        self.lang = lang
        self.starting = starting

    def compose(self) -> ComposeResult:
        started = datetime.fromtimestamp(self.row.started_ms / 1000).astimezone()
        with Vertical(classes="dialog", id="mock-resume"):
            yield Label(tr("mockapp.resume_title", self.lang), classes="dialog-title")
            text = "mockapp.resume_text" if self.starting else "mockapp.resume_text_end"
            yield Static(tr(text, self.lang, key=self.row.key, started=f"{started:%Y-%m-%d %H:%M}"), markup=False)
            with Horizontal(id="setup-buttons"):
                yield Button(tr("mockapp.resume_yes", self.lang), id="resume-yes", variant="primary", compact=True)
                yield Button(tr("mockapp.resume_no" if self.starting else "mockapp.resume_end", self.lang), id="resume-no", compact=True)

    def on_mount(self) -> None:
        self.query_one("#resume-yes", Button).focus()

    @on(Button.Pressed, "#resume-yes")
    def _resume(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#resume-no")
    def _new(self) -> None:
        self.dismiss(False)
