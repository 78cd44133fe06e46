"""Measuring the values an evaluation creates and charging them to the variant's budget."""

import dataclasses
import functools
from collections.abc import Iterable, Mapping

import numpy as np

from quiz.expressions.budget import Budget
from quiz.expressions.limits import (
    MAX_INT_BITS,
    NUMERIC_KINDS,
    LimitExceeded,
    check_elements,
    check_string_length,
)

_TIME_CHECK_EVERY = 4_096
"""Items measured between two checks of the time budget, inside a long list."""


_SINGLE = frozenset({float, bool, type(None), np.float64, np.float32, np.float16, np.int64, np.int32, np.bool_})
"""Types whose every value is one allowed element: measured without a further question."""


@functools.cache
def _field_names(record: type) -> tuple[str, ...]:
    """The fields of a dataclass type, in order (looked up once per type)."""
    return tuple(field.name for field in dataclasses.fields(record))


class SizeMeter:
    """Measures the values of one evaluation and charges them to a shared budget.

    Nested lists are measured by all their items (an empty one counts as one), engine
    records by all their fields. Sizes of containers already seen are remembered (the
    containers are kept alive with them, so their ids stay unique), which keeps measuring
    `[row] * 1000` as cheap as building it.
    """

    def __init__(self, budget: Budget | None = None) -> None:
        self.budget = budget if budget is not None else Budget()
        self._known: dict[int, tuple[object, int]] = {}
        self._measured = 0

    def measure(self, value: object) -> int:
        """Elements in `value`, refusing values outside the caps and dtypes allowed."""
        if isinstance(value, np.ndarray):
            if value.dtype.kind not in NUMERIC_KINDS:
                raise LimitExceeded(f"arrays of dtype {value.dtype} are not supported")
            return value.size
        if type(value) in _SINGLE:  # the most common values, answered by one lookup
            return 1
        if isinstance(value, np.generic):
            if value.dtype.kind not in NUMERIC_KINDS:
                raise LimitExceeded(f"arrays of dtype {value.dtype} are not supported")
            return 1
        if isinstance(value, (bool, float)):
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
            fields = [getattr(value, name) for name in _field_names(type(value))]
            return self._measure_container(value, fields, capped=False)
        return 1

    def charge(self, value: object) -> None:
        """Measure `value` and add it to the budget."""
        self.budget.spend(self.measure(value))

    def spend(self, count: int) -> None:
        """Add `count` elements (a value, or what a function allocates on the way) to the budget."""
        self.budget.spend(count)

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
            self._measured += 1
            if self._measured % _TIME_CHECK_EVERY == 0:  # a long list is a long operation
                self.budget.check_time()
        # An empty list still counts, so a list of a million empty lists is a million elements.
        total = max(total, 1)
        self._known[id(container)] = (container, total)
        return total
