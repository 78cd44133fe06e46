"""Text with `{{ expr }}` placeholders, each evaluated by the restricted evaluator.

Only `{{` opens a placeholder, so LaTeX braces such as `$\\frac{1}{\\sqrt{d_k}}$` pass
through untouched, and so does a lone `}}`. Where three or more braces open in a row, the
last two open the placeholder and the others are text: `x^{{{ n }}}` is `x^{` + n + `}`.
A literal `{{` is written as a placeholder holding that string: `{{ "{{" }}`.
"""

import contextlib
import functools
from collections.abc import Callable, Iterable, Mapping

import numpy as np

from quiz.base.fieldwise import Fieldwise, record
from quiz.base.numbers import format_value
from quiz.expressions.budget import Budget
from quiz.expressions.errors import ExpressionError
from quiz.expressions.expression import Expression, compile_expression
from quiz.expressions.limits import MAX_SHOWN_ELEMENTS
from quiz.expressions.meter import SizeMeter

OPEN, CLOSE = "{{", "}}"
MAX_PLACEHOLDERS = 100
"""Most `{{ }}` placeholders in one text."""
MAX_RENDERED_CHARS = 50_000
"""Longest text once its values are filled in, in characters."""


@record
class _Placeholder(Fieldwise):
    expression: Expression
    offset: int  # where the expression's text starts in the template


@record
class Template(Fieldwise):
    """Compiled template text: literal pieces and checked placeholders, in order."""

    text: str
    _parts: tuple[str | _Placeholder, ...]

    @functools.cached_property
    def _warns(self) -> bool:
        """Whether any placeholder may run numpy arithmetic, whose warnings rendering silences."""
        return any(expression.warns for expression in self.expressions)

    @functools.cached_property
    def _plain(self) -> bool:
        """Whether the text has no placeholder and is short enough to show as written (most feedback)."""
        return not any(isinstance(part, _Placeholder) for part in self._parts) and len(self.text) <= MAX_RENDERED_CHARS

    @property
    def expressions(self) -> tuple[Expression, ...]:
        """The placeholders' expressions, in order."""
        return tuple(part.expression for part in self._parts if isinstance(part, _Placeholder))

    @property
    def names(self) -> frozenset[str]:
        """Declared names any placeholder reads."""
        return frozenset().union(*(expression.names for expression in self.expressions))

    def render(
        self,
        namespace: Mapping[str, object],
        format_value: Callable[[object], str] = format_value,
        budget: Budget | None = None,
        shown: dict[tuple[str, object], str] | None = None,
    ) -> str:
        """The text with each placeholder replaced by its formatted value.

        Evaluating and formatting count against `budget` (the variant's), and the filled-in
        text may be at most MAX_RENDERED_CHARS long. `shown` keeps each placeholder's text by
        its source and `format_value` across the renders of one namespace (a question's texts
        in each language repeat the same values), so each is computed once.
        """
        if self._plain:
            return self.text
        if shown is not None:
            known = self._known(shown, format_value)
            if known is not None:
                return known
        budget = budget if budget is not None else Budget()
        pieces = []
        length = 0
        # One errstate for the whole text, not one per placeholder.
        with budget.running(), (np.errstate(all="ignore") if self._warns else contextlib.nullcontext()):
            for part in self._parts:
                if isinstance(part, str):
                    piece = part
                elif shown is not None and (part.expression.source, format_value) in shown:
                    piece = shown[part.expression.source, format_value]
                else:
                    try:
                        value = part.expression.evaluate_within(namespace, budget)
                    except ExpressionError as error:
                        # The step's own error stays the cause: callers tell a budget running out.
                        raise _rebased(error, self.text, part.offset) from error.__cause__
                    piece = self._shown(value, part, format_value)
                    if shown is not None:
                        shown[part.expression.source, format_value] = piece
                length += len(piece)
                if length > MAX_RENDERED_CHARS:
                    where = part.offset + 1 if isinstance(part, _Placeholder) else None
                    raise ExpressionError(
                        f"the filled-in text would be longer than {MAX_RENDERED_CHARS:,} characters", self.text, where
                    )
                pieces.append(piece)
        return "".join(pieces)

    def _known(self, shown: dict[tuple[str, object], str], format_value: Callable[[object], str]) -> str | None:
        """The text when `shown` holds every placeholder's piece and it is short enough, else None:
        a text in the other language, or a repeat, then needs no evaluation, errstate nor clock."""
        pieces = []
        for part in self._parts:
            piece = part if isinstance(part, str) else shown.get((part.expression.source, format_value))
            if piece is None:
                return None
            pieces.append(piece)
        text = "".join(pieces)
        return text if len(text) <= MAX_RENDERED_CHARS else None

    def _shown(self, value: object, part: _Placeholder, format_value: Callable[[object], str]) -> str:
        try:
            if _elements(value) > MAX_SHOWN_ELEMENTS:
                raise ValueError(f"more than {MAX_SHOWN_ELEMENTS:,} elements are too many to show")
            return format_value(value)
        except (TypeError, ValueError) as error:
            message = f"cannot show `{part.expression.source.strip()}`: {error}"
            raise ExpressionError(message, self.text, part.offset + 1) from None


def _elements(value: object) -> int:
    """How many elements `value` holds, as SizeMeter counts them."""
    return SizeMeter().measure(value)


def compile_template(text: str, names: Iterable[str] = ()) -> Template:
    """Split `text` on `{{ ... }}` and compile every placeholder; nothing is evaluated.

    A literal `{{` is written `{{ "{{" }}`; every other brace is plain text.
    """
    names = frozenset(names)
    parts: list[str | _Placeholder] = []
    position = 0
    placeholders = 0
    while (start := text.find(OPEN, position)) >= 0:
        placeholders += 1
        if placeholders > MAX_PLACEHOLDERS:
            raise ExpressionError(f"a text may hold at most {MAX_PLACEHOLDERS} placeholders", text, start + 1)
        while text.startswith("{", start + len(OPEN)):
            start += 1
        end = text.find(CLOSE, start + len(OPEN))
        if end < 0:
            raise ExpressionError("`{{` is never closed by `}}`", text, start + 1)
        if start > position:
            parts.append(text[position:start])
        offset = start + len(OPEN)
        try:
            expression = compile_expression(text[offset:end], names)
        except ExpressionError as error:
            raise _rebased(error, text, offset) from None
        parts.append(_Placeholder(expression, offset))
        position = end + len(CLOSE)
    if position < len(text):
        parts.append(text[position:])
    return Template(text, tuple(parts))


def _rebased(error: ExpressionError, text: str, offset: int) -> ExpressionError:
    """`error` from a placeholder's expression, pointing into the whole template instead."""
    return ExpressionError(error.message, text, offset + (error.column or 1))
