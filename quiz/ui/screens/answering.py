"""What the practice question screen and the mock interview share: a question and its answer.

The prompt and the type's rule scroll in their own region; the answer widget for the question's
type (from the registry in quiz.ui.answer_widgets), with its Read-as preview, stays docked below, and a
line above it says what is wrong with the answer as typed. Submitting reads the widget's response
and hands a readable one to `grade`, which each screen implements: practice grades and shows
feedback at once (its answer-independent part mounted, hidden, while the question is read), a
mock interview may hold it. Below 60×16 a note asks for a larger terminal.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.css.query import DOMQuery
from textual.css.scalar import Scalar
from textual.reactive import Reactive, var
from textual.widget import Widget
from textual.widgets import Header, OptionList, Static

from quiz.answer_text import Invalid
from quiz.base.collector import COLLECTOR
from quiz.grading.result import Result, Verdict
from quiz.locale.i18n import tr
from quiz.types.registry import type_of
from quiz.ui.answer_widgets.base import AnswerWidget
from quiz.ui.answer_widgets.registry import answer_widget
from quiz.ui.screens.base import QuizScreen
from quiz.ui.widgets.footer import KeyFooter
from quiz.ui.widgets.maths import MathMarkdown
from quiz.ui.widgets.scroll_body import ScrollBody
from quiz.ui.widgets.status import StatusLine
from quiz.variants.variant import Variant

if TYPE_CHECKING:  # imported once the question is drawn (see `_prepare_feedback`)
    from quiz.ui.widgets.feedback import FeedbackBasis, FeedbackView


def time_budget(seconds: float) -> str:
    """A question's suggested time as minutes and seconds: `1:30`."""
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


