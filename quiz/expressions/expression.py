"""Compiled expressions: parsed and checked once, then evaluated against any namespace."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from quiz.expressions.budget import Budget
from quiz.expressions.evaluate import Evaluator
from quiz.expressions.syntax import ParsedSource, check, parse


@dataclass(frozen=True)
class Expression:
    """A checked expression; `names` are the declared names it reads (for ordering and cycles)."""

    source: str
    names: frozenset[str]
    _parsed: ParsedSource = field(repr=False, compare=False)

    def evaluate(self, namespace: Mapping[str, object], budget: Budget | None = None) -> object:
        """The expression's value with `namespace` supplying its names; raises only ExpressionError.

        `budget` is the variant's, shared by all its evaluations; without one, this evaluation
        gets a budget of its own.
        """
        return Evaluator(self._parsed, self.names, namespace, budget).run()


def compile_expression(source: str, names: Iterable[str] = ()) -> Expression:
    """Parse `source` and check it against the allow-list, without running anything.

    `names` are the question's params and derived values; every other name must be an
    allowed function or constant (see ALLOWED_NAMES), or the error suggests the closest one.
    """
    parsed = parse(source)
    return Expression(source, check(parsed, names), parsed)
