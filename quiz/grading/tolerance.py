"""The tolerance rule: |a − b| ≤ atol + rtol·|b|, element by element."""

from __future__ import annotations

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
    given, right = np.asarray(value, dtype=np.float64), np.asarray(key, dtype=np.float64)
    # inf − inf, 0·inf and overflow to inf are the comparison's to judge (NaN and inf compare as
    # they must): a warning about them would tell a learner nothing.
    with np.errstate(invalid="ignore", over="ignore"):
        allowed = tolerance.effective_atol + tolerance.effective_rtol * np.abs(right)
        return np.abs(given - right) <= allowed * _WIDEN


def allowed_error(key: ArrayLike, tolerance: Tolerance) -> np.ndarray:
    """The largest error accepted for each element of `key`."""
    return tolerance.effective_atol + tolerance.effective_rtol * np.abs(np.asarray(key, dtype=np.float64))
