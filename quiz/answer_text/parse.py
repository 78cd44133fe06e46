"""Reads a learner's typed answer into a number, vector or matrix of the shape a question expects."""

from __future__ import annotations

import re
from typing import Final

import numpy as np

from quiz.answer_text.expression import evaluate
from quiz.answer_text.layout import Cells, arrange
from quiz.answer_text.nesting import nest
from quiz.answer_text.normalise import Normalised, normalise
from quiz.answer_text.outcome import Invalid, Parsed, Rejected
from quiz.answer_text.shapes import as_sizes, check_shape, fit_shape
from quiz.answer_text.tokens import tokenise
from quiz.answer_text.wording import render_value

MAX_LENGTH: Final = 2_000
"""Longest answer read, in characters; it bounds the work done on any input."""

_DECIMAL_COMMA: Final = re.compile(r"[0-9],[0-9]")


def parse_answer(text: str, shape: tuple[int, ...], *, sizes: bool = False) -> Parsed | Invalid:
    """Read `text` as an answer of `shape`: `()` a number, `(n,)` a vector, `(r, c)` a matrix.

    Unreadable text or the wrong shape gives an `Invalid` (not an attempt); no text raises.
    A malformed `shape` is the question's mistake and raises ValueError. Accepted forms are
    described in `normalise`, `layout` and `expression`; in short: numbers, `3/4`, `sqrt(2)/2`,
    `e^2/(1+e^2)` (`log` is the natural logarithm), full-width input, vectors as `[1, 2]`,
    `1, 2` or `1 2`, matrices as `[[1, 2], [3, 4]]`, `[1 2; 3 4]` or rows on lines.
    A decimal comma is not supported: a comma separates elements. With `sizes` the answer is
    an array's shape, typed as people write shapes (see `as_sizes`): `7x18, 7x8`, `(7, 18), (7, 8)`.
    """
    expected = check_shape(shape)
    try:
        return _read(text, expected, sizes)
    except Rejected as rejection:
        return rejection.invalid


def _read(text: str, expected: tuple[int, ...], sizes: bool) -> Parsed:
    """The stages in order: normalise, tokenise, nest brackets, lay out, evaluate, fit the shape."""
    if len(text) > MAX_LENGTH:
        raise Rejected("parse.too_long", limit=MAX_LENGTH)
    source = as_sizes(normalise(text)) if sizes else normalise(text)
    cells = arrange(nest(tokenise(source, text)))
    value = _evaluate(cells, source.text)
    if expected == () and value.shape == (2,):
        _reject_decimal_comma(source)
    fitted = fit_shape(value, expected)
    if expected == ():
        return Parsed(float(fitted), render_value(float(fitted)))
    fitted.setflags(write=False)
    return Parsed(fitted, render_value(fitted))


def _evaluate(cells: Cells, source: str) -> np.ndarray:
    """The cells' values as a float64 array with `cells.ndim` dimensions."""
    values = [[evaluate(cell, source) for cell in row] for row in cells.rows]
    if cells.ndim == 0:
        return np.array(values[0][0], dtype=np.float64)
    if cells.ndim == 1:
        return np.array(values[0], dtype=np.float64)
    return np.array(values, dtype=np.float64)


def _reject_decimal_comma(source: Normalised) -> None:
    """Explain `0,5` given for a number: the comma made it two numbers."""
    match = _DECIMAL_COMMA.search(source.text)
    if match is not None:
        raise Rejected("parse.decimal_comma", source.columns[match.start() + 1])
