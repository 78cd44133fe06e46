"""Implementation mistakes the quiz can inject, each a change to the attention pipeline's settings.

There is one pipeline (scores → scale → mask → softmax → weighted sum). A fault never replaces
it: `pipeline_settings` returns the settings of a correct run with the one setting the mistake
changes (the scale, the mask, the softmax axis, the score precision, or the query/key layout).
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

import numpy as np


class Fault(enum.StrEnum):
    """A mistake in an attention implementation; the value is the member's name."""

    missing_scale = enum.auto()  # scores are not scaled at all (B9)
    double_scale = enum.auto()  # divided by √d_k twice, i.e. by d_k: flatter weights (B7, G4)
    scale_by_d_model = enum.auto()  # divided by √(heads × d_k) instead of √d_k: flatter (E3, X5)
    heads_not_split = enum.auto()  # every head scores with Σ_h Q_h K_hᵀ, scaled by 1/√d_k: sharper
    no_causal_mask = enum.auto()  # a requested causal mask is not applied: the future leaks (F4)
    softmax_over_queries = enum.auto()  # softmax along the query axis instead of the key axis (E2)
    fully_masked_row = enum.auto()  # the last query row of every head has no allowed key (E5)
    float16_scores = enum.auto()  # Q Kᵀ, scaling and an unshifted softmax in float16 (X4, G6)


def to_fault(value: Fault | str | None) -> Fault | None:
    """`value` as a Fault (None stays None); an unknown name is a ValueError listing the valid ones."""
    if value is None:
        return None
    try:
        return Fault(value)
    except ValueError:
        valid = ", ".join(fault.value for fault in Fault)
        raise ValueError(f"unknown fault {value!r}; valid faults: {valid}") from None


@dataclass(frozen=True)
class PipelineSettings:
    """The choices the attention pipeline makes; a correct run and every fault differ only here."""

    scale: float  # the factor the scores are multiplied by
    causal: bool  # apply the causal mask
    block_last_row: bool = False  # leave the last query row no allowed key
    unsplit_heads: bool = False  # give every head the concatenated heads' queries and keys
    softmax_axis: int = -1  # −1: over keys (correct); −2: over queries
    half_precision_scores: bool = False  # scores, scaling and an unshifted softmax in float16


def pipeline_settings(
    fault: Fault | None, *, scale: float | None, is_causal: bool, head_dim: int, n_heads: int
) -> PipelineSettings:
    """The settings of a correct run (scale defaults to 1/√head_dim), changed as `fault` changes them.

    The three scale faults set the factor from the dimensions whatever `scale` says:
    missing_scale 1, double_scale 1/head_dim (exactly, not (1/√head_dim)²), scale_by_d_model
    1/√(n_heads · head_dim). The others keep the factor.
    """
    # Each case builds the correct run's settings with its one change (dataclasses.replace would
    # build them twice, a tenth of a small attention call).
    correct_scale = 1.0 / math.sqrt(head_dim) if scale is None else float(scale)
    match fault:
        case None:
            return PipelineSettings(scale=correct_scale, causal=is_causal)
        case Fault.missing_scale:
            return PipelineSettings(scale=1.0, causal=is_causal)
        case Fault.double_scale:
            return PipelineSettings(scale=1.0 / head_dim, causal=is_causal)
        case Fault.scale_by_d_model:
            return PipelineSettings(scale=1.0 / math.sqrt(n_heads * head_dim), causal=is_causal)
        case Fault.heads_not_split:
            return PipelineSettings(scale=correct_scale, causal=is_causal, unsplit_heads=True)
        case Fault.no_causal_mask:
            return PipelineSettings(scale=correct_scale, causal=False)
        case Fault.softmax_over_queries:
            return PipelineSettings(scale=correct_scale, causal=is_causal, softmax_axis=-2)
        case Fault.fully_masked_row:
            return PipelineSettings(scale=correct_scale, causal=is_causal, block_last_row=True)
        case Fault.float16_scores:
            return PipelineSettings(scale=correct_scale, causal=is_causal, half_precision_scores=True)


def unsplit_heads(x: np.ndarray) -> np.ndarray:
    """(..., H, T, D) → (..., H, T, H·D): every head receives all heads' features, concatenated.

    For queries and keys this makes each head's Q Kᵀ the sum over heads of Q_h K_hᵀ, a dot
    product over d_model: what a model computes when it forgets to split heads. Without a head
    axis there is a single head, and `x` is returned as it is.
    """
    if x.ndim < 3:
        return x
    *batch, n_heads, T, head_dim = x.shape
    width = n_heads * head_dim
    merged = x.swapaxes(-3, -2).reshape(*batch, T, width)  # (..., T, H·D)
    return np.broadcast_to(merged[..., None, :, :], (*batch, n_heads, T, width))  # (..., H, T, H·D)


def unsplit_heads_backward(grad: np.ndarray) -> np.ndarray:
    """The chain rule through `unsplit_heads`: (..., H, T, H·D) → (..., H, T, D).

    Head h's features reached every head, so their gradient is the sum over heads of the
    columns h·D to (h+1)·D − 1. Without a head axis the forward step did nothing, nor does this.
    """
    if grad.ndim < 3:
        return grad
    *batch, n_heads, T, width = grad.shape
    summed = grad.sum(axis=-3)  # (..., T, H·D)
    return summed.reshape(*batch, T, n_heads, width // n_heads).swapaxes(-3, -2)  # (..., H, T, D)
