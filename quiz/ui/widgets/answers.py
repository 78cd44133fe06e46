"""One answer input per question type. Each reads its own response; the screen grades it.

Messages up: a widget posts `AnswerWidget.Submitted` when the learner asks to submit from
inside it (Enter in a numeric field). The screen then calls `response()`, which gives the
response the core's `grade` expects, or an `Invalid` saying why none can be read yet.
"""

from __future__ import annotations

from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Input, Label, ListItem, ListView, OptionList, SelectionList, Static
from textual.widgets.option_list import Option
from textual.widgets.selection_list import Selection

from quiz.answers import Invalid, describe_shape, parse_answer
from quiz.format.model import (
    ChoiceQuestion,
    ExplainQuestion,
    MultiQuestion,
    NumericQuestion,
    OrderQuestion,
    TrueFalseQuestion,
    option_ids,
)
from quiz.i18n import tr
from quiz.render.mathtext import markdown_to_plain
from quiz.render.present import letter
from quiz.ui.translate import with_group_title
from quiz.ui.widgets.maths import MathMarkdown
from quiz.variants import Variant, display_order


def plain(variant: Variant, text: Any, lang: str) -> Content:
    """A question text for a one-line label: values filled in, maths in Unicode, no markup."""
    return Content(markdown_to_plain(variant.text(text, lang)).strip())


class AnswerWidget(Vertical):
    """Base of the answer inputs: knows its variant and language, reads a response."""

    DEFAULT_CLASSES = "answer"

    class Submitted(Message):
        """The learner asked to submit from inside the answer widget."""

    def __init__(self, variant: Variant, lang: str) -> None:
        super().__init__()
        self.variant = variant
        self.lang = lang

    def on_key(self) -> None:
        # A question opens at its prompt, so on a short terminal its answer may be out of view:
        # a key reaching the answer (an arrow in a list) shows it, then acts as usual.
        self.scroll_visible(animate=False)

    def response(self) -> Any | Invalid:
        raise NotImplementedError

    def seal(self) -> None:
        """After grading: nothing more can be changed."""
        for child in self.query("Input, OptionList, ListView"):
            child.disabled = True


class NumericAnswer(AnswerWidget):
    """A text field for a number, vector or matrix, with a live "read as" preview."""

    def compose(self) -> ComposeResult:
        shape = getattr(self.variant.answer, "shape", ())
        field = Input(placeholder=tr("ui.type_answer", self.lang, what=describe_shape(shape, self.lang)), id="answer-input")
        yield with_group_title(field, self.lang)
        yield Static(tr("ui.read_as_empty", self.lang), id="preview", markup=False)

    @property
    def _shape(self) -> tuple[int, ...]:
        return getattr(self.variant.answer, "shape", ())

    @on(Input.Changed, "#answer-input")
    def _preview(self, event: Input.Changed) -> None:
        preview = self.query_one("#preview", Static)
        self.scroll_visible(animate=False)  # the field takes typed keys itself: they never reach on_key
        if not event.value.strip():
            preview.update(tr("ui.read_as_empty", self.lang))
            preview.set_class(False, "invalid")
            return
        parsed = parse_answer(event.value, self._shape)
        if isinstance(parsed, Invalid):
            preview.update(parsed.message(self.lang))
        else:
            preview.update(tr("ui.read_as", self.lang, value=parsed.display))
        preview.set_class(isinstance(parsed, Invalid), "invalid")

    @on(Input.Submitted, "#answer-input")
    def _submit(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Submitted())

    def response(self) -> Any | Invalid:
        parsed = parse_answer(self.query_one("#answer-input", Input).value, self._shape)
        return parsed if isinstance(parsed, Invalid) else parsed.value


