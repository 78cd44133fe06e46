"""Checked expressions compiled once into nested closures, one per syntax-tree node.

The compiler only ever sees trees that `syntax.check` accepted, so it handles exactly the
allowed node types; the node's type is looked at once, when compiling, not on every
evaluation. Every step's result is measured and charged to the budget (one per variant, or
one per evaluation when none is given), the CPU-time budget is checked before every step,
and any failure becomes an ExpressionError naming the sub-expression that failed. Literals
and names are not steps: they compute nothing, so they are neither timed nor charged, except
when one is the whole expression (then it is timed like any step).
"""

import ast
from collections.abc import Callable, Mapping

import numpy as np

from quiz.expressions.attributes import read_attribute
from quiz.expressions.errors import ExpressionError
from quiz.expressions.functions import CONSTANTS, FUNCTIONS
from quiz.expressions.limits import LimitExceeded
from quiz.expressions.meter import SizeMeter
from quiz.expressions.operators import binary_operator, compare, subscript, truth, unary
from quiz.expressions.syntax import ParsedSource

Step = Callable[[Mapping[str, object], SizeMeter], object]
"""One compiled node: its value given the namespace and the evaluation's meter."""

_REASON_CHARS = 200  # longest exception text quoted in a message

_WARNING_NODES = (ast.BinOp, ast.UnaryOp, ast.Compare, ast.Call)
"""Nodes that may run numpy arithmetic; indexing, attributes and containers never warn."""


def compile_steps(parsed: ParsedSource, names: frozenset[str]) -> Step:
    """The whole expression as one step; `names` are the declared names it may read."""
    body = parsed.tree.body
    compiler = _Compiler(parsed, names)
    if isinstance(body, (ast.Constant, ast.Name)):
        return compiler.guarded(compiler.step(body), body, charged=False)
    return compiler.step(body)


def may_warn(parsed: ParsedSource) -> bool:
    """Whether evaluating `parsed` may run numpy arithmetic, whose warnings must be silenced."""
    return any(isinstance(node, _WARNING_NODES) for node in ast.walk(parsed.tree))


def _describe(parsed: ParsedSource, error: Exception, node: ast.AST) -> str:
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
    return f"cannot evaluate `{parsed.segment(node)}`: {reason}"


