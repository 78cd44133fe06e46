"""The tolerance rule: |a − b| ≤ atol + rtol·|b|, element by element."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
from numpy.typing import ArrayLike

from quiz.format.model import Tolerance

# Floating-point slack on the tolerance, so an answer exactly on the boundary (0.13 for a key of
# 0.125 with two decimals) is not failed by the last bit of binary rounding.
_SLACK: Final = 1e-9
_WIDEN: Final = 1 + _SLACK


def within(value: ArrayLike, key: ArrayLike, tolerance: Tolerance) -> np.ndarray:
    """Element-wise: is |value − key| ≤ atol + rtol·|key|? (widened by decimals/sigfigs)."""
    if isinstance(value, float) and isinstance(key, float):
        # Two numbers (a number question's key and answer): no arrays (self-tests grade ~50k times).
        return np.bool_(_number_within(float(value), float(key), tolerance.effective_atol, tolerance.effective_rtol))
    given, right = np.asarray(value, dtype=np.float64), np.asarray(key, dtype=np.float64)
    allowed = tolerance.effective_atol + tolerance.effective_rtol * np.abs(right)
    with np.errstate(invalid="ignore"):
        return np.abs(given - right) <= allowed * _WIDEN


def near_numbers(value: float, others: Sequence[float], tolerance: Tolerance) -> list[bool]:
    """For each of `others`: is `value` within tolerance of it, or it within tolerance of `value`
    (the rule is not symmetric)? As `within` says for each pair, the tolerance read once."""
    atol, rtol = tolerance.effective_atol, tolerance.effective_rtol
    return [_number_within(value, other, atol, rtol) or _number_within(other, value, atol, rtol) for other in others]


def _number_within(given: float, right: float, atol: float, rtol: float) -> bool:
    """`within` for two Python floats: the same float64 operations, which never warn (no errstate)."""
    return abs(given - right) <= (atol + rtol * abs(right)) * _WIDEN


def allowed_error(key: ArrayLike, tolerance: Tolerance) -> np.ndarray:
    """The largest error accepted for each element of `key`."""
    return tolerance.effective_atol + tolerance.effective_rtol * np.abs(np.asarray(key, dtype=np.float64))
