"""The answer input of explain questions: answer aloud, reveal the model answer, tick the points made."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.widgets import SelectionList, Static
from textual.widgets.selection_list import Selection

from quiz.answers import Invalid
from quiz.i18n import tr
from quiz.ui.answers.base import AnswerWidget, plain
from quiz.ui.widgets.maths import MathMarkdown


class ExplainAnswer(AnswerWidget):
    """Answer aloud, reveal the model answer, then tick the rubric points you made."""

    revealed = False

    def compose(self) -> ComposeResult:
        yield Static(tr("ui.explain_first", self.lang), id="explain-help")

    async def reveal(self) -> None:
        """Show the model answer and the rubric to tick (F4)."""
        if self.revealed:
            return
        self.revealed = True
        question = self.variant.question
        model = MathMarkdown(id="model-answer")
        rubric = SelectionList[int](
            *(Selection(plain(self.variant, point, self.lang), n) for n, point in enumerate(question.rubric)),
            id="rubric",
        )
        await self.mount_all([model, rubric])
        await model.update(self.variant.text(question.model_answer, self.lang))  # parsed off the loop
        # The model answer is read first, from its first line; the rubric below has the focus and
        # comes into view when a point is ticked.
        rubric.focus(scroll_visible=False)
        self.call_after_refresh(model.scroll_visible, top=True, animate=False)

    @on(SelectionList.SelectionToggled, "#rubric")
    def _show_rubric(self) -> None:
        self.query_one("#rubric").scroll_visible(animate=False)

    def response(self) -> Any | Invalid:
        if not self.revealed:
            return Invalid("ui.reveal_first")
        return frozenset(self.query_one("#rubric", SelectionList).selected)
