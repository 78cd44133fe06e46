"""The question screen: prompt, hints, an answer input for the type, then feedback.

It drives a PracticeSession from the core and holds no grading logic: the session grades and
records each attempt; this screen only shows what happened.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Static

from quiz.answers import Invalid
from quiz.i18n import tr
from quiz.bank import SelectionError
from quiz.practice.session import PracticeSession
from quiz.types.registry import type_of
from quiz.ui.translate import TranslatedBindings
from quiz.ui.answers.base import AnswerWidget
from quiz.ui.answers.explain import ExplainAnswer
from quiz.ui.answers.registry import answer_widget
from quiz.ui.widgets.feedback import FeedbackView
from quiz.ui.widgets.footer import KeyFooter
from quiz.ui.widgets.maths import MathMarkdown


class QuestionScreen(TranslatedBindings, Screen[None]):
    """Practise the questions of one session, one variant at a time."""

    # F-keys and ctrl combinations only: letters belong to the answer field.
    BINDINGS = [
        Binding("ctrl+s", "submit", "ui.key_submit", priority=True),
        Binding("f2", "hint", "ui.key_hint", priority=True),
        Binding("f3", "give_up", "ui.key_give_up", priority=True),
        Binding("f4", "reveal_model", "ui.key_reveal", priority=True),
        Binding("f5", "fresh_variant", "ui.key_fresh", priority=True),
        Binding("f6,ctrl+n", "next_question", "ui.key_next", priority=True),
        Binding("escape", "app.go_home", "ui.key_home"),
    ]

    def __init__(self, session: PracticeSession, lang: str) -> None:
        super().__init__()
        self.session = session
        self.lang = lang

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="progress", markup=False)
        with VerticalScroll(id="question-body"):
            yield MathMarkdown(id="prompt")
            yield Static(id="rule", markup=False)
            yield Vertical(id="hints")
            yield Static(id="message", markup=False)
            yield Vertical(id="answer-area")
            yield Vertical(id="feedback-area")
        yield KeyFooter()

    async def on_mount(self) -> None:
        await self.show_variant(self.session.variant or self.session.next_question())

    async def show_variant(self, variant: Any) -> None:
        """Lay out the current variant: prompt, rule, an empty answer, no hints or feedback."""
        question = variant.question
        self.title = tr("ui.title", self.lang)
        self.sub_title = variant.key
        await self.query_one("#prompt", MathMarkdown).update(variant.text(question.prompt, self.lang))
        rule = self.query_one("#rule", Static)
        rule_text = type_of(question).rule(variant, self.lang)
        rule.update(rule_text or "")
        rule.display = rule_text is not None
        await self.query_one("#hints").remove_children()
        await self.query_one("#feedback-area").remove_children()
        self._say("")
        area = self.query_one("#answer-area")
        await area.remove_children()
        widget = answer_widget(variant, self.lang)
        await area.mount(widget)
        # Focus the answer, but show the prompt from its first line: reading starts there, and on
        # a short terminal scrolling to the answer would hide the question's beginning.
        inputs = widget.query("Input, OptionList, ListView")
        if inputs:
            inputs.first().focus(scroll_visible=False)
        self.query_one("#question-body").scroll_home(animate=False)
        self._update_progress()
        self.refresh_bindings()

    def _update_progress(self) -> None:
        session = self.session
        variant = session.variant
        assert variant is not None
        self.query_one("#progress", Static).update(
            tr(
                "ui.progress",
                self.lang,
                answered=session.answered,
                mean=f"{session.mean_score:.2f}",
                difficulty=variant.question.difficulty,
                topic=self._topic_name(variant.question.topic),
                hints=len(variant.question.hints),
            )
        )

    def _topic_name(self, topic: str) -> str:
        known = self.session.bank.claims.topics.get(topic)
        return known.label(self.lang) if known else topic

    def _say(self, text: str, error: bool = False) -> None:
        message = self.query_one("#message", Static)
        message.update(text)
        message.display = bool(text)
        message.set_class(error, "invalid")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer only what makes sense now: hints and answers before grading, moving on after."""
        answered = self.session.result is not None
        variant = self.session.variant
        if action in ("submit", "give_up"):
            return not answered
        if action == "hint":
            return not answered and variant is not None and self.session.hints_shown < len(variant.question.hints)
        if action == "reveal_model":
            shown = self.query(ExplainAnswer)
            return not answered and bool(shown) and not shown.first().revealed
        if action == "fresh_variant":
            return variant is not None and variant.question.is_parametric
        return True

    @on(AnswerWidget.Submitted)
    async def _submitted_from_input(self) -> None:
        await self.action_submit()

    async def action_submit(self) -> None:
        if self.session.result is not None:
            return
        widget = self.query_one(AnswerWidget)
        response = widget.response()
        if isinstance(response, Invalid):
            self._say(response.message(self.lang), error=True)  # costs nothing: no attempt is recorded
            return
        await self._show_result(self.session.submit(response, widget.typed()), response)

    async def action_give_up(self) -> None:
        if self.session.result is None:
            await self._show_result(self.session.reveal(), None)

    async def action_hint(self) -> None:
        hint = self.session.next_hint()
        if hint is None:
            return
        variant = self.session.variant
        assert variant is not None
        penalty = variant.question.hint_penalty
        label = tr("ui.hint_label", self.lang, n=self.session.hints_shown, penalty=f"{penalty:.0%}")
        shown = MathMarkdown(classes="hint")
        await self.query_one("#hints").mount(shown)
        await shown.update(f"**{label}** {variant.text(hint, self.lang)}")  # in full, then into view
        self.call_after_refresh(shown.scroll_visible, animate=False)
        self.refresh_bindings()

    async def action_reveal_model(self) -> None:
        widget = self.query_one(AnswerWidget)
        if isinstance(widget, ExplainAnswer):
            await widget.reveal()
            self.refresh_bindings()  # F4 has done its job

    async def action_fresh_variant(self) -> None:
        await self._move(self.session.fresh_variant)

    async def action_next_question(self) -> None:
        await self._move(self.session.next_question)

    async def _move(self, step: Any) -> None:
        try:
            variant = step()
        except SelectionError as exc:
            self.notify(exc.message(self.lang), severity="error")
            return
        if variant is None:  # the round is over
            self.app.action_go_home()
            return
        await self.show_variant(variant)

    async def _show_result(self, result: Any, response: Any) -> None:
        self._say("")
        variant = self.session.variant
        assert variant is not None
        self.query_one(AnswerWidget).seal()
        area = self.query_one("#feedback-area")
        await area.remove_children()
        await area.mount(FeedbackView(variant, result, response, self.lang))
        self._update_progress()
        self.refresh_bindings()
        self.query_one("#question-body").focus()