class SingleChoice(OptionList):
    """Options that wrap (radio buttons cannot): Enter or space marks one with ◉."""

    BINDINGS = [Binding("space", "select", show=False)]

    def __init__(self, labels: list[tuple[str, Content]], *, id: str | None = None) -> None:
        self.labels = labels
        self.chosen: str | None = None
        super().__init__(*(Option(self._prompt(key, label), id=key) for key, label in labels), id=id)

    def _prompt(self, key: str, label: Content) -> Content:
        return Content("◉ " if key == self.chosen else "○ ") + label

    @on(OptionList.OptionSelected)
    def _mark(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.chosen = event.option.id
        for index, (key, label) in enumerate(self.labels):
            self.replace_option_prompt_at_index(index, self._prompt(key, label))


class ChoiceAnswer(AnswerWidget):
    """Pick one option (marked ◉)."""

    def compose(self) -> ComposeResult:
        question = self.variant.question
        ids = option_ids(question.options)
        yield SingleChoice(
            [(i, Content(f"{letter(n)}) ") + plain(self.variant, o.text, self.lang)) for n, (i, o) in enumerate(zip(ids, question.options))],
            id="choices",
        )

    def response(self) -> Any | Invalid:
        chosen = self.query_one(SingleChoice).chosen
        return Invalid("ui.pick_one") if chosen is None else chosen


class TrueFalseAnswer(AnswerWidget):
    """True or false."""

    def compose(self) -> ComposeResult:
        yield SingleChoice([("true", Content(tr("show.true", self.lang))), ("false", Content(tr("show.false", self.lang)))], id="truefalse")

    def response(self) -> Any | Invalid:
        chosen = self.query_one(SingleChoice).chosen
        return Invalid("ui.pick_one") if chosen is None else chosen == "true"


class MultiAnswer(AnswerWidget):
    """Checkboxes: pick every correct option."""

    def compose(self) -> ComposeResult:
        question = self.variant.question
        ids = option_ids(question.options)
        yield SelectionList[str](
            *(Selection(Content(f"{letter(n)}) ") + plain(self.variant, o.text, self.lang), i) for n, (i, o) in enumerate(zip(ids, question.options))),
            id="options",
        )

    def response(self) -> Any | Invalid:
        return frozenset(self.query_one(SelectionList).selected)


class OrderAnswer(AnswerWidget):
    """A list put in order with the keyboard: ctrl+↑/↓ (or shift+↑/↓) move the highlighted item."""

    BINDINGS = [
        Binding("ctrl+up,shift+up", "move(-1)", "ui.key_move_up"),
        Binding("ctrl+down,shift+down", "move(1)", "ui.key_move_down"),
    ]

    def __init__(self, variant: Variant, lang: str) -> None:
        super().__init__(variant, lang)

    def compose(self) -> ComposeResult:
        question = self.variant.question
        self._order = display_order(self.variant, len(question.items))
        yield ListView(*self._items(), id="order")

    def _items(self) -> list[ListItem]:
        items = self.variant.question.items
        return [ListItem(Label(Content(f"{n}. ") + plain(self.variant, items[i], self.lang))) for n, i in enumerate(self._order, 1)]

    async def action_move(self, step: int) -> None:
        view = self.query_one(ListView)
        index = view.index
        if index is None or view.disabled or not 0 <= index + step < len(self._order):
            return
        self._order[index], self._order[index + step] = self._order[index + step], self._order[index]
        await view.clear()
        await view.extend(self._items())
        view.index = index + step

    def response(self) -> Any | Invalid:
        return tuple(self._order)


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


def answer_widget(variant: Variant, lang: str) -> AnswerWidget:
    """The input that fits the variant's question type."""
    question = variant.question
    kinds: list[tuple[type, type[AnswerWidget]]] = [
        (NumericQuestion, NumericAnswer),
        (ChoiceQuestion, ChoiceAnswer),
        (MultiQuestion, MultiAnswer),
        (OrderQuestion, OrderAnswer),
        (TrueFalseQuestion, TrueFalseAnswer),
        (ExplainQuestion, ExplainAnswer),
    ]
    for model, widget in kinds:
        if isinstance(question, model):
            return widget(variant, lang)
    raise TypeError(f"no answer widget for {type(question).__name__}")
