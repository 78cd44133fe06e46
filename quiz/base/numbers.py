"""Numbers and arrays as text, for the values templates show in prompts and explanations."""

import math
from decimal import Decimal

import numpy as np

TYPED_DIGITS = 12
"""Figures a learner's answer is written back with: enough to tell answers apart, few enough to
hide float noise (0.1 + 0.2 is 0.3)."""

EXACT_INTEGER_DIGITS = 15
"""Whole numbers with up to this many digits are written in full: longer ones are unreadable."""


def format_number(x: float | int | np.number, digits: int = 4) -> str:
    """`x` to `digits` significant figures, trailing zeros dropped; the integer part is never rounded.

    The one way numbers are written, in prompts and feedback (4 figures) and when a learner's own
    answer is written back (`TYPED_DIGITS`). Whole numbers (int, numpy integers) are written in full
    up to 15 digits, so a byte count is exact. Other magnitudes below 1e-4, or from 1e6 up (10^digits
    for more than 6 figures), use scientific notation (`1.235e6`, `2e-5`); `-0` shows as `0`;
    infinities and NaN show as `inf`, `-inf` and `nan`.
    """
    if digits < 1:
        raise ValueError(f"digits must be at least 1, got {digits}")
    if type(x) is not float:
        if isinstance(x, (int, np.integer)):
            # Python ints may exceed a float's range, so they stay exact until they are scientific.
            x = int(x)
            return str(x) if abs(x) < 10 ** max(EXACT_INTEGER_DIGITS, digits) else _scientific(Decimal(x), digits)
        x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return "0"
    size = abs(x)
    if 1e-4 <= size < 10.0 ** max(6, digits):
        decimals = max(0, digits - 1 - math.floor(math.log10(size)))
        return _without_trailing_zeros(f"{x:.{decimals}f}")
    return _scientific(Decimal(x), digits)


def format_array_inline(values: object, digits: int = 4) -> str:
    """An array or nested list on one line, as nested brackets: `[[1, 2], [3, 4]]`."""
    array = np.asarray(values)
    if array.ndim == 0:
        return _format_scalar(array.item(), digits)
    return "[" + ", ".join(format_array_inline(row, digits) for row in array) + "]"


def format_value(value: object) -> str:
    """How a template shows a computed value.

    Strings as they are; numbers via `format_number`; bools and None by name; tuples such as
    shapes in parentheses; vectors inline; a matrix as an aligned, bracketed block between blank lines.
    Other values (engine records, dicts) raise TypeError: show one of their fields instead.
    """
    if isinstance(value, str):
        return value
    if value is None or isinstance(value, (bool, np.bool_)):
        return str(value)
    if isinstance(value, (int, float, np.number)):
        return format_number(value)
    if isinstance(value, tuple):
        inner = ", ".join(_format_inline_value(item) for item in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, (list, np.ndarray)):
        array = np.asarray(value)
        if array.dtype.kind not in "biuf":
            raise TypeError(f"cannot show values of dtype {array.dtype}")
        if array.ndim == 2 and array.size:
            return _matrix_block(array)
        return format_array_inline(array)
    raise TypeError(f"cannot show a {type(value).__name__} as text; show one of its fields")


def _format_inline_value(value: object) -> str:
    if isinstance(value, (list, np.ndarray)):
        return format_array_inline(value)
    return format_value(value)


def _format_scalar(value: float | int | np.number | np.bool_, digits: int) -> str:
    if isinstance(value, (bool, np.bool_)):
        return str(value)
    return format_number(value, digits)


def _matrix_block(matrix: np.ndarray) -> str:
    """A bracketed matrix with right-aligned columns, in a fenced block between blank lines.

    A fence keeps the columns aligned wherever Markdown is shown (the app, `quiz show`), and
    the tall brackets read as a matrix, as in a textbook.
    """
    cells = [[_format_scalar(value, 4) for value in row] for row in matrix.tolist()]
    width = max(len(cell) for row in cells for cell in row)
    rows = ["  ".join(cell.rjust(width) for cell in row) for row in cells]
    if len(rows) == 1:
        lines = [f"[ {rows[0]} ]"]
    else:
        left = ["⎡", *["⎢"] * (len(rows) - 2), "⎣"]
        right = ["⎤", *["⎥"] * (len(rows) - 2), "⎦"]
        lines = [f"{opening} {row} {closing}" for opening, row, closing in zip(left, rows, right)]
    return "\n\n```text\n" + "\n".join(lines) + "\n```\n\n"


def _scientific(x: Decimal, digits: int) -> str:
    mantissa, exponent = f"{x:.{digits - 1}e}".split("e")
    return f"{_without_trailing_zeros(mantissa)}e{int(exponent)}"


def _without_trailing_zeros(text: str) -> str:
    return text.rstrip("0").rstrip(".") if "." in text else text