class AnsweringScreen(QuizScreen):
    """A question on screen with the answer input for its type; subclasses grade and go on."""

    # F-keys and ctrl combinations only: letters belong to the answer.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "submit", "ui.key_submit", priority=True),
        # Once a code answer is graded, Ctrl+S runs its checks again, ungraded (`can_run_again`).
        Binding("ctrl+s", "run_again", "ui.key_run_again", priority=True),
        # PageUp/PageDown scroll the question even while an option list has the focus.
        Binding("pageup", "scroll_question(-1)", "ui.key_page_up", show=False, priority=True),
        Binding("pagedown", "scroll_question(1)", "ui.key_page_down", show=False, priority=True),
    ]

    # Textual's Screen declares `focused` with a repaint of the whole screen, but a move of the focus
    # changes only the widgets that gain and lose it, and they repaint themselves (with any
    # ancestor a `:focus-within` rule restyles). On Enter the focus moves to the question's body,
    # and that second full redraw came after the feedback's frame: about 10 ms of 60 to the feedback.
    focused: Reactive[Widget | None] = var(None)
    # always_update: a new variant always counts as a change (and variants hold arrays, which `!=` cannot compare).
    variant: var[Variant | None] = var(None, bindings=True, init=False, always_update=True)
    answered: var[bool] = var(False, bindings=True, init=False)
    feedback_basis: FeedbackBasis | None = None
    """The feedback's answer-independent part for the variant on screen, once prepared."""
    PREPARES_FEEDBACK: ClassVar[bool] = False
    """Whether the feedback's answer-independent widgets are mounted, hidden, while the question is
    read (see `show_graded`): practice shows feedback after every answer; a mock may hold it."""

    def compose(self) -> ComposeResult:
        # The first variant is laid out here, so the screen's first frame shows it whole; later
        # ones replace it through `show_question`.
        first = self.first_variant()
        yield from self.compose_top()
        yield StatusLine(id="status")
        yield Static(tr("ui.too_small", self.lang), id="too-small", markup=False)
        with ScrollBody(id="question-body"):
            yield MathMarkdown("" if first is None else first.text(first.question.prompt, self.lang), id="prompt")
            rule_text = None if first is None else type_of(first.question).rule(first, self.lang)
            rule = Static(rule_text or "", id="rule", markup=False)
            rule.display = rule_text is not None
            yield rule
            yield from self.compose_after_rule()
            yield Vertical(id="feedback-area")
        with Vertical(id="answer-dock"):
            message = Static(id="message", markup=False)
            message.display = False
            yield message
            with Vertical(id="answer-area"):
                if first is not None:
                    yield self.make_answer(first)
        yield KeyFooter()

    def first_variant(self) -> Variant | None:
        """The variant to lay out with the screen itself (None: the screen shows one once mounted)."""
        return None

    def compose_top(self) -> ComposeResult:
        """What sits above the status line: the header (and a mock's clocks)."""
        yield Header()

    def compose_after_rule(self) -> ComposeResult:
        """Regions between the rule and the feedback (practice: hints and the model answer)."""
        yield from ()

    # -- state ------------------------------------------------------------------------------

    @property
    def too_small(self) -> bool:
        return self.has_class("-tiny") or self.has_class("-short")

    def answers(self) -> DOMQuery[AnswerWidget]:
        """The answer widget on screen (none before a question is): looked up in #answer-area, its
        parent, not by a walk of the whole screen, which the footer would make at every refresh."""
        return self.query_one("#answer-area").query_children(AnswerWidget)

    def footer_omits(self, narrow: bool) -> frozenset[str]:
        # The footer may refresh while the screen is taken down (a mock ending on its report), its
        # answer area already removed: then there is no answer and nothing to omit.
        if not self.query("#answer-area"):
            return frozenset()
        answers = self.answers()
        return answers.first().footer_omits(narrow) if answers else frozenset()  # the answer knows what its keys make redundant

    def can_run_again(self) -> bool:
        """The answer was graded (not given up) and its kind runs again: a code answer's checks."""
        if not self.answered or self.too_small or self.query_one("#answer-dock").has_class("-given-up"):
            return False
        answers = self.answers()
        return bool(answers) and answers.first().runs_again

    @on(ScrollBody.Resized, "#question-body")
    def _body_resized(self, event: ScrollBody.Resized) -> None:
        event.stop()
        self.fit_options()

    def fit_options(self) -> None:
        """An answer's option list takes the rows the question leaves empty, and gives back rows the
        question lacks down to its third of the screen (33vh, its floor): no option hides while the
        space above stands empty. One list only: an evidence answer's two keep a third each."""
        areas = self.query("#answer-area")  # gone while the screen is taken down (see footer_omits)
        lists = areas.first().query(OptionList) if areas else None
        if lists is None or len(lists) != 1:
            return
        options = lists.first()
        room = max(self.size.height // 3, options.outer_size.height + self.query_one("#question-body", ScrollBody).spare_rows)
        # Stable: as the list grows or shrinks the body changes by as much the other way, and the room comes out the same.
        if options.styles.max_height != Scalar.from_number(room):
            options.styles.max_height = room

    def size_class_changed(self) -> None:
        # Back from too small: the answer takes the keys again (it lost the focus while hidden).
        if not self.too_small and self.focused is None:
            self.focus_answer()

    # -- showing a variant ------------------------------------------------------------------

    def watch_variant(self, variant: Variant | None) -> None:
        # Prepared once the question is drawn, while the learner reads it.
        self.feedback_basis = None
        if variant is not None:
            self.call_after_refresh(self._prepare_feedback, variant)

    async def _prepare_feedback(self, variant: Variant) -> None:
        # The feedback's code is imported here, after the first frame: a question opens without it
        # (about 9 ms of a start), and this runs while the learner reads.
        from quiz.ui.widgets.feedback import FeedbackBasis, FeedbackView

        if self.variant is not variant or self.answered:
            return
        self.feedback_basis = basis = FeedbackBasis.of(variant, self.lang)
        if not self.PREPARES_FEEDBACK:
            return
        # An answer may be graded while this waits on the area (keys typed ahead of the screen):
        # its feedback is never removed, and no hidden panel is mounted beside it.
        area = self.query_one("#feedback-area")
        if any(not view.waiting for view in area.query_children(FeedbackView)):
            return
        await area.remove_children()
        if self.variant is variant and not area.children:
            await area.mount(FeedbackView.prepared(basis))

    def make_answer(self, variant: Variant) -> AnswerWidget:
        """The answer input for the variant's type (a mock takes notes for spoken questions)."""
        return answer_widget(variant, self.lang)

    async def show_question(self, variant: Variant, regions: tuple[str, ...] = ()) -> None:
        """Lay out `variant`: prompt, rule and an empty answer; `regions` are emptied too."""
        question = variant.question
        await self.query_one("#prompt", MathMarkdown).update(variant.text(question.prompt, self.lang))
        rule = self.query_one("#rule", Static)
        rule_text = type_of(question).rule(variant, self.lang)
        rule.update(rule_text or "")
        rule.display = rule_text is not None
        for area in (*regions, "#feedback-area", "#answer-area"):
            await self.query_one(area).remove_children()
        self.say("")
        self.query_one("#answer-dock").remove_class("-given-up")
        await self.query_one("#answer-area").mount(self.make_answer(variant))
        self.focus_answer()
        self.query_one("#question-body").scroll_home(animate=False)

    def focus_answer(self) -> None:
        answers = self.answers()
        control = answers.first().input_widget() if answers else None
        if control is not None and not control.disabled:
            # At once, not as `control.focus()` does it (queued behind the events already waiting):
            # keys typed as the question changes (F5, then the answer) belong to the new field.
            self.set_focus(control, scroll_visible=False)

    def say(self, text: str, error: bool = False) -> None:
        """The line above the answer: a problem with it, or what a key is about to do."""
        message = self.query_one("#message", Static)
        message.update(text)
        message.display = bool(text)
        message.set_class(error, "invalid")

    def answer_help(self, variant: Variant) -> list[str]:
        """The help screen's lines on how to answer this question: its input, then its rule."""
        lines = [tr(self.answers().first().HELP, self.lang)]
        rule = type_of(variant.question).rule(variant, self.lang)
        if rule:
            lines.append(rule)
        return lines

    # -- answering --------------------------------------------------------------------------

    @on(AnswerWidget.Changed)
    def _answer_changed(self, event: AnswerWidget.Changed) -> None:
        event.stop()
        self.say("")  # an error about the answer as it was no longer applies

    @on(AnswerWidget.Submitted)
    async def _submitted_from_answer(self, event: AnswerWidget.Submitted) -> None:
        event.stop()
        await self.run_action("submit")

    def action_run_again(self) -> None:
        if self.can_run_again():
            self.answers().first().prepare()  # it posts Ran when done

    @on(AnswerWidget.Ran)
    async def _ran(self, event: AnswerWidget.Ran) -> None:
        """Show a run after the graded answer above its feedback, replacing the run before it."""
        event.stop()
        area = self.query_one("#feedback-area")
        await area.query_children("#code-run").remove()
        run = Vertical(
            Static(event.title, classes="section-title", markup=False),
            Static(Content(event.text), id="code-run-checks"),
            id="code-run",
        )
        await area.mount(run, before=0)
        self.call_after_refresh(run.scroll_visible, top=True, animate=False)

    async def action_submit(self) -> None:
        if self.answered:
            return
        widget = self.answers().first()
        if widget.prepare():  # it grades off the event loop and posts Submitted when ready
            return
        response = widget.response()
        if isinstance(response, Invalid):
            self.say(response.message(self.lang), error=True)  # costs nothing: no attempt is recorded
            return
        # The feedback (or the next question) is drawn before the garbage collector's pauses.
        COLLECTOR.hold()
        try:
            await self.grade(response, widget.typed())
        finally:
            self.call_after_refresh(COLLECTOR.release)

    def on_unmount(self) -> None:
        COLLECTOR.release()  # the screen left before the refresh that would have resumed collection

    async def grade(self, response: object, typed: str | None) -> None:
        """Grade a readable response to the question on screen (and show or hold the result)."""
        raise NotImplementedError

    async def show_feedback(self, feedback: FeedbackView) -> None:
        """Seal the answer and show `feedback` below the question, which takes the focus (so the
        keys scroll it) and opens at the verdict."""
        async def mount() -> None:
            area = self.query_one("#feedback-area")
            await area.remove_children()
            await area.mount(feedback)

        await self._showing_feedback(feedback, mount)

    async def show_graded(self, variant: Variant, result: Result, response: object) -> FeedbackView:
        """Show the feedback for `result` as `show_feedback` does, completing the one prepared for
        `variant` while it was read, or built now if there is none."""
        from quiz.ui.widgets.feedback import FeedbackView  # see _prepare_feedback

        prepared = [view for view in self.query_one("#feedback-area").query_children(FeedbackView) if view.waiting]
        if not (prepared and prepared[0].basis.serves(variant, self.lang)):
            feedback = FeedbackView(variant, result, response, self.lang, self.feedback_basis)
            await self.show_feedback(feedback)
            return feedback
        feedback = prepared[0]
        await self._showing_feedback(feedback, lambda: feedback.show_result(result, response))
        return feedback

    async def show_reference(self, variant: Variant, result: Result) -> None:
        """Once a question with a reference solution (a code task's) is passed or given up, show it
        below the feedback, beside the candidate's code (unless they never changed the starter)."""
        reference = type_of(variant.question).reference_solution(variant)
        if reference is None or result.verdict not in (Verdict.CORRECT, Verdict.REVEALED):
            return
        from quiz.ui.widgets.code_compare import CodeComparison  # with the feedback: see _prepare_feedback

        answers = self.answers()
        yours = answers.first().typed() if answers else None
        starter = type_of(variant.question).starter(variant)
        shown = yours if yours and yours.strip() and yours.strip() != (starter or "").strip() else None
        await self.query_one("#feedback-area").mount(CodeComparison(shown, reference, self.lang))

    async def _showing_feedback(self, feedback: FeedbackView, show: Callable[[], Awaitable[None]]) -> None:
        """Give the question's body the focus, then `show` puts `feedback` on screen; the answer is
        sealed and the verdict brought into view after the frame."""
        COLLECTOR.hold()  # as in action_submit, for feedback that comes another way (giving up)
        try:
            # Focus moved first, at once: sealing the focused field would blur it, and Textual would
            # pick a widget to focus next (restyling and repainting for it) before the body took it.
            self.set_focus(self.query_one("#question-body"), scroll_visible=False)
            # Sealed once the feedback is drawn: no key reaches the field, which has lost the focus,
            # and restyling it as disabled no longer delays the feedback (by some 3 ms).
            self.call_after_refresh(self._seal, self.answers().first())
            await show()
            self.call_after_refresh(feedback.scroll_visible, top=True, animate=False)
        finally:
            self.call_after_refresh(COLLECTOR.release)

    def _seal(self, answer: AnswerWidget) -> None:
        """Seal `answer`, unless another question has replaced it meanwhile."""
        if answer.is_attached:
            answer.seal()

    def action_scroll_question(self, pages: int) -> None:
        body = self.query_one("#question-body", ScrollBody)
        if pages < 0:
            body.scroll_page_up(animate=False)
        else:
            body.scroll_page_down(animate=False)
