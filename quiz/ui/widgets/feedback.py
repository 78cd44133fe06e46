"""What the learner sees after answering: verdict, score, mistake named, answer and worked solution."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text as RichText
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Label, Static

from quiz.grading.result import Result, Verdict
from quiz.locale.i18n import tr
from quiz.types.present import answer_line, feedback_parts, worked_words
from quiz.ui.widgets.explanation import ParsedExplanation, explanation_widget, parse_explanation
from quiz.ui.widgets.heatmap import Heatmap
from quiz.ui.widgets.tensor import TensorView
from quiz.variants.variant import Variant
from quiz.variants.worked import WorkedTensor, WorkedValues, worked_values


def worked_parts(tensors: list[WorkedTensor], variant: Variant, lang: str) -> list[Widget]:
    """Each tensor under its label in words: weights as a heatmap, other values as numbers."""
    parts: list[Widget] = []
    for tensor in tensors:
        parts.append(Static(RichText(worked_words(variant, tensor, lang), style="bold"), classes="tensor-name"))
        if tensor.is_weights and tensor.value.ndim:
            parts.append(Heatmap(tensor.value, lang, tensor.allowed, classes="heatmap"))
        else:
            parts.append(TensorView(tensor.value, lang, classes="tensor"))
    return parts


@dataclass(frozen=True, eq=False)
class FeedbackBasis:
    """What a variant's feedback shows whatever the answer: the answer key, the explanation parsed
    and the worked values. The question screen prepares it while the learner reads the question,
    so that the way from Enter to the feedback does not wait on it (about 4 ms of 70)."""

    variant: Variant
    lang: str
    answer: str
    explanation: ParsedExplanation | None
    worked: WorkedValues

    @classmethod
    def of(cls, variant: Variant, lang: str) -> FeedbackBasis:
        explanation = variant.question.explanation
        parsed = None if explanation is None else parse_explanation(variant.text(explanation, lang))
        return cls(variant, lang, answer_line(variant, lang), parsed, worked_values(variant))

    def serves(self, variant: Variant, lang: str) -> bool:
        """Whether this was prepared for `variant` in `lang`."""
        return self.variant is variant and self.lang == lang


class FeedbackView(Vertical):
    """The feedback for one graded attempt (or one given up).

    Built without a result, it is the answer-independent part only (answer key, explanation,
    worked values), mounted hidden while the learner reads the question; `show_result` then adds
    the verdict and what is said of the answer, and shows it: on the way from Enter to the
    feedback only those few widgets are built and styled."""

    def __init__(self, variant: Variant, result: Result | None, response: Any, lang: str, basis: FeedbackBasis | None = None) -> None:
        """`basis`, if prepared for this variant and language, is used instead of working it out again."""
        super().__init__(id="feedback")
        self.variant = variant
        self.result = result
        self.response = response
        self.lang = lang
        self.basis = basis if basis is not None and basis.serves(variant, lang) else FeedbackBasis.of(variant, lang)
        self.worked = self.basis.worked
        self.more_shown = False
        self.display = result is not None

    @classmethod
    def prepared(cls, basis: FeedbackBasis) -> FeedbackView:
        """The hidden feedback of `basis`'s variant, waiting for `show_result`."""
        return cls(basis.variant, None, None, basis.lang, basis)

    @property
    def waiting(self) -> bool:
        """Prepared and hidden, with no result yet."""
        return self.result is None

    def compose(self) -> ComposeResult:
        if self.result is not None:
            yield from self._result_parts(self.result)
        yield Static(Content(self.basis.answer), id="answer-key")
        if self.basis.explanation is not None:
            yield Static(tr("show.explanation", self.lang), classes="section-title", markup=False)
            yield explanation_widget(self.basis.explanation, id="explanation")
        worked = Vertical(id="worked")
        worked.display = self.result is not None  # prepared: shown a frame after the rest (`show_result`)
        yield worked

    def _result_parts(self, result: Result) -> list[Widget]:
        """The verdict and score, then what is said of this answer."""
        variant, lang = self.variant, self.lang
        headline = tr(f"grade.{result.verdict}", lang)
        if result.verdict is not Verdict.REVEALED:
            headline += " · " + tr("grade.score", lang, score=f"{result.score:.2f}")
        # The verdict's colour is its own class: one on the whole panel would restyle all of it.
        parts: list[Widget] = [Label(Content(headline), id="verdict", classes=f"verdict-{result.verdict}")]
        # Short texts as plain Static (maths already in Unicode): a Markdown widget per line of
        # feedback would make the panel slow to appear; only the explanation needs Markdown.
        for part, text in feedback_parts(variant, result, self.response, lang):
            if part == "feedback":
                parts.append(Static(Content(text), classes="option-feedback"))
            else:
                parts.append(Static(Content(indented(text)), id=part))
        return parts

    async def show_result(self, result: Result, response: Any) -> None:
        """Complete a prepared view with `result` for `response`, and show it; its worked values
        (tensors and heatmaps, more widgets to lay out) show a frame later."""
        self.result, self.response = result, response
        await self.mount_all(self._result_parts(result), before=0)
        self.display = True
        self.call_after_refresh(self._show_worked)

    def _worked_area(self) -> Widget | None:
        """The worked values' container; None once the view is being removed (the learner went on
        before the frame that was to fill or show it, say F5 right after Enter)."""
        found = self.query("#worked")
        return found.first() if found else None

    def _show_worked(self) -> None:
        worked = self._worked_area()
        if worked is None:
            return
        worked.display = True
        # The panel grew: its verdict opens at the top of the view again, as far as it can scroll.
        self.call_after_refresh(self.scroll_visible, top=True, animate=False)

    def on_mount(self) -> None:
        # Shown at once, the verdict, the answer and the explanation show first; the worked values
        # follow a frame later. Prepared, they are mounted hidden while the question is read.
        self.call_after_refresh(self._mount_worked_values)

    @property
    def has_more(self) -> bool:
        """Worked values are folded away, waiting for `show_more`."""
        return bool(self.worked.more) and not self.more_shown

    async def _mount_worked_values(self) -> None:
        worked = self._worked_area()
        if worked is None:
            return
        variant, lang = self.variant, self.lang
        parts: list[Widget] = []
        if self.worked.featured:
            parts.append(Static(tr("ui.worked_values", lang), classes="section-title", markup=False))
            parts.extend(worked_parts(self.worked.featured, variant, lang))
        if self.worked.more:
            parts.append(Static(tr("ui.more_worked_folded", lang, count=len(self.worked.more)), id="more-worked-note", markup=False))
        await worked.mount_all(parts)
        if worked.display:
            # The panel grew: its verdict opens at the top of the view again, as far as it can scroll.
            self.call_after_refresh(self.scroll_visible, top=True, animate=False)

    async def show_more(self) -> None:
        """Unfold the remaining worked values and bring their start into view."""
        if not self.has_more:
            return
        self.more_shown = True
        await self.query_one("#more-worked-note").remove()
        title = Static(tr("ui.more_worked", self.lang), classes="section-title", markup=False)
        await self.query_one("#worked").mount_all([title, *worked_parts(self.worked.more, self.variant, self.lang)])
        self.call_after_refresh(title.scroll_visible, top=True, animate=False)


def indented(text: str) -> str:
    """`text` with each line's leading spaces made non-breaking: wrapping drops ordinary ones, and a
    code answer's checklist indents each check's evidence under it."""
    return "\n".join("\u00a0" * (len(line) - len(line.lstrip(" "))) + line.lstrip(" ") for line in text.split("\n"))
