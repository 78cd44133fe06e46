"""Sitting a mock interview: one question at a time under the interview's clocks.

It drives a MockSession from the core, which grades, records and keeps the time; this screen
shows the question, the clocks (quiz.ui.widgets.clocks) and, with feedback `each`, the result of
each answer before the next question. Interview rules: no hints, no answer shown, no new numbers,
so the footer offers only submitting (and going on after feedback). When the session puts a
pushback to a graded answer, the challenge is shown above the answer, which stays open: F7 holds
the answer, F8 revises it to what is typed now; feedback (with `each`) waits until it is met, as
it would give the answer away. When the interview's time is
up, whatever is typed is handed to the session, which grades it if it reads as an answer and
records "no answer" otherwise. At the end the app takes over (`MockOver`): self-grading, then
the report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.reactive import var
from textual.widgets import Header

from quiz.answer_text import Invalid
from quiz.grading.result import Result
from quiz.history.pushbacks import PushbackRow
from quiz.locale.i18n import tr
from quiz.mock.session import SPOKEN
from quiz.session.pushback import Challenge
from quiz.types.registry import type_of
from quiz.ui.answer_widgets.base import AnswerWidget
from quiz.ui.answer_widgets.notes import NotesAnswer
from quiz.ui.answer_widgets.registry import answer_widget
from quiz.ui.messages import MockOver
from quiz.ui.screens.answering import AnsweringScreen, time_budget
from quiz.ui.widgets.clocks import ClockBar
from quiz.ui.widgets.feedback import FeedbackView
from quiz.ui.widgets.pushback import pushback_outcome, pushback_prompt
from quiz.ui.widgets.status import StatusLine
from quiz.variants.variant import Variant

if TYPE_CHECKING:
    from quiz.mock.session import MockSession
    from quiz.ui.screens.help import Section


class MockScreen(AnsweringScreen):
    """One sitting of a mock interview."""

    CSS_PATH = "mock.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f6,ctrl+n", "next_question", "ui.key_next", priority=True),
        Binding("f7", "hold", "ui.key_hold", priority=True),
        Binding("f8", "revise", "ui.key_revise", priority=True),
        Binding("escape", "end_interview", "mockapp.key_end"),
    ]
    challenged: var[bool] = var(False, bindings=True, init=False)
    """A pushback is put to the answer given and awaits hold or revise."""

    def __init__(self, session: MockSession, lang: str, *, ticking: bool = True) -> None:
        super().__init__(lang)
        self.session = session
        self.ticking = ticking
        """Whether the clocks tick on a timer (tests and still pictures tick them by hand)."""
        self.end_armed = False
        self._graded: tuple[Result, object] | None = None
        """The answer's result and response while a pushback is put, for the feedback that waits."""
        self._challenge: Challenge | None = None

    def compose_top(self) -> ComposeResult:
        yield Header()
        yield ClockBar(self.lang, self.session.interview, self.session.question, ticking=self.ticking)

    async def on_mount(self) -> None:
        self.title = tr("mockapp.title", self.lang)
        self.sub_title = self.session.plan.key
        if self.session.challenge is not None:  # resumed with a challenge not yet met: put it again
            await self._ask(self.session.challenge.variant)
            self._put_challenge()
            return
        if self.session.current is None:  # resumed after its end: straight on to what follows
            self._over()
            return
        await self._ask(self.session.current)

    @property
    def clocks(self) -> ClockBar:
        return self.query_one(ClockBar)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only what an interview allows: answer; after an answer's feedback, go on."""
        if action in ("submit", "next_question", "hold", "revise") and (self.variant is None or self.too_small or self.session.finished):
            return False
        if action in ("hold", "revise"):
            return self.challenged
        if action == "submit":
            return not self.answered and not self.challenged
        if action == "run_again":  # the first submission stays the graded one; later runs are practice
            return self.can_run_again() and not self.session.finished
        if action == "next_question":
            return self.answered
        return True

    def make_answer(self, variant: Variant) -> AnswerWidget:
        # Spoken questions are answered aloud, with notes; self-graded after the interview.
        return NotesAnswer(variant, self.lang) if type_of(variant.question).name == SPOKEN else answer_widget(variant, self.lang)

    async def _ask(self, variant: Variant) -> None:
        await self.show_question(variant)
        self.answered = False
        self.variant = variant
        self.clocks.question = self.session.question
        self.update_status()

    def update_status(self) -> None:
        """The status line: which question of how many, a follow-up (and how deep) or not, its topic and level."""
        variant = self.variant
        if variant is None:
            return
        question = variant.question
        number, total = self.session.position
        topic = self.session.bank.claims.topics.get(question.topic)
        parts = [tr("mockapp.status_position", self.lang, number=number, total=total)]
        depth = self.session.depth
        if depth > 1:  # deeper in a chain of follow-ups: say how deep
            parts.append(tr("mockapp.status_follow_up_depth", self.lang, depth=depth))
        elif self.session.is_follow_up:
            parts.append(tr("mockapp.status_follow_up", self.lang))
        parts.append(topic.label(self.lang) if topic else question.topic)
        parts.append(tr("mockapp.status_level", self.lang, difficulty=question.difficulty))
        self.query_one("#status", StatusLine).show(parts)

    def help_sections(self) -> list[Section]:
        variant = self.variant
        if variant is None:
            return []
        lines = [tr("mockapp.help_rules", self.lang), *self.answer_help(variant)]
        lines.append(tr("ui.help_time", self.lang, time=time_budget(self.session.question.length)))
        return [(tr("ui.help_this_question", self.lang), "\n\n".join(lines))]

    # -- answering --------------------------------------------------------------------------

    async def grade(self, response: object, typed: str | None) -> None:
        variant = self.variant
        assert variant is not None
        self.end_armed = False
        result = self.session.submit(response, typed)
        spoken = "self_grade" in result.details
        if self.session.challenge is not None:
            self._graded = (result, response)
            self._put_challenge()
            return
        if self.session.feedback == "each" and not spoken:
            await self._show_feedback(variant, result, response)
            return
        await self._go_on()

    async def _show_feedback(self, variant: Variant, result: Result, response: object) -> None:
        self.say("")
        await self.show_feedback(FeedbackView(variant, result, response, self.lang, self.feedback_basis))
        await self.show_reference(variant, result)
        self.answered = True
        self.say(tr("mockapp.next_hint", self.lang))

    def _put_challenge(self) -> None:
        """Show the pushback above the answer, which stays open for a revision."""
        challenge = self.session.challenge
        assert challenge is not None
        self._challenge = challenge
        self.query_one("#answer-dock").mount(pushback_prompt(challenge, self.lang), before=0)
        self.challenged = True
        self.focus_answer()

    async def action_hold(self) -> None:
        if self.challenged:
            await self._challenge_met(self.session.hold())

    async def action_revise(self) -> None:
        if not self.challenged:
            return
        widget = self.answers().first()
        response = widget.response()
        if isinstance(response, Invalid):
            self.say(response.message(self.lang), error=True)
            return
        await self._challenge_met(self.session.revise(response, widget.typed()))

    async def _challenge_met(self, row: PushbackRow) -> None:
        """The challenge is graded and committed: take its prompt away, then feedback or the next question."""
        variant, graded, challenge = self.variant, self._graded, self._challenge
        self.challenged, self._graded, self._challenge = False, None, None
        await self.query("#pushback").remove()
        if self.session.feedback == "each" and variant is not None and graded is not None and challenge is not None:
            await self._show_feedback(variant, *graded)
            self.say(f"{pushback_outcome(challenge, row, self.lang)} {tr('mockapp.next_hint', self.lang)}")
            return
        await self._go_on()

    async def action_next_question(self) -> None:
        if self.answered:
            await self._go_on()

    async def _go_on(self) -> None:
        """The session has moved on: ask its next question, or end the interview."""
        current = self.session.current
        if current is None:
            self._over()
        else:
            await self._ask(current)

    @on(ClockBar.TimeUp)
    def _time_up(self, event: ClockBar.TimeUp) -> None:
        event.stop()
        self.time_up()

    def time_up(self) -> None:
        """The interview's time is up: what is typed counts if it reads as an answer."""
        if self.session.finished or not self.session.check_deadline():
            return
        self.session.time_out(self._typed_now())
        self._over()

    def _typed_now(self) -> str | None:
        """The answer as it stands, as text the session can read (None after feedback, or blank)."""
        variant = self.session.current
        answers = self.query(AnswerWidget)
        if variant is None or self.answered or not answers:
            return None
        widget = answers.first()
        if widget.untouched():
            return None
        typed = widget.typed()
        if typed is None:  # picked, not typed: what is picked, written as the type reads it
            response = widget.response()
            if not isinstance(response, Invalid):
                typed = type_of(variant.question).response_text(variant, response)
        return typed

    def action_end_interview(self) -> None:
        """Esc twice: end the interview now, as if its time were up (what is typed counts)."""
        if self.session.finished:
            return
        if not self.end_armed:
            self.say(tr("mockapp.end_confirm", self.lang))
            self.end_armed = True
            return
        self.session.time_out(self._typed_now())
        self._over()

    def say(self, text: str, error: bool = False) -> None:
        self.end_armed = False  # any other message cancels an end waiting to be confirmed
        super().say(text, error)

    def _over(self) -> None:
        if self.is_mounted and self.query(ClockBar):
            self.clocks.stop()
            self.clocks.question = None
        self.post_message(MockOver(self.session))
