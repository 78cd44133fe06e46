"""A variant: one question's parameters drawn for one seed, and everything computed from them.

A variant keeps its drawn inputs as plain JSON-ready values, so history can store them and rebuild
the variant later without drawing again (and without depending on the generator never changing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from quiz.expressions import ExpressionError
from quiz.format.compile import CompiledQuestion
from quiz.format.model import QuestionBase, Text


class VariantError(Exception):
    """A variant could not be made: a broken expression, or constraints no draw satisfies."""

    def __init__(self, question_id: str, message: str, field: str | None = None) -> None:
        super().__init__(f"{question_id}: {message}")
        self.question_id = question_id
        self.message = message
        self.field = field
        """The field whose expression failed (`answer`, `derived.w`, `constraints[0]`), when one did."""


@dataclass(frozen=True)
class Variant:
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

    @property
    def question(self) -> QuestionBase:
        return self.compiled.question

    @property
    def key(self) -> str:
        """A short printable key that reproduces this variant: `id#seed`, or `id` when fixed."""
        return f"{self.question.id}#{self.seed}" if self.question.has_variants else self.question.id

    def text(self, text: Text | None, lang: str) -> str:
        """A text of the question in `lang`, with its `{{ expr }}` values filled in."""
        if text is None:
            return ""
        source = text.get(lang)
        try:
            return self.compiled.template(source).render(self.values)
        except ExpressionError as exc:
            raise VariantError(self.question.id, f"a text could not be filled in: {exc.message}") from None
