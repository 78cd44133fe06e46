"""A variant: one question's parameters drawn for one seed, and everything computed from them.

A variant keeps its drawn inputs as plain JSON-ready values, so history can store them and rebuild
the variant later without drawing again (and without depending on the generator never changing).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from typing import Any

from quiz.base.fieldwise import Fieldwise, record
from quiz.expressions import ExpressionError
from quiz.expressions.budget import Budget, BudgetExceeded
from quiz.format.compile import CompiledQuestion
from quiz.format.diagnostics import Location
from quiz.format.model import QuestionBase, Text
from quiz.locale.i18n import tr


class VariantError(Exception):
    """A variant could not be made: a broken expression, or constraints no draw satisfies.

    `field` names the field whose expression failed, `location` where the question stands in
    its pack, when known.
    """

    def __init__(
        self,
        question_id: str,
        message: str,
        field: str | None = None,
        *,
        location: Location | None = None,
        budget: str | None = None,
        mistaken: str | None = None,
    ) -> None:
        super().__init__(f"{question_id}: {message}")
        self.question_id = question_id
        self.message = message
        self.field = field
        """The field whose expression failed (`answer`, `derived.w`, `constraints[0]`), when one did."""
        self.location = location
        self.budget = budget
        """Which of the variant's budgets ran out ("time", "elements", "parameters"), if one did."""
        self.mistaken = mistaken
        """The misconception (or trivial answer, as `QuestionType.clashes` names it) that graded as
        right on every draw, when that is why no variant could be made."""

    @property
    def located(self) -> str:
        """The message with the question's file and line in front, as the command line prints it."""
        return f"{self.location}: {self}" if self.location is not None else str(self)


QUOTED_CHARS = 60
"""Longest value quoted in a VariantError message."""


def quoted(value: Any) -> str:
    """`repr(value)` (a string as it is) cut to a length a message can carry: a pack's value may be huge."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= QUOTED_CHARS else text[: QUOTED_CHARS - 1] + "…"


@record
class Variant(Fieldwise):
    """A question with its parameters drawn: inputs, computed values and the answer key."""

    compiled: CompiledQuestion
    seed: int
    inputs: dict[str, Any]
    """The drawn parameters as JSON-ready values (numbers, strings, nested lists)."""
    values: dict[str, Any] = field(repr=False)
    """Every name the question's expressions see: parameters and derived values."""
    answer: Any = None
    """The answer key: a float or float64 array (numeric), an option id (choice)."""
    misconceptions: dict[str, Any] = field(default_factory=dict, repr=False)
    """Each misconception's value for this variant, by name."""
    accepted: dict[str, Any] = field(default_factory=dict, repr=False)
    """Each other accepted convention's answer for this variant, by name (`also_accepted`)."""
    budget: Budget = field(default_factory=Budget, repr=False, compare=False)
    """What the variant may still spend: filling in its texts draws on what drawing left."""
    redrawn: tuple[str, ...] = field(default=(), repr=False, compare=False)
    """The misconceptions that graded as right on the draws rejected before this one, one per
    rejected draw (see `QuestionType.clashes`): `validate` says how often a question needs it."""
    shown: dict[tuple[str, object], str] = field(default_factory=dict, init=False, repr=False, compare=False)
    """Each placeholder's text once filled in, shared by every text and language (see `Template.render`)."""

    @property
    def question(self) -> QuestionBase:
        return self.compiled.question

    @property
    def key(self) -> str:
        """A short printable key that reproduces this variant: `id#seed`, or `id` when fixed."""
        return f"{self.question.id}#{self.seed}" if self.question.has_variants else self.question.id

    def text(self, text: Text | None, lang: str, format_value: Callable[[object], str] | None = None) -> str:
        """A text of the question in `lang`, with its `{{ expr }}` values filled in (shown by
        `format_value` when given, as a flashcard shows a matrix).

        A text that cannot be filled in (an error, too large, out of time) shows a located
        message in its place: the screen and the command line go on, and `validate` reports it.
        """
        try:
            return self.fill(text, lang, format_value)
        except VariantError as exc:
            where = text.location if text is not None and text.location is not None else self.question.source
            return tr("variant.text_failed", lang, where=str(where), reason=exc.message)

    def fill(self, text: Text | None, lang: str, format_value: Callable[[object], str] | None = None) -> str:
        """Like `text`, but a text that cannot be filled in raises VariantError (self-tests use it)."""
        if text is None:
            return ""
        template = self.compiled.template(text.get(lang))
        try:
            if format_value is None:
                return template.render(self.values, budget=self.budget, shown=self.shown)
            return template.render(self.values, format_value, budget=self.budget, shown=self.shown)
        except ExpressionError as exc:
            exhausted = exc.__cause__.budget if isinstance(exc.__cause__, BudgetExceeded) else None
            raise VariantError(self.question.id, exc.message, location=text.location or self.question.source, budget=exhausted) from None
