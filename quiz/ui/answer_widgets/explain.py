"""The answer input of explain questions: answer aloud, then tick the checklist points you made.

Before the model answer is shown (F4, which the screen places with the question), this says
what to do; after, it holds the checklist: a letter or Space ticks a point, Enter submits.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Static

from quiz.answer_text import Invalid
from quiz.locale.i18n import tr
from quiz.types.explain import TYPE as EXPLAIN
from quiz.types.options import letter
from quiz.ui.answer_widgets.base import plain
from quiz.ui.answer_widgets.checklist import ChecklistAnswer
from quiz.ui.answer_widgets.lettered import LetteredChecklist
from quiz.variants.variant import Variant


class ExplainAnswer(ChecklistAnswer):
    """Answer aloud, then tick the rubric points you made."""

    HELP = "ui.help_answer_explain"

    def __init__(self, variant: Variant, lang: str) -> None:
        super().__init__(variant, lang)
        self.revealed = False

    def compose(self) -> ComposeResult:
        yield Static(tr("ui.explain_first", self.lang), id="explain-help", markup=False)

    async def reveal(self) -> None:
        """Replace the instructions with the checklist to tick, and focus it."""
        if self.revealed:
            return
        self.revealed = True
        rubric = LetteredChecklist(
            [(letter(n), str(n), plain(self.variant, point, self.lang)) for n, point in enumerate(EXPLAIN.question_of(self.variant).rubric)],
            lang=self.lang,
            id="rubric",
        )
        await self.query_one("#explain-help").remove()
        await self.mount(rubric)
        rubric.focus(scroll_visible=False)

    def response(self) -> frozenset[int] | Invalid:
        if not self.revealed:
            return Invalid("ui.reveal_first")
        return frozenset(int(point) for point in self.ticked())
