"""Functions that write one number as text the way an author wants it shown: fixed decimals, or
thousands separators (templates otherwise show four significant figures, see quiz.base.numbers)."""

import math
import operator

from quiz.expressions.callables import Function
from quiz.expressions.shapes import numeric

MAX_DECIMALS = 12
"""More decimals than a float64 holds would only show its rounding."""


def _scalar(x: object, name: str) -> float | int:
    """`x` as one Python number; arrays of several values, NaN and infinities are refused."""
    array = numeric(x)
    if array.size != 1:
        raise ValueError(f"{name}() writes one number, not an array of shape {array.shape}; index it first, as in {name}(x[0])")
    item = array.reshape(()).item()
    value: float | int = int(item) if isinstance(item, (bool, int)) else float(item)
    if not math.isfinite(value):
        raise ValueError(f"{name}() writes finite numbers only, not {value}")
    return value


def _decimals(decimals: int) -> int:
    count = operator.index(decimals)  # a float raises TypeError, which the evaluator reports
    if not 0 <= count <= MAX_DECIMALS:
        raise ValueError(f"decimals must be from 0 to {MAX_DECIMALS}, not {count}")
    return count


def _fixed(x: object, decimals: int) -> str:
    """`x` with exactly `decimals` decimals, trailing zeros kept: fixed(3.2, 2) is "3.20"."""
    return f"{_scalar(x, 'fixed'):.{_decimals(decimals)}f}"


def _grouped(x: object, decimals: int = 0) -> str:
    """`x` with thousands separators and `decimals` decimals: grouped(1007000000) is "1,007,000,000".

    Whole numbers stay exact at any size (an int64 byte count is not rounded through a float).
    """
    value, count = _scalar(x, "grouped"), _decimals(decimals)
    if isinstance(value, int) and count == 0:
        return f"{value:,}"
    return f"{value:,.{count}f}"


TEXT_FUNCTIONS: dict[str, Function] = {
    name: Function(name, implementation) for name, implementation in (("fixed", _fixed), ("grouped", _grouped))
}
"""The text functions by the name expressions use."""

__all__ = ["TEXT_FUNCTIONS"]
