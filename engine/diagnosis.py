"""Likely causes of broken attention, read from one layer's head statistics (notes G2–G6).

`diagnose` returns codes and numbers only; the question bank words them in each language.
"""

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

import numpy as np

from engine.statistics import HeadStats

# Scores: how directly the statistics point at a cause.
CONCLUSIVE = 1.0
"""A statistic only this cause (or the causes listed as indistinguishable from it) produces."""
SUGGESTIVE = 0.5
"""Symptoms consistent with the cause that the statistics cannot confirm (G5: clues only)."""

# The effective scale is the ratio of two stds of the same entries, so it is exact up to rounding;
# a factor of 1.25 still separates candidate scales that differ by √2 (two heads) or more.
SCALE_MATCH_FACTOR = 1.25
# heads_not_split gives every head the same scores (correlation 1 up to rounding); independent or
# trained heads stay far below.
IDENTICAL_HEADS_CORRELATION = 0.99
# A masked key scores −∞ and gets exactly zero weight, so anything above rounding is a leak.
FUTURE_WEIGHT_TOLERANCE = 1e-6
# float16 weights carry a relative rounding of 2⁻¹¹ each, keeping their row sums within ~1e-3 of
# one; a softmax over the wrong axis leaves rows off by order one.
ROW_SUM_TOLERANCE = 1e-2
# X14: at initialisation a correct scale keeps ≈0.9 of the maximum entropy (4.35 of 4.85 nats)
# and a missing one ≈0.1; "low entropy" (G3) is below the midpoint.
LOW_NORMALIZED_ENTROPY = 0.5
# 1/√d_k brings the within-row score spread to 1 for unit-variance q, k (B5); twice that (four
# times the variance) is concentration caused by scale rather than by a few relevant keys (B9).
SHARP_SPREAD = 2.0
# G3 speaks of "many heads": at least half the layer.
MANY_HEADS_FRACTION = 0.5


class Cause(StrEnum):
    """Codes for what `diagnose` can blame; fault names equal `engine.Fault` values."""

    missing_scale = "missing_scale"
    double_scale = "double_scale"
    scale_by_d_model = "scale_by_d_model"
    heads_not_split = "heads_not_split"
    no_causal_mask = "no_causal_mask"
    softmax_over_queries = "softmax_over_queries"
    fully_masked_row = "fully_masked_row"
    float16_scores = "float16_scores"
    nonfinite_inputs = "nonfinite_inputs"
    accumulation_precision = "accumulation_precision"
    growing_projection_weights = "growing_projection_weights"
    input_distribution_shift = "input_distribution_shift"
    no_fault_evident = "no_fault_evident"


@dataclass(frozen=True)
class Finding:
    """One likely cause, how directly the statistics point at it, and the numbers that do."""

    cause: Cause
    score: float
    evidence: Mapping[str, float]
    indistinguishable_from: tuple[Cause, ...] = ()


def diagnose(stats: HeadStats) -> tuple[Finding, ...]:
    """Rank the likely causes of what `stats` shows, strongest first.

    Returns a single `no_fault_evident` finding when nothing points at a cause, which includes
    heads that concentrate on one key while their score spread stays near 1 (G5, B9).
    """
    findings = [
        *_non_finite_findings(stats),
        *_mask_findings(stats),
        *_scale_findings(stats),
    ]
    if not findings:
        return (_finding(Cause.no_fault_evident, SUGGESTIVE, _summary(stats)),)
    return tuple(sorted(findings, key=lambda f: f.score, reverse=True))


def _finding(cause: Cause, score: float, evidence: Mapping[str, float], *alike: Cause) -> Finding:
    """A Finding with read-only evidence; `alike` are the causes it cannot be told apart from."""
    return Finding(cause, score, MappingProxyType(evidence), alike)


def _summary(stats: HeadStats) -> dict[str, float]:
    """The figures that show a layer's sharpness and why: scale, spread, entropy, max weight."""
    return {
        "scale_ratio": _scale_ratio(stats),
        "score_spread_scaled": _median(stats.score_spread_scaled),
        "entropy_normalized": _median(stats.entropy_normalized),
        "max_weight": _median(stats.max_weight),
    }


