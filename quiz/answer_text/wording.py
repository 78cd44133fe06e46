"""How numbers, shapes and stray characters are written back to the learner."""

from __future__ import annotations

import numpy as np

from quiz.base.numbers import TYPED_DIGITS, format_number
from quiz.locale.i18n import DEFAULT_LANGUAGE, tr


def describe_shape(shape: tuple[int, ...], lang: str = DEFAULT_LANGUAGE) -> str:
    """`()` as "a number", `(3,)` as "a vector of 3 numbers", `(2, 3)` as "a 2×3 matrix" (or Japanese)."""
    if len(shape) == 0:
        return tr("parse.shape_scalar", lang)
    if len(shape) == 1:
        (n,) = shape
        return tr("parse.shape_vector_one", lang) if n == 1 else tr("parse.shape_vector", lang, n=n)
    rows, cols = shape
    return tr("parse.shape_matrix", lang, rows=rows, cols=cols)


def render_value(value: float | np.ndarray) -> str:
    """A scalar, vector or matrix written the way a learner could type it back: `2`, `0.5`,
    `-0.707106781187`, `1e-5`, `[1, -2]`."""
    if isinstance(value, np.ndarray) and value.ndim > 0:
        return "[" + ", ".join(render_value(part) for part in value) + "]"
    return format_number(float(value), TYPED_DIGITS)


def visible(text: str) -> str:
    """`text` itself when it shows on screen, else its first code point as `U+200F`."""
    if text.isprintable() and not text.isspace():
        return text
    return f"U+{ord(text[0]):04X}"
