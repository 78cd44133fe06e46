"""The end of a round: how it went by topic, the questions missed, the mistakes made, and what to
do next (retry what was missed, review what is due, or go home)."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Header, OptionList, Static
from textual.widgets.option_list import Option

from quiz.bank import Bank, Selection
from quiz.format.model import Text
from quiz.locale.i18n import tr
from quiz.practice.summary import RoundSummary
from quiz.types.preview import one_line
from quiz.ui.messages import GoHome, ReviewDue, StartPractice
from quiz.ui.screens.base import QuizScreen
from quiz.ui.screens.home import review_entry
from quiz.ui.widgets.footer import KeyFooter


def mistake_label(label: Text | None, lang: str) -> str:
    """A named mistake as learners read it: its label on one line (never its internal name)."""
    return one_line(label, lang) if label is not None else tr("ui.mistake_unlabelled", lang)


class SummaryScreen(QuizScreen):
    """How a round went, and the next steps."""

    CSS_PATH = "history.tcss"  # read when the screen is first opened, not at start-up
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "go_home", "ui.key_home")]

    def __init__(self, summary: RoundSummary, bank: Bank, lang: str, due: int | None = None) -> None:
        super().__init__(lang)
        self.summary = summary
        self.bank = bank
        self.due = due
        """Questions due for review now (None without history)."""

    def compose(self) -> ComposeResult:
        summary, lang = self.summary, self.lang
        yield Header()
        with VerticalScroll(id="summary-body"):
            yield Static(self._headline(), id="summary-headline", markup=False)
            yield Static(tr("ui.summary_topics", lang), classes="section-title", markup=False)
            yield DataTable(id="summary-topics", cursor_type="none", zebra_stripes=True)
            if summary.missed:
                yield Static(tr("ui.summary_missed", lang), classes="section-title", markup=False)
                yield Static(self._missed(), id="summary-missed", markup=False)
            if summary.mistakes:
                yield Static(tr("ui.summary_mistakes", lang), classes="section-title", markup=False)
                yield Static(self._mistakes(), id="summary-mistakes", markup=False)
        yield OptionList(*self._next_steps(), id="next-steps")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = tr("ui.title", self.lang)
        self.sub_title = tr("ui.summary_title", self.lang)
        table = self.query_one("#summary-topics", DataTable)
        table.can_focus = False  # the next steps keep the keys; the body scrolls with the mouse
        table.add_column(tr("ui.filter_topic", self.lang), key="topic")
        table.add_column(tr("ui.summary_answered", self.lang), key="answered")
        table.add_column(tr("ui.summary_mean", self.lang), key="mean")
        topics = self.bank.claims.topics
        for score in self.summary.topics:
            name = topics[score.topic].label(self.lang) if score.topic in topics else score.topic
            table.add_row(name, f"{score.answered}/{score.shown}", f"{score.mean_score:.2f}" if score.answered else "–")
        steps = self.query_one("#next-steps", OptionList)
        steps.highlighted = 0
        steps.focus()

    def _headline(self) -> str:
        summary, lang = self.summary, self.lang
        headline = tr("ui.summary_headline", lang, answered=summary.answered, shown=summary.shown, mean=f"{summary.mean_score:.2f}")
        return headline + ("\n" + tr("ui.summary_perfect", lang) if summary.perfect else "")

    def _missed(self) -> str:
        questions = self.bank.questions
        return "\n".join(f"• {one_line(questions[qid].prompt, self.lang)}" for qid in self.summary.missed if qid in questions)

    def _mistakes(self) -> str:
        lines = []
        for mistake in self.summary.mistakes:
            label = mistake_label(mistake.label, self.lang)
            lines.append("• " + (label if mistake.count == 1 else tr("ui.times", self.lang, text=label, count=mistake.count)))
        return "\n".join(lines)

    def _next_steps(self) -> list[Option]:
        lang = self.lang
        steps = []
        if self.summary.missed:
            steps.append(Option(tr("ui.summary_retry", lang, count=len(self.summary.missed)), id="retry"))
        steps.append(Option(review_entry(self.due, lang), id="review"))
        steps.append(Option(tr("ui.summary_home", lang), id="home"))
        return steps

    @on(OptionList.OptionSelected, "#next-steps")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option.id == "retry":
            self.post_message(StartPractice(Selection(ids=self.summary.missed)))
        elif event.option.id == "review":
            self.post_message(ReviewDue())
        else:
            self.post_message(GoHome())