class _Compiler:
    """Turns each node of one parsed expression into a closure over its children's closures."""

    def __init__(self, parsed: ParsedSource, names: frozenset[str]) -> None:
        self.parsed = parsed
        self.names = names

    def step(self, node: ast.AST) -> Step:
        """The closure computing `node`; every node but a literal or a name is a guarded step."""
        if isinstance(node, ast.Constant):
            value = node.value
            return lambda namespace, meter: value
        if isinstance(node, ast.Name):
            return self._name(node)
        compute = getattr(self, f"_{type(node).__name__}")(node)
        return self.guarded(compute, node, charged=True)

    def guarded(self, compute: Step, node: ast.AST, charged: bool) -> Step:
        """`compute` preceded by a check of the time budget, its value charged to the budget,
        and any exception but an ExpressionError turned into one located at `node`."""
        parsed = self.parsed

        def failure(error: Exception) -> ExpressionError:
            return parsed.error(_describe(parsed, error, node), node)

        if not charged:

            def uncharged(namespace: Mapping[str, object], meter: SizeMeter) -> object:
                try:
                    meter.budget.check_time()
                    return compute(namespace, meter)
                except ExpressionError:
                    raise
                except Exception as error:  # no other exception type may leave evaluate()
                    raise failure(error) from error

            return uncharged

        def charged_step(namespace: Mapping[str, object], meter: SizeMeter) -> object:
            try:
                meter.budget.check_time()  # before every step: no step starts once time is up
                value = compute(namespace, meter)
                meter.charge(value)
                return value
            except ExpressionError:
                raise
            except Exception as error:  # no other exception type may leave evaluate()
                raise failure(error) from error

        return charged_step

    def _name(self, node: ast.Name) -> Step:
        name = node.id
        if name not in self.names:
            constant = CONSTANTS[name]
            return lambda namespace, meter: constant
        parsed = self.parsed

        def read(namespace: Mapping[str, object], meter: SizeMeter) -> object:
            try:
                value = namespace[name]
            except KeyError:
                error = NameError(f"no value was given for `{name}`")
                raise parsed.error(_describe(parsed, error, node), node) from error
            if isinstance(value, np.ndarray) and value.flags.writeable:
                # A read-only view, so nothing downstream can write into shared params.
                value = value.view()
                value.flags.writeable = False
            return value

        return read

    def _BinOp(self, node: ast.BinOp) -> Step:
        apply = binary_operator(type(node.op))
        left, right = self.step(node.left), self.step(node.right)
        return lambda namespace, meter: apply(left(namespace, meter), right(namespace, meter), meter)

    def _UnaryOp(self, node: ast.UnaryOp) -> Step:
        op, operand = type(node.op), self.step(node.operand)
        return lambda namespace, meter: unary(op, operand(namespace, meter))

    def _BoolOp(self, node: ast.BoolOp) -> Step:
        # Python's rule: `and` returns the first falsy value, `or` the first truthy one,
        # otherwise the last value; the rest are never evaluated.
        stop_when = not isinstance(node.op, ast.And)
        operands = [self.step(value) for value in node.values]

        def either(namespace: Mapping[str, object], meter: SizeMeter) -> object:
            for operand in operands:
                value = operand(namespace, meter)
                if truth(value) is stop_when:
                    return value
            return value

        return either

    def _Compare(self, node: ast.Compare) -> Step:
        # `a < b < c` is `a < b and b < c`, with b evaluated once; only links before the
        # last are tested for truth, so a single array comparison returns its array.
        first = self.step(node.left)
        *links, (last_op, last) = [(type(op), self.step(right)) for op, right in zip(node.ops, node.comparators)]

        def chain(namespace: Mapping[str, object], meter: SizeMeter) -> object:
            left = first(namespace, meter)
            for op, operand in links:
                right = operand(namespace, meter)
                result = compare(op, left, right)
                if not truth(result):
                    return result
                left = right
            return compare(last_op, left, last(namespace, meter))

        return chain

    def _IfExp(self, node: ast.IfExp) -> Step:
        test, body, orelse = self.step(node.test), self.step(node.body), self.step(node.orelse)
        return lambda namespace, meter: (body if truth(test(namespace, meter)) else orelse)(namespace, meter)

    def _Call(self, node: ast.Call) -> Step:
        assert isinstance(node.func, ast.Name)  # the syntax check allows calls of names only
        arguments = [self.step(argument) for argument in node.args]
        keywords: list[tuple[str, Step]] = []
        for keyword in node.keywords:
            assert keyword.arg is not None  # and refuses ** unpacking
            keywords.append((keyword.arg, self.step(keyword.value)))
        # A repeated keyword keeps its first place and its last value, as a dict does.
        call = FUNCTIONS[node.func.id].caller(len(arguments), tuple(dict.fromkeys(name for name, _ in keywords)))

        def apply(namespace: Mapping[str, object], meter: SizeMeter) -> object:
            args = [argument(namespace, meter) for argument in arguments]
            kwargs = {name: value(namespace, meter) for name, value in keywords}
            return call(args, kwargs, meter)

        def apply_positional(namespace: Mapping[str, object], meter: SizeMeter) -> object:
            return call([argument(namespace, meter) for argument in arguments], {}, meter)

        return apply if keywords else apply_positional

    def _Attribute(self, node: ast.Attribute) -> Step:
        value, name = self.step(node.value), node.attr
        return lambda namespace, meter: read_attribute(value(namespace, meter), name)

    def _Subscript(self, node: ast.Subscript) -> Step:
        value, index = self.step(node.value), self._index(node.slice)
        return lambda namespace, meter: subscript(value(namespace, meter), index(namespace, meter))

    def _index(self, node: ast.AST) -> Step:
        # An index tuple and its slices are not steps of their own; what they hold is.
        if isinstance(node, ast.Tuple):
            parts = [self._index_part(element) for element in node.elts]
            return lambda namespace, meter: tuple([part(namespace, meter) for part in parts])
        return self._index_part(node)

    def _index_part(self, node: ast.AST) -> Step:
        if not isinstance(node, ast.Slice):
            return self.step(node)
        if node.lower is None and node.upper is None and node.step is None:
            everything = slice(None)
            return lambda namespace, meter: everything
        bounds = [None if part is None else self.step(part) for part in (node.lower, node.upper, node.step)]
        return lambda namespace, meter: slice(*[None if bound is None else bound(namespace, meter) for bound in bounds])

    def _Tuple(self, node: ast.Tuple) -> Step:
        elements = [self.step(element) for element in node.elts]
        return lambda namespace, meter: tuple([element(namespace, meter) for element in elements])

    def _List(self, node: ast.List) -> Step:
        elements = [self.step(element) for element in node.elts]
        return lambda namespace, meter: [element(namespace, meter) for element in elements]
