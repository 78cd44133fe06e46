"""What the learner sees after answering: verdict, score, mistake named, answer and worked solution."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Label, Static

from quiz.grading.result import Result, Verdict
from quiz.render.numbers import format_value
from quiz.i18n import tr
from quiz.render.mathtext import markdown_to_plain
from quiz.render.present import answer_line, feedback_parts
from quiz.ui.widgets.heatmap import Heatmap
from quiz.ui.widgets.maths import MathMarkdown
from quiz.variants.variant import Variant
from quiz.variants.worked import worked_tensors


class FeedbackView(Vertical):
    """The feedback for one graded attempt (or one given up)."""

    def __init__(self, variant: Variant, result: Result, response: Any, lang: str) -> None:
        super().__init__(id="feedback", classes=f"verdict-{result.verdict}")
        self.variant = variant
        self.result = result
        self.response = response
        self.lang = lang

    def compose(self) -> ComposeResult:
        variant, result, lang = self.variant, self.result, self.lang
        headline = tr(f"grade.{result.verdict}", lang)
        if result.verdict is not Verdict.REVEALED:
            headline += " · " + tr("grade.score", lang, score=f"{result.score:.2f}")
        yield Label(Content(headline), id="verdict")
        # Short texts as plain Static (maths already in Unicode): a Markdown widget per line of
        # feedback would make the panel slow to appear; only the explanation needs Markdown.
        for part, text in feedback_parts(variant, result, self.response, lang):
            if part == "feedback":
                yield Static(Content(text), classes="option-feedback")
            else:
                yield Static(Content(text), id=part)
        yield Static(Content(answer_line(variant, lang)), id="answer-key")
        yield Vertical(id="worked")

    def on_mount(self) -> None:
        # The verdict and the answer show at once; the worked solution (Markdown, tensors and
        # heatmaps, the slow part to lay out) follows a frame later.
        self.call_after_refresh(self._show_worked_solution)

    def on_resize(self) -> None:
        # Start at the top of the view, verdict first, and stay there while the worked solution
        # arrives and its Markdown is laid out: each step makes the panel taller.
        self.scroll_visible(top=True, animate=False)

    async def _show_worked_solution(self) -> None:
        variant, lang = self.variant, self.lang
        parts: list[Widget] = []
        if variant.question.explanation is not None:
            parts.append(Static(tr("show.explanation", lang), classes="section-title", markup=False))
            parts.append(MathMarkdown(variant.text(variant.question.explanation, lang), id="explanation"))
        tensors = worked_tensors(variant)
        if tensors:
            parts.append(Static(tr("ui.worked_values", lang), classes="section-title", markup=False))
        for tensor in tensors:
            parts.append(Static(Content(tensor.name), classes="tensor-name"))
            if tensor.is_weights:
                parts.append(Heatmap(tensor.value, classes="heatmap"))
            else:
                parts.append(Static(Content(markdown_to_plain(format_value(tensor.value))), classes="tensor"))
        await self.query_one("#worked").mount_all(parts)
