"""The question screen: prompt, hints, an answer input for the type, then feedback.

It drives a PracticeSession from the core and holds no grading logic: the session grades and
records each attempt; this screen only shows what happened, and today's count from history.
When the round is over (after the last question, or on Esc once something was answered) it says
so, and the app shows the round's summary. What the footer offers follows the
screen's reactive state (`answered`, `hints_shown`, ...), declared with `bindings=True`.
The question and its answer are laid out by `AnsweringScreen`, which the mock interview shares.
A pushback the session puts to a graded answer is shown above the answer, which stays open:
F7 holds the answer, F8 revises it; the feedback waits until then, as it would give it away.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.containers import Vertical
from textual.reactive import var
from textual.widgets import Static

from quiz.answer_text import Invalid
from quiz.bank import SelectionError
from quiz.grading.result import Result
from quiz.history.pushbacks import PushbackRow
from quiz.history.recorder import Recorder
from quiz.locale.i18n import tr
from quiz.models.questions import ExplainQuestion
from quiz.practice.session import PracticeSession
from quiz.session.pushback import Challenge
from quiz.ui.messages import AttemptRecorded, GoHome, MarkEasy, RoundOver
from quiz.ui.screens.answering import AnsweringScreen, time_budget
from quiz.ui.widgets.maths import MathMarkdown
from quiz.ui.widgets.pushback import pushback_outcome, pushback_prompt
from quiz.ui.widgets.status import StatusLine
from quiz.variants.variant import Variant

if TYPE_CHECKING:  # the help screen is imported when first opened
    from quiz.ui.screens.help import Section

ANSWERING = frozenset(
    {"submit", "run_again", "hint", "give_up", "reveal_model", "fresh_variant", "next_question", "more_worked", "easy", "hold", "revise"}
)
"""Actions that act on the question, none of which run while the terminal is too small to show it."""


# The question screen's own entries in the command palette (Ctrl+P), offered only when the screen would
# accept them: the action each runs. Giving up from the palette is already deliberate, so it is confirmed.
PALETTE_ENTRIES = {
    "next_question": "next_question",
    "fresh_variant": "fresh_variant",
    "hint": "hint",
    "give_up": "give_up(True)",
    "more_worked": "more_worked",
    "easy": "easy",
}


class QuestionCommands(Provider):
    """What can be done to the question on screen, in the learner's language."""

    def _entries(self) -> Iterator[tuple[str, str, Callable[[], Awaitable[None]]]]:
        # Only QuestionScreen lists this provider (its COMMANDS).
        screen: QuestionScreen = self.screen  # type: ignore[assignment]
        for name, action in PALETTE_ENTRIES.items():
            if screen.check_action(name, ()):
                yield tr(f"ui.cmd_title_{name}", screen.lang), tr(f"ui.cmd_{name}", screen.lang), partial(screen.run_action, action)

    async def discover(self) -> Hits:
        for title, help_text, run in self._entries():
            yield DiscoveryHit(title, run, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, run in self._entries():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), run, help=help_text)


