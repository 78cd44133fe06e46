"""What the learner sees after answering: verdict, score, mistake named, answer and worked solution."""

from __future__ import annotations

from typing import Any

import numpy as np
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Label, Static

from quiz.formatting import format_number, format_value
from quiz.grading import Result, Verdict
from quiz.i18n import tr
from quiz.present import answer_text
from quiz.ui.widgets.heatmap import Heatmap
from quiz.ui.widgets.maths import MathMarkdown
from quiz.variants import Variant
from quiz.worked import worked_tensors


def marked_answer(response: Any, marks: np.ndarray) -> str:
    """The learner's vector or matrix with ✓ or ✗ after each element."""
    values = np.asarray(response, dtype=np.float64)

    def cell(value: float, ok: bool) -> str:
        return f"{format_number(value)} {'✓' if ok else '✗'}"

    if values.ndim == 1:
        return "[" + ", ".join(cell(v, m) for v, m in zip(values, marks)) + "]"
    return "[" + ", ".join("[" + ", ".join(cell(v, m) for v, m in zip(row, mrow)) + "]" for row, mrow in zip(values, marks)) + "]"


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
        if result.penalty:
            yield Static(tr("grade.hint_penalty", lang, hints=result.hints_used, penalty=f"{result.penalty:.0%}"), markup=False)
        if result.marks is not None and result.verdict is not Verdict.REVEALED:
            yield Static(tr("ui.your_answer", lang, answer=marked_answer(self.response, result.marks)), id="marks", markup=False)
        if result.misconception:
            yield Static(tr("grade.misconception", lang, name=result.misconception), id="misconception", markup=False)
        for feedback in result.feedback:
            yield MathMarkdown(variant.text(feedback, lang), classes="option-feedback")
        yield MathMarkdown(tr("grade.answer_key", lang, answer=answer_text(variant, lang)), id="answer-key")
        if variant.question.explanation is not None:
            yield Static(tr("show.explanation", lang), classes="section-title", markup=False)
            yield MathMarkdown(variant.text(variant.question.explanation, lang), id="explanation")
        tensors = worked_tensors(variant)
        if tensors:
            yield Static(tr("ui.worked_values", lang), classes="section-title", markup=False)
        for tensor in tensors:
            yield Static(Content(tensor.name), classes="tensor-name")
            if tensor.is_weights:
                yield Heatmap(tensor.value, classes="heatmap")
            else:
                yield MathMarkdown(format_value(tensor.value), classes="tensor")
