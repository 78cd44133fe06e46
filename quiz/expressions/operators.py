"""Operators and indexing, each preceded by a check of the size of what it will build."""

import ast
import functools
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from quiz.expressions.limits import check_elements, check_int_power, check_string_length
from quiz.expressions.meter import SizeMeter
from quiz.expressions.shapes import check_broadcast, check_index, check_matmul, numeric, shape_of

_BINARY: dict[type, Callable[[object, object], object]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
"""Operators with no check of their own but numpy's broadcast (`*`, `@` and `**` have theirs)."""

# The operands are whatever the expression computed: a pair Python cannot combine raises TypeError,
# which the evaluator reports as the expression's error.
_COMPARE: dict[type, Callable[[Any, Any], object]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}

_UNARY: dict[type, Callable[[Any], object]] = {
    ast.UAdd: operator.pos,
    ast.USub: operator.neg,
}

# `&`, `|` and `~` combine masks. On Python ints they are bitwise (`~True` is -2), so they take
# booleans and boolean arrays only, and give booleans.
_LOGICAL: dict[type, tuple[str, np.ufunc, str]] = {
    ast.BitAnd: ("&", np.logical_and, "and"),
    ast.BitOr: ("|", np.logical_or, "or"),
}

_SEQUENCES = (list, tuple, str)
_INTEGERS = (int, np.integer)


BinaryOperator = Callable[[object, object, SizeMeter], object]
"""`left op right` for one operator, refused first if the result would be too large."""


def binary_operator(op: type[ast.operator]) -> BinaryOperator:
    """The checked function of an allowed operator, chosen once when an expression is compiled."""
    if op is ast.MatMult:
        return _matmul
    if op is ast.Pow:
        return _checked_power
    if op is ast.Mult:
        return _multiply
    if op in _LOGICAL:
        return functools.partial(_logical, op)
    return functools.partial(_elementwise, _BINARY[op], op is ast.Add, op is ast.Mod)


def _matmul(left: object, right: object, meter: SizeMeter) -> object:
    check_matmul(shape_of(left), shape_of(right))
    return operator.matmul(left, right)


def _checked_power(left: object, right: object, meter: SizeMeter) -> object:
    if _is_numpy(left) or _is_numpy(right):
        check_broadcast(left, right)
    return _power(left, right)


def _multiply(left: object, right: object, meter: SizeMeter) -> object:
    repeated_size = _check_repetition(left, right, meter)
    if _is_numpy(left) or _is_numpy(right):
        check_broadcast(left, right)
    result = operator.mul(left, right)
    if repeated_size is not None and isinstance(result, _SEQUENCES):
        # Saves walking a million-item list just built from a one-item list.
        meter.remember(result, repeated_size)
    return result


def _elementwise(
    apply: Callable[[object, object], object], add: bool, mod: bool, left: object, right: object, meter: SizeMeter
) -> object:
    if add and isinstance(left, _SEQUENCES) and isinstance(right, _SEQUENCES):
        check_elements(meter.measure(left) + meter.measure(right), "concatenation")
    elif mod and isinstance(left, str):
        raise TypeError("`%` formatting of strings is not allowed")
    if _is_numpy(left) or _is_numpy(right):
        check_broadcast(left, right)
    return apply(left, right)


def _logical(op: type[ast.operator], left: object, right: object, meter: SizeMeter) -> object:
    symbol, combine, word = _LOGICAL[op]
    if not (_is_boolean(left) and _is_boolean(right)):
        raise TypeError(
            f"`{symbol}` combines booleans or boolean arrays (masks) elementwise, not {_kind(left)} and {_kind(right)}; "
            f"compare first, as in `(i >= j) {symbol} (j > 0)`, or use `{word}` for one true-or-false value"
        )
    check_broadcast(left, right)
    return _boolean_result(combine(left, right))


def _invert(operand: object) -> object:
    if not _is_boolean(operand):
        raise TypeError(f"`~` negates a boolean or a boolean array (a mask) elementwise, not {_kind(operand)}; use `not` for one true-or-false value")
    return _boolean_result(np.logical_not(numeric(operand)))


def _is_boolean(value: object) -> bool:
    return isinstance(value, (bool, np.bool_)) or (isinstance(value, np.ndarray) and value.dtype.kind == "b")


def _boolean_result(value: object) -> object:
    # Two plain booleans stay a plain boolean, as `and` would give; arrays stay arrays.
    return bool(value) if isinstance(value, np.bool_) else value


def _kind(value: object) -> str:
    if isinstance(value, np.ndarray):
        return f"an array of {value.dtype}"
    return f"a value of type {type(value).__name__}"


def compare(op: type[ast.cmpop], left: object, right: object) -> object:
    """`left op right` for an allowed comparison, with numpy's broadcast checked first."""
    if _is_numpy(left) or _is_numpy(right):
        check_broadcast(left, right)
    return _COMPARE[op](left, right)


def unary(op: type[ast.unaryop], operand: object) -> object:
    """`+x`, `-x`, `not x` or `~mask`; none of them grows its operand."""
    if op is ast.Not:
        return not truth(operand)
    if op is ast.Invert:
        return _invert(operand)
    return _UNARY[op](operand)


def truth(value: object) -> bool:
    """Python's truth of `value`, with advice an author can follow when it is an array."""
    if isinstance(value, np.ndarray) and value.size != 1:
        raise ValueError(
            "an array of several elements is neither true nor false; "
            "reduce it first with all(...) or any(...)"
        )
    return bool(value)


def subscript(value: Any, index: object) -> object:
    """`value[index]`; for arrays, index lists become arrays and the result size is checked.

    `value` is whatever the expression computed; one that cannot be indexed raises TypeError.
    """
    if isinstance(value, (np.ndarray, np.generic)) and not _only_narrows(index):
        index = _array_index(index)
        check_index(np.shape(value), index)
    return value[index]


def _only_narrows(index: object) -> bool:
    """Integers and slices (`p[i - 1]`, `S[:, 0]`) select from an array, never enlarge it."""
    parts = index if isinstance(index, tuple) else (index,)
    return all(isinstance(part, (slice, int, np.integer)) and not isinstance(part, bool) for part in parts)


def _is_numpy(value: object) -> bool:
    return isinstance(value, (np.ndarray, np.generic))


def _check_repetition(left: object, right: object, meter: SizeMeter) -> int | None:
    """The size of `sequence * n` (either order, even when n is a numpy integer), refused if too big."""
    for sequence, count in ((left, right), (right, left)):
        if isinstance(sequence, _SEQUENCES) and isinstance(count, _INTEGERS):
            times = max(int(count), 0)
            if isinstance(sequence, str):
                check_string_length(len(sequence) * times)
            size = meter.measure(sequence) * times
            check_elements(size, "repeated sequence")
            return size
    return None


def _power(base: object, exponent: object) -> object:
    if isinstance(base, int) and isinstance(exponent, int):
        check_int_power(base, exponent)
        return base**exponent
    # Python floats raise OverflowError themselves; make numpy do the same instead of giving inf.
    with np.errstate(over="raise"):
        return operator.pow(base, exponent)


def _array_index(index: object) -> object:
    """An index with its lists turned into integer or boolean arrays, so its size can be worked out."""
    if isinstance(index, tuple):
        return tuple(_index_part(part) for part in index)
    return _index_part(index)


def _index_part(part: object) -> object:
    if isinstance(part, (list, tuple, np.ndarray)):
        array = numeric(part)
        if array.dtype.kind not in "biu":
            raise IndexError(f"index arrays must hold integers or booleans, not {array.dtype}")
        return array
    return part
