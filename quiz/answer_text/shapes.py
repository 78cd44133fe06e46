"""Fits the value a learner gave to the shape the question expects, where intent is clear."""

from __future__ import annotations

import math
import re
from numbers import Integral
from typing import Final

import numpy as np

from quiz.answer_text.normalise import Normalised
from quiz.answer_text.outcome import Rejected

# An x, X or * (× is normalised to *) between two numbers, spaces allowed around it: `7x18`, `7 × 18`.
_BY: Final = re.compile(r"(?<=[0-9])(\s*)[xX*](?=\s*[0-9])")
# Brackets group one shape's sizes and semicolons or new lines end one; a list of sizes needs neither.
_GROUPING: Final = str.maketrans("()[]", "    ", "") | str.maketrans(";\n", ",,")


def check_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
    """`shape` if it is `()`, `(n,)` or `(r, c)` with positive sizes; a question's own mistake raises."""
    if len(shape) > 2 or not all(isinstance(size, Integral) and size > 0 for size in shape):
        raise ValueError(f"an answer shape is (), (n,) or (rows, cols) with positive sizes, not {shape!r}")
    return tuple(int(size) for size in shape)


def fit_shape(value: np.ndarray, expected: tuple[int, ...]) -> np.ndarray:
    """`value` reshaped to `expected` when only the layout differs, else a wrong-shape rejection.

    Accepted: anything with one element for a one-element shape; a 1×n or n×1 matrix for a
    vector of n; a vector of n for a 1×n or n×1 matrix.
    """
    got = value.shape
    size = math.prod(expected)
    if got == expected:
        return value
    if value.size == 1 and size == 1:
        return value.reshape(expected)
    if len(expected) == 1 and len(got) == 2 and 1 in got and value.size == size:
        return value.reshape(expected)
    if len(expected) == 2 and len(got) == 1 and 1 in expected and value.size == size:
        return value.reshape(expected)
    raise Rejected("parse.wrong_shape", expected=expected, got=got)


def as_sizes(source: Normalised) -> Normalised:
    """`source` read as a list of array sizes, as people write shapes: `7x18, 7x8`, `7×18`,
    `(7, 18), (7, 8)` and `[7, 18]` all become a flat list of numbers.

    Each character keeps its place (one replaces one), so every column still points at what was typed.
    """
    text = _BY.sub(lambda match: match.group(1) + ",", source.text).translate(_GROUPING)
    return Normalised(text, source.columns)
