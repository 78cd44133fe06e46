"""The tolerance rule: |a − b| ≤ atol + rtol·|b|, element by element."""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from quiz.format.model import Tolerance

# Floating-point slack on the tolerance, so an answer exactly on the boundary (0.13 for a key of
# 0.125 with two decimals) is not failed by the last bit of binary rounding.
_SLACK: Final = 1e-9


def within(value: Any, key: Any, tolerance: Tolerance) -> np.ndarray:
    """Element-wise: is |value − key| ≤ atol + rtol·|key|? (widened by decimals/sigfigs)."""
    value = np.asarray(value, dtype=np.float64)
    key = np.asarray(key, dtype=np.float64)
    allowed = tolerance.effective_atol + tolerance.effective_rtol * np.abs(key)
    with np.errstate(invalid="ignore"):
        return np.abs(value - key) <= allowed * (1 + _SLACK)


def allowed_error(key: Any, tolerance: Tolerance) -> np.ndarray:
    """The largest error accepted for each element of `key`."""
    return tolerance.effective_atol + tolerance.effective_rtol * np.abs(np.asarray(key, dtype=np.float64))
