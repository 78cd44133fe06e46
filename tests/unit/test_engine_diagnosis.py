"""diagnose on real runs: each injected fault ranks first, healthy layers show no fault (G2–G6)."""

import math

import numpy as np
import pytest

from engine import Fault
from engine.diagnosis import CONCLUSIVE, Cause, diagnose
from engine.statistics import head_stats

H, L, E = 8, 128, 64  # realistic sizes: d_k = 64, 8 heads, 128 positions
SEEDS = (0, 1, 2)


def random_qkv(seed: int, std: float = 1.0, shape=(1, H, L, E)):
    """Independent normal query, key and value of the given component std."""
    rng = np.random.default_rng(seed)
    return tuple(std * rng.standard_normal(shape) for _ in range(3))


def run_with(fault: Fault, seed: int):
    """Statistics of a run with `fault`, set up so that the fault has something to break."""
    std = 4.0 if fault is Fault.float16_scores else 1.0  # X4: overflow needs large scores
    policy = "nan" if fault is Fault.fully_masked_row else "zero"
    return head_stats(
        *random_qkv(seed, std),
        is_causal=fault is Fault.no_causal_mask,
        empty_rows=policy,
        fault=fault,
    )


def test_every_fault_is_a_cause():
    assert {fault.value for fault in Fault} <= {cause.value for cause in Cause}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("fault", list(Fault))
def test_the_injected_fault_ranks_first(fault, seed):
    findings = diagnose(run_with(fault, seed))
    assert findings[0].cause == fault
    assert findings[0].score == CONCLUSIVE
    assert Cause.no_fault_evident not in {finding.cause for finding in findings}


@pytest.mark.parametrize("fault", [Fault.fully_masked_row, Fault.no_causal_mask])
def test_mask_faults_are_found_under_either_empty_row_policy_and_with_causal_masks(fault):
    stats = head_stats(*random_qkv(3), is_causal=True, empty_rows="zero", fault=fault)
    assert diagnose(stats)[0].cause == fault


def test_factors_that_coincide_are_reported_as_indistinguishable():
    # With H = E, dividing by d_k and by √d_model are the same factor: 1/8 for E = 8, H = 8.
    query, key, value = random_qkv(4, shape=(1, 8, 32, 8))
    for fault in (Fault.double_scale, Fault.scale_by_d_model):
        first = diagnose(head_stats(query, key, value, fault=fault))[0]
        assert {first.cause, *first.indistinguishable_from} == {
            Cause.double_scale,
            Cause.scale_by_d_model,
        }


def test_evidence_names_the_effective_scale():
    findings = diagnose(run_with(Fault.missing_scale, 0))
    assert findings[0].evidence["scale_ratio"] == pytest.approx(math.sqrt(E), rel=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("is_causal", [False, True])
def test_healthy_runs_show_no_fault(seed, is_causal):
    findings = diagnose(head_stats(*random_qkv(seed), is_causal=is_causal))
    assert [finding.cause for finding in findings] == [Cause.no_fault_evident]


def test_healthy_grouped_query_heads_show_no_fault():
    rng = np.random.default_rng(5)
    query = rng.standard_normal((2, H, L, E))
    key, value = (rng.standard_normal((2, 2, L, E)) for _ in range(2))
    stats = head_stats(query, key, value, enable_gqa=True, is_causal=True)
    assert diagnose(stats)[0].cause == Cause.no_fault_evident


def test_heads_with_different_numbers_of_valid_keys_are_compared_fairly():
    # G2: a head that may read only 4 keys has far lower entropy than one reading 128, and is
    # no less healthy; normalised by log(number of allowed keys) the two agree.
    mask = np.ones((1, 2, L, L), dtype=bool)
    mask[:, 1, :, 4:] = False  # head 1: the first 4 keys only, the rest padding
    stats = head_stats(*random_qkv(6, shape=(1, 2, L, E)), attn_mask=mask)
    assert stats.entropy[0] - stats.entropy[1] > 2.0
    assert abs(stats.entropy_normalized[0] - stats.entropy_normalized[1]) < 0.15
    assert diagnose(stats)[0].cause == Cause.no_fault_evident


def test_a_head_that_rightly_picks_one_key_is_not_a_fault():
    # G5, B9: queries that truly match one key each concentrate the weight (low entropy, high
    # max weight) while the scale is right and the rest of each row keeps a spread near 1.
    _, key, value = random_qkv(7)
    stats = head_stats(key[..., ::-1, :], key, value)  # query i equals key L − 1 − i
    assert np.all(stats.entropy_normalized < 0.5) and np.all(stats.max_weight > 0.8)
    assert diagnose(stats)[0].cause == Cause.no_fault_evident


@pytest.mark.parametrize("seed", SEEDS)
def test_large_logits_with_the_right_scale_point_at_growing_weights(seed):
    # G3, X7: q and k three times too long sharpen every head although 1/√d_k was applied; the
    # statistics cannot tell grown projections from a shifted input distribution.
    findings = diagnose(head_stats(*random_qkv(seed, std=3.0)))
    assert findings[0].cause == Cause.growing_projection_weights
    assert findings[0].indistinguishable_from == (Cause.input_distribution_shift,)
    assert Cause.missing_scale not in {finding.cause for finding in findings}
    assert findings[0].evidence["query_rms"] == pytest.approx(3.0, rel=0.05)


def test_non_finite_inputs_are_blamed_before_the_kernel():
    query, key, value = random_qkv(8)
    key[0, 2, 10, 0] = np.nan
    findings = diagnose(head_stats(query, key, value))
    assert findings[0].cause == Cause.nonfinite_inputs
    assert Cause.float16_scores not in {finding.cause for finding in findings}


def test_findings_are_ranked_strongest_first():
    # Inputs twice too long under float16 overflow in some rows (conclusive) and sharpen every
    # head as grown logits would (suggestive); rows zeroed by the overflow are not read as a
    # softmax over the wrong axis.
    stats = head_stats(*random_qkv(9, std=2.0), fault=Fault.float16_scores)
    findings = diagnose(stats)
    assert [finding.cause for finding in findings] == [
        Cause.float16_scores,
        Cause.growing_projection_weights,
    ]
    assert findings[0].score > findings[1].score


@pytest.mark.parametrize("fault", [Fault.scale_by_d_model, Fault.heads_not_split])
def test_faults_that_change_nothing_for_one_head_are_not_reported(fault):
    # With H = 1, d_model = d_k: the "wrong" factor and the "unsplit" heads are the correct ones.
    stats = head_stats(*random_qkv(10, shape=(1, 1, L, E)), fault=fault)
    assert diagnose(stats)[0].cause == Cause.no_fault_evident
