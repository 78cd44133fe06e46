"""The answer input of evidence questions: figures to ask for, each revealed on request, then the faults.

The figures are a list behind numbers: a figure's number, or Enter on the highlighted one, asks
for it, and its value appears below the list with what it cost. Tab moves to the faults, picked
by their letters as in a choice question; Enter there submits.
"""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from quiz.answer_text import Invalid
from quiz.locale.i18n import tr
from quiz.models.questions import EvidenceQuestion
from quiz.render.mathtext import markdown_to_plain
from quiz.types.evidence import EvidenceResponse, cost_text, shown_figure
from quiz.types.options import letter, shown
from quiz.ui.answer_widgets.base import plain
from quiz.ui.answer_widgets.lettered import CountedOptions, LetteredOptions, hanging
from quiz.ui.answer_widgets.pick_one import PickOneAnswer
from quiz.variants.variant import Variant

KEYED_FIGURES = 9
"""Figures asked for by a digit key (1–9); any further one by Enter on it."""


class FigureList(CountedOptions):
    """The figures behind their numbers; a number or Enter asks for one, marked ✓ once shown."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "ask", "ui.key_ask_figure", show=True)]

    class Asked(Message):
        """The learner asked for the figure at `index`."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, labels: list[Content], *, lang: str, id: str | None = None) -> None:
        self.labels = labels
        self.asked: set[int] = set()
        super().__init__(*(Option(self._prompt(n)) for n in range(len(labels))), lang=lang, id=id)

    def _prompt(self, index: int) -> Table:
        return hanging(f"{'✓' if index in self.asked else ' '} {index + 1}) ", self.labels[index])

    def on_key(self, event: events.Key) -> None:
        digit = event.character or ""
        if digit.isdigit() and 1 <= int(digit) <= min(KEYED_FIGURES, len(self.labels)) and not self.disabled:
            event.stop()
            event.prevent_default()
            self.highlighted = int(digit) - 1
            self._ask(self.highlighted)

    def action_ask(self) -> None:
        if self.highlighted is not None:
            self._ask(self.highlighted)

    @on(OptionList.OptionSelected)
    def _clicked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._ask(event.option_index)

    def mark_asked(self, index: int) -> None:
        self.asked.add(index)
        self.replace_option_prompt_at_index(index, self._prompt(index))

    def _ask(self, index: int) -> None:
        # Not on screen (a terminal too small shows a notice instead): a request must never be
        # spent on a value the candidate cannot see.
        if index not in self.asked and self.region.area > 0:
            self.post_message(self.Asked(index))


class EvidenceAnswer(PickOneAnswer):
    """Ask for figures one at a time (each shown as it is asked for), then pick the fault."""

    HELP = "ui.help_answer_evidence"

    def __init__(self, variant: Variant, lang: str) -> None:
        super().__init__(variant, lang)
        question = variant.question
        assert isinstance(question, EvidenceQuestion)
        self.question = question
        self.asked: list[str] = []

    def compose(self) -> ComposeResult:
        question = self.question
        yield Static(tr("ui.evidence_figures", self.lang), classes="evidence-heading")
        labels = [Content(f"{plain(self.variant, f.label, self.lang).plain} · {cost_text(question, f, self.lang)}") for f in question.figures]
        yield FigureList(labels, lang=self.lang, id="figures")
        yield Vertical(id="revealed")
        yield Static(tr("ui.evidence_name_fault", self.lang), classes="evidence-heading")
        yield LetteredOptions(
            [(letter(n), i, plain(self.variant, o.text, self.lang)) for n, (i, o) in enumerate(shown(self.variant))],
            lang=self.lang,
            id="choices",
        )

    @on(FigureList.Asked)
    def _asked(self, event: FigureList.Asked) -> None:
        event.stop()
        figure = self.question.figures[event.index]
        self.asked.append(figure.id)
        self.query_one(FigureList).mark_asked(event.index)
        value = markdown_to_plain(shown_figure(self.variant, figure.id, self.lang)).strip("\n")
        label = plain(self.variant, figure.label, self.lang).plain
        line = f"{len(self.asked)}. {label} ({cost_text(self.question, figure, self.lang)}):"
        self.query_one("#revealed", Vertical).mount(Static(Content(f"{line}\n{value}"), classes="evidence-value"))
        self.post_message(self.Changed())

    def input_widget(self) -> Widget:
        return self.query_one(FigureList)

    def response(self) -> EvidenceResponse | Invalid:
        picked = self.picked()
        return picked if isinstance(picked, Invalid) else EvidenceResponse(tuple(self.asked), picked)

    def seal(self) -> None:
        self.query_one(FigureList).disabled = True
        self.query_one(LetteredOptions).disabled = True