class QuestionScreen(AnsweringScreen):
    """Practise the questions of one session, one variant at a time."""

    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {QuestionCommands}
    # F-keys and ctrl combinations only (Ctrl+S and PageUp/PageDown come with AnsweringScreen).
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "hint", "ui.key_hint", priority=True),
        Binding("f3", "give_up", "ui.key_give_up", priority=True),
        Binding("f4", "reveal_model", "ui.key_reveal", priority=True),
        Binding("f5", "fresh_variant", "ui.key_fresh", priority=True),
        Binding("f6,ctrl+n", "next_question", "ui.key_next", priority=True),
        Binding("f7", "more_worked", "ui.key_more_worked", priority=True),
        # F8, not F9: the code answer's own F9 (external editor) must stay reachable.
        Binding("f8", "easy", "ui.key_easy", priority=True),
        # While a pushback is put no feedback is shown, so F7 and F8 are free to meet it.
        Binding("f7", "hold", "ui.key_hold", priority=True),
        Binding("f8", "revise", "ui.key_revise", priority=True),
        Binding("escape", "go_home", "ui.key_home"),
    ]

    PREPARES_FEEDBACK = True

    hints_shown: var[int] = var(0, bindings=True, init=False)
    model_shown: var[bool] = var(False, bindings=True, init=False)
    more_worked: var[bool] = var(False, bindings=True, init=False)
    """Worked values are folded away and F7 would show them."""
    easy_offered: var[bool] = var(False, bindings=True, init=False)
    """The answer passed and was saved, so F8 may rate it Easy."""
    challenged: var[bool] = var(False, bindings=True, init=False)
    """A pushback is put to the answer given: F7 holds it, F8 revises it; the feedback waits."""

    def __init__(self, session: PracticeSession, lang: str, history: Recorder | None = None) -> None:
        super().__init__(lang)
        self.session = session
        self.history = history
        """Where today's count comes from, and which attempt was saved (None: the session's own)."""
        self.give_up_armed = False
        self._graded: tuple[Result, object] | None = None
        """The answer's result and response while a pushback is put."""

    def compose_after_rule(self) -> ComposeResult:
        yield Vertical(id="hints")
        yield Vertical(id="model-area")

    def first_variant(self) -> Variant | None:
        return self.session.variant  # drawn before the screen opens (see QuizApp.start_practice)

    async def on_mount(self) -> None:
        self.title = tr("ui.title", self.lang)
        first = self.session.variant
        if first is not None:  # laid out by compose: the rest of show_variant
            self.sub_title = first.key
            self.variant = first
            self.focus_answer()
            self.update_status()
            return
        # Through _move: a round with nothing left to draw says so instead of failing.
        await self._move(self.session.next_question)

    # -- state ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Offer only what makes sense now: hints and answers before grading, moving on after."""
        variant = self.variant
        if action in ANSWERING and (variant is None or self.too_small):
            return False
        if action in ("hold", "revise"):
            return self.challenged
        if self.challenged and action in ("submit", "give_up", "hint", "fresh_variant", "next_question"):
            return False  # the challenge is met first
        if action in ("submit", "give_up"):
            return not self.answered
        if action == "run_again":
            return self.can_run_again()
        if action == "hint":
            return variant is not None and not self.answered and self.hints_shown < len(variant.question.hints)
        if action == "reveal_model":
            return not self.answered and not self.model_shown and variant is not None and isinstance(variant.question, ExplainQuestion)
        if action == "fresh_variant":
            return variant is not None and variant.question.is_parametric
        if action == "more_worked":
            return self.more_worked
        if action == "easy":
            return self.answered and self.easy_offered
        return True

    # -- showing a variant ------------------------------------------------------------------

    async def show_variant(self, variant: Variant) -> None:
        """Lay out `variant`: prompt, rule, an empty answer, no hints or feedback."""
        self.sub_title = variant.key
        await self.show_question(variant, ("#hints", "#model-area"))
        self.answered, self.hints_shown, self.model_shown, self.more_worked, self.easy_offered = False, 0, False, False, False
        self.variant = variant
        self.update_status()

    def update_status(self) -> None:
        """The status line: today's attempts and mean score, then the question's level, hints (only
        if it has any), time and topic, wrapped only between its parts."""
        session, variant = self.session, self.variant
        if variant is None:
            return
        question = variant.question
        answered, mean = self.history.today() if self.history is not None else (session.answered, session.mean_score)
        parts = [
            tr("ui.status_today", self.lang, answered=answered),
            tr("ui.status_mean", self.lang, mean=f"{mean:.2f}"),
            tr("ui.status_level", self.lang, difficulty=question.difficulty),
        ]
        if question.hints:
            parts.append(tr("ui.status_hints", self.lang, used=self.hints_shown, hints=len(question.hints)))
        parts.append(tr("ui.status_time", self.lang, time=time_budget(question.time)))
        parts.append(self._topic_name(question.topic))  # the longest part last: it takes a line of its own on a narrow terminal
        self.query_one("#status", StatusLine).show(parts)

    def _topic_name(self, topic: str) -> str:
        known = self.session.bank.claims.topics.get(topic)
        return known.label(self.lang) if known else topic

    def say(self, text: str, error: bool = False) -> None:
        self.give_up_armed = False  # any other message cancels a give-up waiting to be confirmed
        super().say(text, error)

    def help_sections(self) -> list[Section]:
        variant = self.variant
        if variant is None:
            return []
        question = variant.question
        lines = self.answer_help(variant)
        lines.append(tr("ui.help_hints", self.lang, count=len(question.hints), penalty=f"{question.hint_penalty:.0%}"))
        lines.append(tr("ui.help_time", self.lang, time=time_budget(question.time)))
        return [(tr("ui.help_this_question", self.lang), "\n\n".join(lines))]

    # -- answering --------------------------------------------------------------------------

    async def grade(self, response: object, typed: str | None) -> None:
        result = self.session.submit(response, typed)
        challenge = self.session.challenge
        if challenge is None:
            await self._show_result(result, response)
            return
        self._graded = (result, response)  # its feedback would give the answer away: it waits
        self.query_one("#answer-dock").mount(pushback_prompt(challenge, self.lang), before=0)
        self.challenged = True
        self.focus_answer()

    async def action_hold(self) -> None:
        challenge = self.session.challenge
        if self.challenged and challenge is not None:
            await self._challenge_met(challenge, self.session.hold())

    async def action_revise(self) -> None:
        challenge = self.session.challenge
        if not (self.challenged and challenge is not None):
            return
        widget = self.answers().first()
        response = widget.response()
        if isinstance(response, Invalid):
            self.say(response.message(self.lang), error=True)
            return
        await self._challenge_met(challenge, self.session.revise(response, widget.typed()))

    async def _challenge_met(self, challenge: Challenge, row: PushbackRow) -> None:
        """The challenge is graded and committed: the answer's feedback, and how the challenge went."""
        graded, self._graded = self._graded, None
        self.challenged = False
        await self.query("#pushback").remove()
        assert graded is not None
        await self._show_result(*graded)
        self.say(pushback_outcome(challenge, row, self.lang))

    async def action_give_up(self, confirmed: bool = False) -> None:
        """Show the answer and score 0, once the learner has pressed F3 twice (or chose it in the palette)."""
        if self.answered:
            return
        if not (confirmed or self.give_up_armed):
            self.say(tr("ui.give_up_confirm", self.lang))
            self.give_up_armed = True
            return
        await self._show_result(self.session.reveal(), None)

    async def action_hint(self) -> None:
        hint = self.session.next_hint()
        variant = self.variant
        if hint is None or variant is None:
            return
        penalty = variant.question.hint_penalty
        label = tr("ui.hint_label", self.lang, n=self.session.hints_shown, penalty=f"{penalty:.0%}")
        shown = MathMarkdown(classes="hint")
        await self.query_one("#hints").mount(shown)
        await shown.update(f"**{label}** {variant.text(hint, self.lang)}")  # in full, then into view
        self.hints_shown = self.session.hints_shown
        self.update_status()
        self.call_after_refresh(shown.scroll_visible, animate=False)

    async def action_reveal_model(self) -> None:
        variant = self.variant
        if variant is None or not isinstance(variant.question, ExplainQuestion) or self.model_shown:
            return
        # Imported by the registry with the widget this question shows; not before the first frame.
        from quiz.ui.answer_widgets.explain import ExplainAnswer

        widget = self.query_one(ExplainAnswer)
        title = Static(tr("ui.model_answer", self.lang), classes="section-title", markup=False)
        model = MathMarkdown(id="model-answer")
        await self.query_one("#model-area").mount_all([title, model])
        await model.update(variant.text(variant.question.model_answer, self.lang))
        await widget.reveal()
        self.model_shown = True
        # The model answer is read from its first line; the checklist below has the focus.
        self.call_after_refresh(title.scroll_visible, top=True, animate=False)

    async def action_fresh_variant(self) -> None:
        await self._move(self.session.fresh_variant)

    async def action_next_question(self) -> None:
        await self._move(self.session.next_question)

    def action_go_home(self) -> None:
        """Esc: the round ends here; once something was answered, its summary comes first."""
        self.post_message(RoundOver(self.session) if self.session.answered else GoHome())

    def action_easy(self) -> None:
        """F8 after a passed, saved answer: the learner found it easy (its next review moves out)."""
        attempt = self.session.last_attempt
        if self.easy_offered and attempt is not None:
            self.easy_offered = False
            self.post_message(MarkEasy(attempt))

    async def action_more_worked(self) -> None:
        from quiz.ui.widgets.feedback import FeedbackView  # imported after the first frame: see AnsweringScreen

        feedback = self.query(FeedbackView)
        if feedback:
            await feedback.first().show_more()
        self.more_worked = False

    async def _move(self, step: Callable[[], Variant | None]) -> None:
        try:
            variant = step()
        except SelectionError as exc:
            self.notify(exc.message(self.lang), severity="error", markup=False)  # it quotes pack messages
            return
        if variant is None:  # the round is over: its summary, never the first question again
            self.post_message(RoundOver(self.session))
            return
        await self.show_variant(variant)

    async def _show_result(self, result: Result, response: object) -> None:
        variant = self.variant
        assert variant is not None
        self.say("")
        # Given up, the empty answer says nothing: the feedback gets its room.
        self.query_one("#answer-dock").set_class(response is None, "-given-up")
        self.post_message(AttemptRecorded())
        feedback = await self.show_graded(variant, result, response)
        await self.show_reference(variant, result)
        self.answered = True
        self.easy_offered = self.history is not None and self.history.can_mark_easy(self.session.last_attempt)
        self.more_worked = feedback.has_more
        self.update_status()
