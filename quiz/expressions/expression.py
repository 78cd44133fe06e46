"""Compiled expressions: parsed, checked and turned into closures once, then evaluated against any namespace."""

from collections.abc import Iterable, Mapping
from dataclasses import field

import numpy as np

from quiz.base.fieldwise import Fieldwise, record
from quiz.expressions.budget import Budget
from quiz.expressions.evaluate import Step, compile_steps, may_warn
from quiz.expressions.meter import SizeMeter
from quiz.expressions.syntax import ParsedSource, check, parse


@record
class Expression(Fieldwise):
    """A checked expression; `names` are the declared names it reads (for ordering and cycles)."""

    source: str
    names: frozenset[str]
    _parsed: ParsedSource = field(repr=False, compare=False)
    _step: Step = field(repr=False, compare=False)
    warns: bool = field(repr=False, compare=False)
    """Whether it may run numpy arithmetic, whose warnings evaluation silences."""

    def evaluate(self, namespace: Mapping[str, object], budget: Budget | None = None) -> object:
        """The expression's value with `namespace` supplying its names; raises only ExpressionError.

        `budget` is the variant's, shared by all its evaluations; without one, this evaluation
        gets a budget of its own. numpy's inf and nan pass through without warnings.
        """
        meter = SizeMeter(budget)
        with meter.budget.running():
            if not self.warns:  # no errstate to enter: bounds, answers and placeholders are often bare
                return self._step(namespace, meter)
            with np.errstate(all="ignore"):
                return self._step(namespace, meter)

    def evaluate_within(self, namespace: Mapping[str, object], budget: Budget) -> object:
        """Like `evaluate`, for a caller already inside `budget.running()` and, if the expression
        `warns`, inside `np.errstate(all="ignore")`: a template evaluating its placeholders."""
        return self._step(namespace, SizeMeter(budget))


def compile_expression(source: str, names: Iterable[str] = ()) -> Expression:
    """Parse `source` and check it against the allow-list, without running anything.

    `names` are the question's params and derived values; every other name must be an
    allowed function or constant (see ALLOWED_NAMES), or the error suggests the closest one.
    """
    parsed = parse(source)
    used = check(parsed, names)
    return Expression(source, used, parsed, compile_steps(parsed, used), may_warn(parsed))
