"""How close a candidate's arrays are to the engine's: the tolerance rule and the measures checks report.

An element passes when |yours − engine| ≤ atol + rtol · |engine|; the tolerance depends on the
lowest precision among the inputs (the candidate computes in it, the engine in float64 or
float32). NaN and ±inf must stand where the engine has them; booleans must be equal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Output = tuple[np.ndarray, ...]


@dataclass(frozen=True)
class Tolerance:
    """Accept |yours − engine| ≤ atol + rtol · |engine|, element by element."""

    atol: float
    rtol: float


# float64: rounding differs between correct orders of summation by ~1e-15, mistakes by ~1e-2.
# float32 and float16 (large-score inputs): the candidate's own rounding of scores near 1000 in
# float32, or near 15 in float16, moves the weights by ~1e-4 and ~1e-2.
TOLERANCES: dict[np.dtype, Tolerance] = {
    np.dtype(np.float64): Tolerance(atol=1e-8, rtol=1e-6),
    np.dtype(np.float32): Tolerance(atol=1e-3, rtol=1e-3),
    np.dtype(np.float16): Tolerance(atol=2e-2, rtol=2e-2),
}
DEFAULT_TOLERANCE = TOLERANCES[np.dtype(np.float64)]
_NAMES = {dtype: dtype.name for dtype in TOLERANCES}  # dtype.name is worked out anew at each use


def tolerance_for(*inputs: object) -> tuple[Tolerance, str]:
    """The tolerance for a call on `inputs`, and the name of the precision that sets it."""
    floats = [x.dtype for x in inputs if isinstance(x, np.ndarray) and x.dtype in TOLERANCES]
    if not floats:
        return DEFAULT_TOLERANCE, "float64"
    lowest = min(floats, key=lambda dtype: dtype.itemsize)
    return TOLERANCES[lowest], _NAMES[lowest]


@dataclass(frozen=True)
class Difference:
    """How far one output is from another."""

    max_error: float  # largest |actual − expected| where both are finite (0 when none is)
    excess: float  # largest |actual − expected| / (atol + rtol|expected|); ≤ 1 passes, inf for a misplaced NaN/inf
    nonfinite: bool  # NaN or ±inf in one where the other has a number (or a different one)

    @property
    def within(self) -> bool:
        return self.excess <= 1.0


SAME = Difference(max_error=0.0, excess=0.0, nonfinite=False)


def difference(actual: Output, expected: Output, tolerance: Tolerance) -> Difference:
    """The largest deviation of `actual` from `expected`, array by array; any difference of form is infinite."""
    if actual is expected:  # an output against itself (the engine's, graded as an answer): nothing to measure
        return SAME
    if len(actual) != len(expected):
        return Difference(max_error=np.inf, excess=np.inf, nonfinite=False)
    parts = [_difference(a, e, tolerance) for a, e in zip(actual, expected)]
    if not parts:
        return SAME
    return Difference(
        max_error=max(p.max_error for p in parts),
        excess=max(p.excess for p in parts),
        nonfinite=any(p.nonfinite for p in parts),
    )


def excess(actual: Output, expected: Output, tolerance: Tolerance) -> float:
    """`difference(actual, expected, tolerance).excess`: how far apart drawing's outputs are, in tolerances."""
    return difference(actual, expected, tolerance).excess


def excess_table(outputs: Sequence[Output], tolerance: Tolerance) -> np.ndarray | None:
    """table[i, j] = excess(outputs[i], outputs[j], tolerance), for every pair in one array operation.

    Pairs with a NaN or an infinity, or with an output of another form than the first's (a
    mistake that returns another shape), are left NaN, for the caller to measure with `excess`
    if it needs them; None when the first's arrays are boolean (then compare them one by one).
    """
    n, first = len(outputs), outputs[0]
    if any(a.dtype == bool for a in first):
        return None
    like = [len(output) == len(first) and all(a.shape == f.shape and a.dtype != bool for a, f in zip(output, first)) for output in outputs]
    table = np.zeros((n, n))
    finite = np.array(like)
    with np.errstate(all="ignore"):  # nonfinite entries give NaN or inf here; those pairs are left to `excess`
        for index, reference in enumerate(first):
            arrays = [output[index] if alike else reference for output, alike in zip(outputs, like)]  # unlike: a stand-in
            stack = np.array(arrays, dtype=np.float64).reshape(n, reference.size)  # (n, size); np.stack costs twice as much
            finite &= np.isfinite(stack).all(axis=1)
            expected = stack[None, :]  # (1, n, size): the second of each pair, which the tolerance is relative to
            ratio = np.abs(stack[:, None] - expected) / (tolerance.atol + tolerance.rtol * np.abs(expected))  # (n, n, size)
            np.maximum(table, ratio.max(axis=-1, initial=0.0), out=table)
    measured = finite[:, None] & finite[None, :] & np.isfinite(table)
    return np.where(measured, table, np.nan)


def _difference(actual: np.ndarray, expected: np.ndarray, tolerance: Tolerance) -> Difference:
    if actual is expected:
        return SAME
    if actual.shape != expected.shape:
        return Difference(max_error=np.inf, excess=np.inf, nonfinite=False)
    if expected.dtype == bool or actual.dtype == bool:
        differs = bool(np.any(actual.astype(bool, copy=False) != expected.astype(bool, copy=False)))
        return Difference(max_error=float(differs), excess=np.inf if differs else 0.0, nonfinite=False)
    a, e = actual.astype(np.float64, copy=False), expected.astype(np.float64, copy=False)
    finite = np.isfinite(a) & np.isfinite(e)
    same_special = (np.isnan(a) & np.isnan(e)) | (a == e)  # NaN where NaN, or the same infinity
    misplaced = bool(np.any(~finite & ~same_special))
    with np.errstate(invalid="ignore"):  # inf − inf where neither is used
        gap = np.abs(a - e, where=finite, out=np.zeros_like(a))
    ratio = gap / (tolerance.atol + tolerance.rtol * np.abs(e, where=finite, out=np.zeros_like(e)))
    excess = np.inf if misplaced else float(ratio.max(initial=0.0))
    return Difference(max_error=float(gap.max(initial=0.0)), excess=excess, nonfinite=misplaced)


@dataclass(frozen=True)
class Mismatch:
    """The returned arrays do not have the expected form: kind is count, shape or dtype."""

    kind: str
    got: str
    expected: str


def mismatch(actual: Output, expected: Output) -> Mismatch | None:
    """What differs in the number of arrays, their shapes, or their kind of dtype; None when all agree.

    Floats are due where the engine returns floats (any precision will do) and booleans where it
    returns booleans: booleans, integers or complex numbers in place of floats would otherwise be
    cast and compared, and a boolean array then equals any output with no zero in it.
    """
    if len(actual) != len(expected):
        return Mismatch("count", str(len(actual)), str(len(expected)))
    for a, e in zip(actual, expected):
        if a.shape != e.shape:
            return Mismatch("shape", str(a.shape), str(e.shape))
        if a.dtype.kind != e.dtype.kind or type(a) is not np.ndarray:
            return Mismatch("dtype", str(a.dtype), _KIND_NAMES.get(e.dtype.kind, e.dtype.name))
    return None


_KIND_NAMES = {"b": "bool", "f": "float16/float32/float64"}


def as_output(value: np.ndarray | Sequence[np.ndarray]) -> Output:
    """A function's result as a tuple of arrays, whether it returns one array or several."""
    if isinstance(value, np.ndarray):
        return (value,)
    return tuple(np.asarray(v) for v in value)
