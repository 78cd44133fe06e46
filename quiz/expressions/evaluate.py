"""The tree-walking evaluator for checked expressions.

It only ever sees trees that `syntax.check` accepted, so it handles exactly the allowed
node types. Every step's result is measured and charged to the budget (one per variant, or
one per evaluation when none is given), the CPU-time budget is checked before every step,
and any failure becomes an ExpressionError naming the sub-expression that failed.
"""

import ast
from collections.abc import Mapping

import numpy as np

from quiz.expressions.attributes import read_attribute
from quiz.expressions.budget import Budget
from quiz.expressions.errors import ExpressionError
from quiz.expressions.functions import CONSTANTS, FUNCTIONS
from quiz.expressions.limits import LimitExceeded
from quiz.expressions.meter import SizeMeter
from quiz.expressions.operators import binary, compare, subscript, truth, unary
from quiz.expressions.syntax import ParsedSource

_REASON_CHARS = 200  # longest exception text quoted in a message


class Evaluator:
    """Evaluates one parsed expression against one namespace of params and derived values."""

    def __init__(
        self,
        parsed: ParsedSource,
        names: frozenset[str],
        namespace: Mapping[str, object],
        budget: Budget | None = None,
    ) -> None:
        self._parsed = parsed
        self._names = names
        self._namespace = namespace
        self._meter = SizeMeter(budget)
        self._budget = self._meter.budget

    def run(self) -> object:
        """The value of the expression; numpy's inf and nan pass through without warnings."""
        body = self._parsed.tree.body
        with self._budget.running():
            if type(body) in _BARE:  # no errstate to enter: bounds, answers and placeholders are often bare
                return self._visit(body)
            with np.errstate(all="ignore"):
                return self._visit(body)

    def _visit(self, node: ast.AST) -> object:
        try:
            self._budget.check_time()  # before every step: no step starts once time is up
            kind = type(node)
            value = _VISITORS[kind](self, node)
            if kind not in _UNCHARGED:
                self._meter.charge(value)
            return value
        except ExpressionError:
            raise
        except Exception as error:  # no other exception type may leave evaluate()
            raise self._parsed.error(self._describe(error, node), node) from error

    def _describe(self, error: Exception, node: ast.AST) -> str:
        if isinstance(error, LimitExceeded):
            reason = str(error)
        elif isinstance(error, ZeroDivisionError):
            reason = "division by zero"
        elif isinstance(error, OverflowError):
            reason = "a number is too large to represent"
        else:
            reason = str(error) or type(error).__name__
        if len(reason) > _REASON_CHARS:
            reason = reason[: _REASON_CHARS - 1] + "…"
        return f"cannot evaluate `{self._parsed.segment(node)}`: {reason}"

    def _visit_Constant(self, node: ast.Constant) -> object:
        return node.value

    def _visit_Name(self, node: ast.Name) -> object:
        if node.id not in self._names:
            return CONSTANTS[node.id]
        if node.id not in self._namespace:
            raise NameError(f"no value was given for `{node.id}`")
        return _read_only(self._namespace[node.id])

    def _visit_BinOp(self, node: ast.BinOp) -> object:
        left = self._visit(node.left)
        right = self._visit(node.right)
        return binary(type(node.op), left, right, self._meter)

    def _visit_UnaryOp(self, node: ast.UnaryOp) -> object:
        return unary(type(node.op), self._visit(node.operand))

    def _visit_BoolOp(self, node: ast.BoolOp) -> object:
        # Python's rule: `and` returns the first falsy value, `or` the first truthy one,
        # otherwise the last value; the rest are never evaluated.
        stop_when = not isinstance(node.op, ast.And)
        for value_node in node.values:
            value = self._visit(value_node)
            if truth(value) is stop_when:
                return value
        return value

    def _visit_Compare(self, node: ast.Compare) -> object:
        # `a < b < c` is `a < b and b < c`, with b evaluated once; only links before the
        # last are tested for truth, so a single array comparison returns its array.
        left = self._visit(node.left)
        links = list(zip(node.ops, node.comparators))
        for op, right_node in links[:-1]:
            right = self._visit(right_node)
            result = compare(type(op), left, right)
            if not truth(result):
                return result
            left = right
        op, right_node = links[-1]
        return compare(type(op), left, self._visit(right_node))

    def _visit_IfExp(self, node: ast.IfExp) -> object:
        return self._visit(node.body if truth(self._visit(node.test)) else node.orelse)

    def _visit_Call(self, node: ast.Call) -> object:
        assert isinstance(node.func, ast.Name)  # the syntax check allows calls of names only
        function = FUNCTIONS[node.func.id]
        args = [self._visit(argument) for argument in node.args]
        kwargs: dict[str, object] = {}
        for keyword in node.keywords:
            assert keyword.arg is not None  # and refuses ** unpacking
            kwargs[keyword.arg] = self._visit(keyword.value)
        return function(args, kwargs, self._meter)

    def _visit_Attribute(self, node: ast.Attribute) -> object:
        return read_attribute(self._visit(node.value), node.attr)

    def _visit_Subscript(self, node: ast.Subscript) -> object:
        value = self._visit(node.value)
        return subscript(value, self._index(node.slice))

    def _index(self, node: ast.AST) -> object:
        if isinstance(node, ast.Tuple):
            return tuple(self._index_part(element) for element in node.elts)
        return self._index_part(node)

    def _index_part(self, node: ast.AST) -> object:
        if isinstance(node, ast.Slice):
            parts = (node.lower, node.upper, node.step)
            return slice(*(None if part is None else self._visit(part) for part in parts))
        return self._visit(node)

    def _visit_Tuple(self, node: ast.Tuple) -> tuple[object, ...]:
        return tuple(self._visit(element) for element in node.elts)

    def _visit_List(self, node: ast.List) -> list[object]:
        return [self._visit(element) for element in node.elts]


_VISITORS = {
    getattr(ast, name[len("_visit_") :]): method for name, method in vars(Evaluator).items() if name.startswith("_visit_")
}
"""Each node type's visitor, looked up once: expressions are evaluated in inner loops."""
_UNCHARGED = frozenset({ast.Constant, ast.Name})
"""Nodes whose values exist already (literals, parameters): nothing new to charge for."""
_BARE = frozenset({ast.Constant, ast.Name})
"""Expressions that are a literal or a name alone compute nothing numpy could warn about."""


def _read_only(value: object) -> object:
    """A read-only view of a namespace array, so nothing downstream can write into shared params."""
    if isinstance(value, np.ndarray) and value.flags.writeable:
        value = value.view()
        value.flags.writeable = False
    return value
