"""The base of the answer inputs: each reads its own response; the screen grades it.

Messages up: a widget posts `AnswerWidget.Changed` whenever the learner edits the answer, and
`AnswerWidget.Submitted` when they ask to submit from inside it (Enter, in every kind of answer),
or when work started by `prepare()` is done. The screen then calls `response()`, which gives the
response the type's grader expects, or an `Invalid` saying why none can be read yet. Attributes
down: the screen focuses and seals it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widget import Widget

from quiz.answer_text import Invalid
from quiz.format.model import Text
from quiz.render.mathtext import markdown_to_plain
from quiz.variants.variant import Variant


def plain(variant: Variant, text: Text | None, lang: str) -> Content:
    """A question text for a one-line label: values filled in, maths in Unicode, no markup."""
    return Content(markdown_to_plain(variant.text(text, lang)).strip())


class AnswerWidget(Vertical):
    """Base of the answer inputs: knows its variant and language, reads a response."""

    DEFAULT_CLASSES = "answer"
    HELP: ClassVar[str] = ""
    """Catalogue key of the help screen's paragraph on how to give this kind of answer."""

    class Changed(Message):
        """The learner changed the answer (typed, picked, ticked or moved something)."""

    class Submitted(Message):
        """The learner asked to submit from inside the answer widget."""

    class Ran(Message):
        """A run after the graded answer (a code answer's checks, run again on the code as edited
        since): `title` and `text` for the question's body to show; nothing is graded or recorded."""

        def __init__(self, title: str, text: str) -> None:
            super().__init__()
            self.title = title
            self.text = text

    def __init__(self, variant: Variant, lang: str) -> None:
        super().__init__()
        self.variant = variant
        self.lang = lang

    def footer_omits(self, narrow: bool) -> frozenset[str]:
        """The question screen's actions to leave out of the footer with this answer in front of the
        learner: on a narrow terminal, Ctrl+S, since Enter submits (the help says so)."""
        return frozenset({"submit"}) if narrow else frozenset()

    def prepare(self) -> bool:
        """Start work the response needs before it can be read; True while it runs.

        Most inputs read their response at once (False). One that grades off the event loop (a
        code answer runs in a worker) returns True and posts `Submitted` when it is ready.
        """
        return False

    def response(self) -> Any | Invalid:
        raise NotImplementedError

    @property
    def runs_again(self) -> bool:
        """Whether, once graded, `prepare` runs the answer again and posts `Ran` (a code answer does)."""
        return False

    def untouched(self) -> bool:
        """True while the learner has done nothing to a picked answer: when time runs out it is then
        no answer, not the empty pick (which a multi question reads as "none of them")."""
        return False

    def typed(self) -> str | None:
        """The answer as the learner typed it, for history; None where they picked rather than typed."""
        return None

    def input_widget(self) -> Widget | None:
        """The widget that takes the learner's keys, focused when the question opens."""
        return None

    def seal(self) -> None:
        """After grading: nothing more can be changed."""
        control = self.input_widget()
        if control is not None:
            control.disabled = True