def _non_finite_findings(stats: HeadStats) -> list[Finding]:
    """G6: NaN or inf from the inputs themselves, or from overflow before the softmax."""
    inputs = int(stats.inputs_nonfinite.sum())
    if inputs:
        return [_finding(Cause.nonfinite_inputs, CONCLUSIVE, {"inputs_nonfinite": inputs})]
    evidence = {
        "scores_nan": int(stats.scores_nan.sum()),
        "scores_inf": int(stats.scores_inf.sum()),
        "weights_nan": int(stats.weights_nan.sum()),
        "zero_rows": int(stats.zero_rows.sum()),
    }
    if not any(evidence.values()):
        return []
    # Finite inputs gave non-finite scores or weights, or rows whose softmax denominator
    # overflowed: an overflow in low precision, whether in the stored scores or in the kernel's
    # accumulator the statistics cannot tell.
    return [_finding(Cause.float16_scores, CONCLUSIVE, evidence, Cause.accumulation_precision)]


def _mask_findings(stats: HeadStats) -> list[Finding]:
    """Leaks past a causal mask, rows with nothing to attend to, rows not summing to one."""
    findings = []
    future = _max(stats.future_weight)
    if future > FUTURE_WEIGHT_TOLERANCE:
        findings.append(_finding(Cause.no_causal_mask, CONCLUSIVE, {"future_weight": future}))
    empty = int(stats.empty_rows.sum())
    if empty:
        evidence = {"empty_rows": empty, "output_nan": int(stats.output_nan.sum())}
        findings.append(_finding(Cause.fully_masked_row, CONCLUSIVE, evidence))
    row_sum_error = _max(stats.row_sum_error)
    if row_sum_error > ROW_SUM_TOLERANCE:
        findings.append(_finding(Cause.softmax_over_queries, CONCLUSIVE, {"row_sum_error": row_sum_error}))
    return findings


def _scale_findings(stats: HeadStats) -> list[Finding]:
    """G3/G4: a wrong factor, heads sharing one score matrix, or logits grown too large."""
    ratio = _scale_ratio(stats)
    if not (math.isfinite(ratio) and ratio > 0):
        return []
    evidence = _summary(stats)
    wrong_factors = _matching_wrong_factors(ratio, stats.E, stats.H)
    if wrong_factors:
        return [_finding(wrong_factors[0], CONCLUSIVE, evidence, *wrong_factors[1:])]
    if not _matches(ratio, 1.0):
        # A scale the caller chose on purpose; nothing the notes call a fault.
        return []
    agreement = _median(stats.head_agreement)
    if agreement >= IDENTICAL_HEADS_CORRELATION:
        evidence["head_agreement"] = agreement
        return [_finding(Cause.heads_not_split, CONCLUSIVE, evidence)]
    # G3's low entropy counts only with a wide spread: sharpness from scale, not relevance (G5).
    low_entropy = stats.entropy_normalized < LOW_NORMALIZED_ENTROPY
    share = float(np.mean(low_entropy & (stats.score_spread_scaled > SHARP_SPREAD)))
    if share < MANY_HEADS_FRACTION:
        return []
    evidence["sharp_heads_share"] = share
    evidence["query_rms"] = _median(stats.query_norm) / math.sqrt(stats.E)
    evidence["key_rms"] = _median(stats.key_norm) / math.sqrt(stats.E)
    alike = Cause.input_distribution_shift  # both lengthen q and k; these figures cannot tell
    return [_finding(Cause.growing_projection_weights, SUGGESTIVE, evidence, alike)]


def _scale_ratio(stats: HeadStats) -> float:
    """Effective scale × √E across heads: 1 for the standard factor 1/√d_k."""
    return _median(stats.effective_scale) * math.sqrt(stats.E)


def _matching_wrong_factors(ratio: float, E: int, H: int) -> list[Cause]:
    """Wrong factors whose scale ratio matches `ratio`, closest first.

    Empty when the correct factor matches too, as a wrong factor then changes nothing (E = 1).
    """
    if _matches(ratio, 1.0):
        return []
    expected = {
        Cause.missing_scale: math.sqrt(E),
        Cause.double_scale: 1 / math.sqrt(E),
        Cause.scale_by_d_model: 1 / math.sqrt(H),
    }
    matching = [cause for cause, value in expected.items() if _matches(ratio, value)]
    return sorted(matching, key=lambda cause: abs(math.log(ratio / expected[cause])))


def _matches(ratio: float, expected: float) -> bool:
    """Whether `ratio` is within SCALE_MATCH_FACTOR of `expected`, either way."""
    return abs(math.log(ratio / expected)) <= math.log(SCALE_MATCH_FACTOR)


def _median(values: np.ndarray) -> float:
    """Median of the finite per-head values; NaN when there are none."""
    finite = values[np.isfinite(values)]
    return float(np.median(finite)) if finite.size else math.nan


def _max(values: np.ndarray) -> float:
    """Largest finite per-head value; NaN when there are none."""
    finite = values[np.isfinite(values)]
    return float(finite.max()) if finite.size else math.nan
