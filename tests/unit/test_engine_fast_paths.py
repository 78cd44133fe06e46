"""Shortcuts the engine takes on small calls give, bit for bit, what the general path gives."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from engine import Fault, attention, entropy, softmax
from engine.faults import PipelineSettings, pipeline_settings
from engine.masks import read_attn_mask
from engine.softmax import _sum_or_one

FEW_EXAMPLES = settings(deadline=None, max_examples=40)
# Rows of scores where −∞ (a forbidden key) is common, so whole rows of it occur.
scores = arrays(
    np.float64,
    st.tuples(st.integers(1, 4), st.integers(0, 9)),
    elements=st.one_of(st.floats(-40, 40), st.just(-np.inf), st.just(np.nan)),
)


def sum_replacing_zeros(exp_shifted: np.ndarray) -> np.ndarray:
    """The definition `_sum_or_one` shortens: the row sums, with 1 written where a sum is 0."""
    total = np.sum(exp_shifted, axis=-1, keepdims=True)
    total[total == 0] = 1.0
    return total


@given(z=scores)
@FEW_EXAMPLES
def test_the_sum_or_one_by_maximum_equals_replacing_the_zeros(z):
    peak = np.max(z, axis=-1, keepdims=True, initial=-np.inf)
    peak[np.isneginf(peak)] = 0.0
    with np.errstate(invalid="ignore"):  # NaN rows are part of the case
        exp_shifted = np.exp(z - peak)
    expected = sum_replacing_zeros(exp_shifted)
    assert np.array_equal(_sum_or_one(exp_shifted, -1), expected, equal_nan=True)


@pytest.mark.parametrize("axis", [-1, 0, (0, 1), (0, 2)])
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("normalized", [False, True])
def test_entropy_without_a_mask_equals_entropy_with_an_all_true_mask(axis, order, normalized):
    p = softmax(np.random.default_rng(1).standard_normal((3, 4, 5)) * 4)
    p = np.asarray(p, order=order)  # the order of the sums follows the arrays' layout
    unmasked = entropy(p, axis, normalized=normalized)
    masked = entropy(p, axis, mask=np.ones(p.shape, dtype=bool), normalized=normalized)
    assert unmasked.dtype == masked.dtype and unmasked.shape == masked.shape
    assert unmasked.tobytes() == masked.tobytes()


def test_a_full_shape_mask_is_viewed_read_only_and_the_callers_mask_stays_writable():
    rng = np.random.default_rng(0)
    q, k, v = rng.standard_normal((3, 4)), rng.standard_normal((5, 4)), rng.standard_normal((5, 2))
    mask = rng.random((3, 5)) < 0.7
    mask[:, 0] = True
    trace = attention(q, k, v, mask)
    assert np.array_equal(trace.allowed, np.broadcast_to(mask, (3, 5)))
    assert not trace.allowed.flags.writeable and mask.flags.writeable
    batched = attention(*(x[None].repeat(2, axis=0) for x in (q, k, v)), mask).allowed  # (L, S) mask
    assert batched.shape == (2, 3, 5) and not batched.flags.writeable


def test_a_mask_of_the_scores_shape_is_read_as_one_that_broadcasts_to_it():
    mask = np.array([[True, False, True], [False, True, True]])
    for given_mask, shape in ((mask, (2, 3)), (mask[None], (1, 2, 3)), (mask, (4, 2, 3))):
        allowed, additive = read_attn_mask(given_mask, shape, np.float64)
        assert np.array_equal(np.broadcast_to(allowed, shape), np.broadcast_to(mask, shape))
        assert additive.shape == () and additive == 0.0


def test_every_fault_changes_exactly_the_one_setting_it_names():
    correct = pipeline_settings(None, scale=0.25, is_causal=True, head_dim=16, n_heads=4)
    assert correct == PipelineSettings(scale=0.25, causal=True)
    changed = {
        Fault.missing_scale: {"scale": 1.0},
        Fault.double_scale: {"scale": 1.0 / 16},
        Fault.scale_by_d_model: {"scale": 1.0 / 8},
        Fault.heads_not_split: {"unsplit_heads": True},
        Fault.no_causal_mask: {"causal": False},
        Fault.softmax_over_queries: {"softmax_axis": -2},
        Fault.fully_masked_row: {"block_last_row": True},
        Fault.float16_scores: {"half_precision_scores": True},
    }
    assert set(changed) == set(Fault)
    for fault, fields in changed.items():
        settings_ = pipeline_settings(fault, scale=0.25, is_causal=True, head_dim=16, n_heads=4)
        assert vars(settings_) == {**vars(correct), **fields}, fault
