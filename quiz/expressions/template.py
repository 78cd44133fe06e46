"""Text with `{{ expr }}` placeholders, each evaluated by the restricted evaluator.

Only `{{` opens a placeholder, so LaTeX braces such as `$\\frac{1}{\\sqrt{d_k}}$` pass
through untouched, and so does a lone `}}`. Where three or more braces open in a row, the
last two open the placeholder and the others are text: `x^{{{ n }}}` is `x^{` + n + `}`.
A literal `{{` is written as a placeholder holding that string: `{{ "{{" }}`.
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from quiz.expressions.errors import ExpressionError
from quiz.expressions.expression import Expression, compile_expression
from quiz.expressions.limits import MAX_SHOWN_ELEMENTS, SizeMeter
from quiz.render.numbers import format_value

OPEN, CLOSE = "{{", "}}"


@dataclass(frozen=True)
class _Placeholder:
    expression: Expression
    offset: int  # where the expression's text starts in the template


@dataclass(frozen=True)
class Template:
    """Compiled template text: literal pieces and checked placeholders, in order."""

    text: str
    _parts: tuple[str | _Placeholder, ...]

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
    ) -> str:
        """The text with each placeholder replaced by its formatted value."""
        pieces = []
        for part in self._parts:
            if isinstance(part, str):
                pieces.append(part)
                continue
            try:
                value = part.expression.evaluate(namespace)
            except ExpressionError as error:
                raise _rebased(error, self.text, part.offset) from None
            pieces.append(self._shown(value, part, format_value))
        return "".join(pieces)

    def _shown(self, value: object, part: _Placeholder, format_value: Callable[[object], str]) -> str:
        try:
            if SizeMeter().measure(value) > MAX_SHOWN_ELEMENTS:
                raise ValueError(f"more than {MAX_SHOWN_ELEMENTS:,} elements are too many to show")
            return format_value(value)
        except (TypeError, ValueError) as error:
            message = f"cannot show `{part.expression.source.strip()}`: {error}"
            raise ExpressionError(message, self.text, part.offset + 1) from None


def compile_template(text: str, names: Iterable[str] = ()) -> Template:
    """Split `text` on `{{ ... }}` and compile every placeholder; nothing is evaluated.

    A literal `{{` is written `{{ "{{" }}`; every other brace is plain text.
    """
    names = frozenset(names)
    parts: list[str | _Placeholder] = []
    position = 0
    while (start := text.find(OPEN, position)) >= 0:
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
