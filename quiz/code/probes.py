"""Probes: the calls a check makes, what the engine and each mistake return for them, and the verdict.

A probe is one or more calls of the candidate's functions (two for the causal-leak test) and a
criterion: match the engine, rows summing to one, or no leak. Every call carries the engine's
output and every modelled mistake's, so that fault matching needs no further computation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Generic

import numpy as np

from quiz.code.compare import Output, Tolerance, difference, mismatch, tolerance_for
from quiz.code.outcome import Evidence
from quiz.code.sandbox import A, Arguments, Call, CallResult


@dataclass(frozen=True)
class MatchesEngine:
    """Every call's output is within the tolerance of the engine's."""


@dataclass(frozen=True)
class RowsSumToOne:
    """The output sums to one along `axis` (and is finite): weights, not just numbers."""

    axis: int


@dataclass(frozen=True)
class NoLeak:
    """Two calls whose inputs differ only after position `after`: outputs up to it are exactly equal (X10).

    `axis` is the position axis of the output (−2 for (..., L, Ev)).
    """

    after: int
    axis: int = -2


@dataclass(frozen=True)
class RowsMatchEngine:
    """Only the output's `rows` along `axis` (the queries') must be within the tolerance of the
    engine's: a check of one branch (rows with no allowed key) is not failed by an error in the
    others, which the other checks test."""

    rows: tuple[int, ...]
    axis: int = -2


Criterion = MatchesEngine | RowsSumToOne | NoLeak | RowsMatchEngine


@dataclass(frozen=True)
class ProbeSpec(Generic[A]):
    """What a task's drawing produces: the calls (typed as the task's arguments) and the criterion that judges them."""

    calls: tuple[Call[A], ...]
    criterion: Criterion = MatchesEngine()


@dataclass(frozen=True)
class Probe:
    """A spec with the engine's outputs and each applicable mistake's outputs, call by call.

    tolerance and dtype follow from the lowest precision among the calls' arguments.
    """

    calls: tuple[Call[Arguments], ...]
    criterion: Criterion
    references: tuple[Output, ...]
    mistakes: Mapping[str, tuple[Output, ...]] = field(default_factory=dict)
    tolerance: Tolerance = field(init=False)
    dtype: str = field(init=False)

    def __post_init__(self) -> None:
        tolerance, dtype = tolerance_for(*(arg for call in self.calls for arg in call.args))
        object.__setattr__(self, "tolerance", tolerance)
        object.__setattr__(self, "dtype", dtype)


@dataclass(frozen=True)
class Verdict:
    passed: bool
    evidence: Evidence


def judge(probe: Probe, results: Sequence[CallResult]) -> Verdict:
    """Whether the candidate's results for `probe`'s calls meet its criterion, with the evidence."""
    function = probe.calls[0].function
    base = Evidence(function=function, dtype=probe.dtype, tolerance=probe.tolerance)
    outputs: list[Output] = []
    for result, reference in zip(results, probe.references, strict=True):
        if result.error is not None or result.arrays is None:
            return Verdict(False, replace(base, error=result.error))
        wrong_form = mismatch(result.arrays, reference)
        if wrong_form is not None:
            return Verdict(False, replace(base, mismatch=wrong_form))
        outputs.append(result.arrays)
    match probe.criterion:
        case MatchesEngine():
            return _matches(base, outputs, probe.references, probe.tolerance)
        case RowsMatchEngine(rows=rows, axis=axis):
            picked = [tuple(np.take(array, rows, axis=axis) for array in out) for out in (*outputs, *probe.references)]
            return _matches(base, picked[: len(outputs)], picked[len(outputs) :], probe.tolerance)
        case RowsSumToOne(axis=axis):
            return _rows_sum_to_one(base, outputs, axis, probe.tolerance)
        case NoLeak(after=after, axis=axis):
            return _no_leak(base, outputs, after, axis)


def _matches(base: Evidence, outputs: Sequence[Output], references: Sequence[Output], tolerance: Tolerance) -> Verdict:
    if any(array.dtype == bool for reference in references for array in reference):
        differing = sum(int(np.sum(a != r)) for out, ref in zip(outputs, references) for a, r in zip(out, ref))
        entries = sum(r.size for ref in references for r in ref)
        return Verdict(differing == 0, replace(base, tolerance=None, differing=differing, entries=entries))
    gaps = [difference(out, ref, tolerance) for out, ref in zip(outputs, references)]
    worst = max(gaps, key=lambda gap: gap.excess)
    evidence = replace(base, max_error=max(gap.max_error for gap in gaps), nonfinite=worst.nonfinite)
    return Verdict(all(gap.within for gap in gaps), evidence)


def _rows_sum_to_one(base: Evidence, outputs: list[Output], axis: int, tolerance: Tolerance) -> Verdict:
    weights = outputs[0][0].astype(np.float64)
    if not np.isfinite(weights).all():
        return Verdict(False, replace(base, nonfinite=True))
    error = float(np.abs(weights.sum(axis=axis) - 1.0).max(initial=0.0))
    return Verdict(error <= tolerance.atol + tolerance.rtol, replace(base, row_sum_error=error))


def _no_leak(base: Evidence, outputs: list[Output], after: int, axis: int) -> Verdict:
    """Exact equality up to `after`: a masked key contributes exactly 0, whatever its value."""
    first, second = (np.moveaxis(out[0], axis, 0)[: after + 1] for out in outputs)
    changed = ~((first == second) | (np.isnan(first) & np.isnan(second)))  # (after + 1, ...)
    rows = np.flatnonzero(changed.reshape(after + 1, -1).any(axis=1))
    evidence = replace(base, changed_after=after, leak_position=int(rows[0]) if rows.size else None)
    return Verdict(rows.size == 0, evidence)
