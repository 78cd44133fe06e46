"""Scalars of a question file, which arrive as text, converted by their field's type.

`1e-3` becomes a number in a number field, `yes` a boolean only in a boolean field, `010` is ten
in an integer field, and `1:30` is never 90. A converter never raises for bad data: it reports
a Diagnostic and returns INVALID, so one run lists all the problems of a file.
"""

from __future__ import annotations

import math
import re
from typing import Final

from quiz.format.diagnostics import Report
from quiz.format.marks import Where
from quiz.format.yaml_data import Refused, YamlList, YamlMap

INVALID: Final = object()
"""What a converter returns after reporting a problem."""

INT_PATTERN: Final = re.compile(r"[+-]?[0-9]+")
FLOAT_PATTERN: Final = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
MAX_INT_DIGITS: Final = 15
"""Most digits of a whole number in a number field (difficulty, time, decimals, ...)."""
MAX_FLOAT_CHARS: Final = 40
"""Longest number in a decimal field, in characters: enough for any float's shortest repr."""
_TRUE: Final = frozenset({"true", "yes", "on"})
_FALSE: Final = frozenset({"false", "no", "off"})


def describe(value: object) -> str:
    """How a wrong value is named in messages: its kind and, for a short scalar, the value."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, Refused):
        return "a refused value"
    if isinstance(value, YamlMap):
        return "a mapping"
    if isinstance(value, YamlList):
        return "a list"
    text = str(value)
    return f"'{text}'" if len(text) <= 40 else f"'{text[:37]}...'"


def expected(where: Where, report: Report, what: str, value: object) -> object:
    report.error(where.location(), f"{where.field}: expected {what}, got {describe(value)}")
    return INVALID


def to_str(value: object, where: Where, report: Report) -> object:
    if isinstance(value, str):
        return str(value)
    return expected(where, report, "text", value)


def to_bool(value: object, where: Where, report: Report) -> object:
    if isinstance(value, str):
        word = value.lower()
        if word in _TRUE:
            return True
        if word in _FALSE:
            return False
    return expected(where, report, "true or false", value)


def to_int(value: object, where: Where, report: Report) -> object:
    # Decimal only: `010` is ten (not YAML 1.1's octal eight) and `1:30` is an error, never 90.
    if not isinstance(value, str) or not INT_PATTERN.fullmatch(value.strip()):
        return expected(where, report, "a whole number", value)
    if len(value.strip().lstrip("+-")) > MAX_INT_DIGITS:  # checked before int() does the work
        report.error(where.location(), f"{where.field}: a whole number here has at most {MAX_INT_DIGITS} digits")
        return INVALID
    return int(value)


def to_float(value: object, where: Where, report: Report) -> object:
    if not isinstance(value, str) or not FLOAT_PATTERN.fullmatch(value.strip()):
        return expected(where, report, "a number", value)
    if len(value.strip()) > MAX_FLOAT_CHARS:
        report.error(where.location(), f"{where.field}: a number here is written with at most {MAX_FLOAT_CHARS} characters")
        return INVALID
    number = float(value)
    if not math.isfinite(number):
        report.error(where.location(), f"{where.field}: {describe(value)} is too large to be a number")
        return INVALID
    return number + 0.0  # -0 is 0: numpy refuses a std of -0.0 as negative
