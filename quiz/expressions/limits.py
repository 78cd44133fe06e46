"""Caps on what one expression may be and create, so evaluation is small and quick by construction.

Every cap is checked before the value it bounds is allocated: operators and functions work out
their result shape (and their largest intermediate) from the shapes of their arguments first.
Values are then measured once more after each step and charged to a budget (see `budget`) that
all the evaluations of one variant share, so neither many small results nor one big one can
exhaust memory or time.
"""

import math
from collections.abc import Iterable

MAX_SOURCE_CHARS = 2_000
"""Longest expression source, in characters."""

MAX_NODES = 1_000
"""Most syntax-tree nodes in one expression."""

MAX_DEPTH = 100
"""Deepest nesting of syntax-tree nodes, which bounds the evaluator's recursion."""

MAX_ELEMENTS = 2**20
"""Most elements in one array, list or tuple (nested lists count all their items)."""

MAX_PRODUCT_TERMS = 2**24
"""Most multiply-adds in one matrix product (`@`, matmul, dot, attention)."""

MAX_STRING = 10_000
"""Longest string an expression may create, in characters."""

MAX_INT_BITS = 4_096
"""Largest Python integer an expression may create, in bits."""

MAX_SHOWN_ELEMENTS = 4_096
"""Most elements a template may show as text."""

NUMERIC_KINDS = frozenset("biuf")
"""numpy dtype kinds an expression may hold: bool, signed and unsigned int, float."""


class LimitExceeded(ValueError):
    """A value would exceed one of the caps above."""


def check_elements(count: int, what: str = "result") -> None:
    """Refuse a `what` of `count` elements before it is allocated."""
    if count > MAX_ELEMENTS:
        raise LimitExceeded(
            f"the {what} would have {count:,} elements; the limit is {MAX_ELEMENTS:,}"
        )


def check_shape(shape: Iterable[int], what: str = "result") -> None:
    """Refuse an array of `shape` before it is allocated."""
    check_elements(math.prod(shape), what)


def check_terms(count: int) -> None:
    """Refuse a matrix product of `count` multiply-adds before it runs."""
    if count > MAX_PRODUCT_TERMS:
        raise LimitExceeded(
            f"the product would take {count:,} multiply-adds; the limit is {MAX_PRODUCT_TERMS:,}"
        )


def check_string_length(length: int) -> None:
    """Refuse a string of `length` characters before it is built."""
    if length > MAX_STRING:
        raise LimitExceeded(
            f"the string would have {length:,} characters; the limit is {MAX_STRING:,}"
        )


def check_int_power(base: int, exponent: int) -> None:
    """Refuse `base ** exponent` on Python integers whose result would exceed MAX_INT_BITS."""
    if exponent <= 0 or abs(base) <= 1:
        return
    # |base| >= 2, so the result has at least `exponent` bits: test that first, so the
    # estimate below never multiplies a huge exponent.
    if exponent > MAX_INT_BITS or exponent * math.log2(abs(base)) > MAX_INT_BITS:
        raise LimitExceeded(f"the power would exceed the limit of {MAX_INT_BITS:,} bits")
