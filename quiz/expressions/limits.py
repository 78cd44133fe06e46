"""Caps on what one expression may be and create, so evaluation is small and quick by construction.

Every cap is checked before the value it bounds is allocated: operators and functions work out
their result shape (and their largest intermediate) from the shapes of their arguments first.
Values are then measured once more after each step, and all the values of one evaluation share
a budget, so neither many small results nor one big one can exhaust memory or time.
"""

import dataclasses
import math
from collections.abc import Iterable, Mapping

import numpy as np

MAX_SOURCE_CHARS = 2_000
"""Longest expression source, in characters."""

MAX_NODES = 1_000
"""Most syntax-tree nodes in one expression."""

MAX_DEPTH = 100
"""Deepest nesting of syntax-tree nodes, which bounds the evaluator's recursion."""

MAX_ELEMENTS = 2**20
"""Most elements in one array, list or tuple (nested lists count all their items)."""

MAX_TOTAL_ELEMENTS = 2**23
"""Most elements one evaluation may create in all: every step's result, plus what engine
functions allocate on the way to a small result (a variance from a large sample)."""

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


class SizeMeter:
    """Measures the values of one evaluation and charges them to a shared budget.

    Nested lists are measured by all their items (an empty one counts as one), engine
    records by all their fields. Sizes of containers already seen are remembered (the
    containers are kept alive with them, so their ids stay unique), which keeps measuring
    `[row] * 1000` as cheap as building it.
    """

    def __init__(self) -> None:
        self._known: dict[int, tuple[object, int]] = {}
        self._spent = 0

    def measure(self, value: object) -> int:
        """Elements in `value`, refusing values outside the caps and dtypes allowed."""
        if isinstance(value, (np.ndarray, np.generic)):
            if value.dtype.kind not in NUMERIC_KINDS:
                raise LimitExceeded(f"arrays of dtype {value.dtype} are not supported")
            return int(value.size)
        if isinstance(value, bool):
            return 1
        if isinstance(value, int):
            if value.bit_length() > MAX_INT_BITS:
                raise LimitExceeded(f"the integer exceeds the limit of {MAX_INT_BITS:,} bits")
            return 1
        if isinstance(value, complex):
            raise LimitExceeded("complex numbers are not supported")
        if isinstance(value, str):
            check_string_length(len(value))
            return max(1, len(value))
        if isinstance(value, (list, tuple)):
            return self._measure_container(value, value, capped=True)
        # Engine results (records such as AttentionTrace, dicts of evidence) weigh what they
        # hold; the engine made them after a preflight, so only the budget applies to them.
        if isinstance(value, Mapping):
            return self._measure_container(value, value.values(), capped=False)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            fields = [getattr(value, field.name) for field in dataclasses.fields(value)]
            return self._measure_container(value, fields, capped=False)
        return 1

    def charge(self, value: object) -> None:
        """Measure `value` and add it to this evaluation's budget."""
        self.spend(self.measure(value))

    def spend(self, count: int) -> None:
        """Add `count` elements (a value, or what a function allocates on the way) to the budget."""
        self._spent += count
        if self._spent > MAX_TOTAL_ELEMENTS:
            raise LimitExceeded(
                f"the evaluation would create more than {MAX_TOTAL_ELEMENTS:,} elements in all"
            )

    def remember(self, items: list[object] | tuple[object, ...] | str, size: int) -> None:
        """Record the size of a sequence built by repetition, which was checked before it existed."""
        if not isinstance(items, str):
            self._known[id(items)] = (items, max(size, 1))

    def _measure_container(self, container: object, items: Iterable[object], capped: bool) -> int:
        known = self._known.get(id(container))
        if known is not None:
            return known[1]
        total = 0
        for item in items:
            total += self.measure(item)
            if capped:
                check_elements(total, "list")
        # An empty list still counts, so a list of a million empty lists is a million elements.
        total = max(total, 1)
        self._known[id(container)] = (container, total)
        return total
