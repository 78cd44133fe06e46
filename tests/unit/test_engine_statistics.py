"""Score variance against the closed forms of B4–B5 and X1–X2; head statistics against closed
forms, the notes' figures, and the symptoms each fault must show."""

import math
import warnings

import numpy as np
import pytest

from engine import Fault, attention
from engine.statistics import head_stats, nanmedian, score_variance

DIMENSIONS = (4, 16, 64, 256)
N_SAMPLES = 5_000
# Four standard errors: a correct estimator strays this far about once in 16,000 runs.
Z_LIMIT = 4.0


@pytest.mark.parametrize("d_k", DIMENSIONS)
def test_unscaled_variance_is_d_k(d_k):
    estimate = score_variance(d_k, N_SAMPLES, seed=d_k)
    assert abs(estimate.standard_errors_from(d_k)) < Z_LIMIT


@pytest.mark.parametrize("d_k", DIMENSIONS)
def test_scaling_by_root_d_k_gives_unit_variance(d_k):
    estimate = score_variance(d_k, N_SAMPLES, seed=d_k + 1, scale=1 / math.sqrt(d_k))
    assert abs(estimate.standard_errors_from(1.0)) < Z_LIMIT


@pytest.mark.parametrize("d_k", DIMENSIONS)
def test_dividing_by_d_k_gives_variance_one_over_d_k(d_k):
    estimate = score_variance(d_k, N_SAMPLES, seed=d_k + 2, scale=1 / d_k)
    assert abs(estimate.standard_errors_from(1 / d_k)) < Z_LIMIT


@pytest.mark.parametrize(("std_q", "std_k"), [(2.0, 0.5), (0.5, 0.5), (3.0, 1.5)])
@pytest.mark.parametrize("d_k", DIMENSIONS)
def test_component_variances_multiply(d_k, std_q, std_k):
    # X1: Var(q·k) = d_k σ_q² σ_k².
    estimate = score_variance(d_k, N_SAMPLES, seed=d_k + 3, std_q=std_q, std_k=std_k)
    assert abs(estimate.standard_errors_from(d_k * std_q**2 * std_k**2)) < Z_LIMIT


@pytest.mark.parametrize("mean", [0.5, 1.0, -2.0])
@pytest.mark.parametrize("d_k", DIMENSIONS)
def test_a_common_mean_adds_two_mu_squared(d_k, mean):
    # X2: Var(q·k) = d_k (1 + 2μ²).
    estimate = score_variance(d_k, N_SAMPLES, seed=d_k + 4, mean=mean)
    assert abs(estimate.standard_errors_from(d_k * (1 + 2 * mean**2))) < Z_LIMIT


def test_a_wrong_answer_is_many_standard_errors_away():
    # The check has power: a 10% error in the claimed variance is far outside four errors.
    estimate = score_variance(64, 20_000, seed=5)
    assert abs(estimate.standard_errors_from(1.1 * 64)) > 2 * Z_LIMIT


@pytest.mark.parametrize("d_k", DIMENSIONS)
def test_standard_error_matches_its_closed_form(d_k):
    # For standard normal components E[s⁴] = 3d² + 6d, so Var(sample variance) ≈ (2d² + 6d)/n.
    # The estimated error has its own error, about 5% at d_k = 4 over 200 seeds; 20% is four.
    estimate = score_variance(d_k, N_SAMPLES, seed=d_k + 6)
    assert estimate.standard_error == pytest.approx(
        math.sqrt((2 * d_k**2 + 6 * d_k) / N_SAMPLES), rel=0.2
    )


def test_standard_error_describes_the_spread_over_seeds():
    # The reported error is what the estimate actually scatters by over independent runs.
    runs = [score_variance(16, 400, seed=seed) for seed in range(300)]
    spread = np.std([run.variance for run in runs], ddof=1)
    typical_error = np.mean([run.standard_error for run in runs])
    assert typical_error == pytest.approx(spread, rel=0.2)


def test_same_seed_same_estimate_and_scale_divides_variance_by_its_square():
    unscaled = score_variance(32, 1000, seed=7)
    assert score_variance(32, 1000, seed=7) == unscaled
    scaled = score_variance(32, 1000, seed=7, scale=0.25)
    assert scaled.variance == pytest.approx(unscaled.variance / 16, rel=1e-12)
    assert scaled.standard_error == pytest.approx(unscaled.standard_error / 16, rel=1e-12)


@pytest.mark.parametrize(("d_k", "n_samples"), [(0, 100), (4, 1)])
def test_rejects_degenerate_arguments(d_k, n_samples):
    with pytest.raises(ValueError):
        score_variance(d_k, n_samples, seed=0)


# Head statistics -----------------------------------------------------------------------------

H, L, E = 8, 128, 64  # realistic sizes: d_k = 64, 8 heads, 128 positions


def random_qkv(seed: int, std: float = 1.0, shape=(1, H, L, E)):
    """Independent normal query, key and value of the given component std."""
    rng = np.random.default_rng(seed)
    return tuple(std * rng.standard_normal(shape) for _ in range(3))


def test_uniform_weights_give_closed_form_entropy_and_max_weight():
    _, key, value = random_qkv(0)
    stats = head_stats(np.zeros_like(key), key, value)  # zero queries: every score equal
    np.testing.assert_allclose(stats.entropy, math.log(L), rtol=1e-12)
    np.testing.assert_allclose(stats.entropy_normalized, 1.0, rtol=1e-12)
    np.testing.assert_allclose(stats.max_weight, 1 / L, rtol=1e-12)
    np.testing.assert_allclose(stats.row_sum_error, 0.0, atol=1e-12)
    assert (stats.E, stats.H, stats.L, stats.S) == (E, H, L, L)


def test_normalized_entropy_divides_by_the_intended_number_of_keys():
    # G2: under a causal mask row i is uniform over i + 1 keys, so its entropy is log(i + 1) and
    # its normalized entropy 1, whatever the row's length.
    _, key, value = random_qkv(1)
    stats = head_stats(np.zeros_like(key), key, value, is_causal=True)
    np.testing.assert_allclose(stats.entropy, np.mean(np.log(np.arange(1, L + 1))), rtol=1e-12)
    np.testing.assert_allclose(stats.entropy_normalized, 1.0, rtol=1e-12)
    np.testing.assert_allclose(stats.future_weight, 0.0, atol=0)


def test_score_stds_and_effective_scale_follow_the_scale_given():
    query, key, value = random_qkv(2)
    stats = head_stats(query, key, value, scale=0.3)
    np.testing.assert_allclose(stats.effective_scale, 0.3, rtol=1e-12)
    np.testing.assert_allclose(stats.score_std_scaled, 0.3 * stats.score_std_raw, rtol=1e-12)
    # B4: unit-variance components give raw scores of std √d_k.
    np.testing.assert_allclose(stats.score_std_raw, math.sqrt(E), rtol=0.1)


def test_norms_are_the_lengths_of_the_vectors_given():
    rng = np.random.default_rng(3)
    directions = rng.standard_normal((1, H, L, E))
    unit = directions / np.linalg.norm(directions, axis=-1, keepdims=True)
    lengths = np.arange(1.0, H + 1)[:, None, None]  # head h has vectors of length h + 1
    stats = head_stats(unit * lengths, 2 * unit, unit)
    np.testing.assert_allclose(stats.query_norm, lengths.ravel(), rtol=1e-12)
    np.testing.assert_allclose(stats.key_norm, 2.0, rtol=1e-12)


def test_a_planted_match_concentrates_weight_without_widening_the_spread():
    # B9: a query equal to one key picks that key out; the scale of the rest stays that of
    # 1/√d_k, and the within-row spread, unlike the plain std, ignores the standout key.
    _, key, value = random_qkv(4)
    healthy = head_stats(*random_qkv(4))
    planted = head_stats(key[..., ::-1, :], key, value)  # query i equals key L − 1 − i
    assert np.all(planted.max_weight > 0.8) and np.all(healthy.max_weight < 0.1)
    np.testing.assert_allclose(planted.score_spread_scaled, 1.0, rtol=0.1)
    assert np.all(planted.score_std_scaled > 1.1 * planted.score_spread_scaled)


def test_identical_heads_agree_and_opposite_heads_disagree():
    query, key, value = random_qkv(5, shape=(1, 2, L, E))
    same = head_stats(query[:, :1].repeat(2, axis=1), key[:, :1].repeat(2, axis=1), value)
    np.testing.assert_allclose(same.head_agreement, 1.0, rtol=1e-12)
    flipped = np.concatenate([query[:, :1], -query[:, :1]], axis=1)
    opposite = head_stats(flipped, key[:, :1].repeat(2, axis=1), value)
    np.testing.assert_allclose(opposite.head_agreement, -1.0, rtol=1e-12)
    independent = head_stats(query, key, value)
    assert np.all(np.abs(independent.head_agreement) < 0.05)


def test_gradient_norms_appear_only_with_an_upstream_gradient():
    query, key, value = random_qkv(6)
    assert head_stats(query, key, value).grad_value_norm is None
    # Zero queries give uniform weights, so dV = Pᵀ G has every row equal to (Σ_i G_i) / L.
    grad_output = np.random.default_rng(7).standard_normal((1, H, L, E))
    stats = head_stats(np.zeros_like(query), key, value, grad_output)
    expected = math.sqrt(L) * np.linalg.norm(grad_output.sum(axis=-2), axis=-1)[0] / L
    np.testing.assert_allclose(stats.grad_value_norm, expected, rtol=1e-12)
    # dK = scale · dZᵀ Q vanishes with the queries; dQ does not.
    np.testing.assert_array_equal(stats.grad_key_norm, 0.0)
    assert np.all(stats.grad_query_norm > 0)


def test_grouped_query_heads_report_the_key_head_they_read():
    rng = np.random.default_rng(8)
    query = rng.standard_normal((1, H, L, E))
    key, value = (rng.standard_normal((1, 2, L, E)) for _ in range(2))
    stats = head_stats(query, key, value, rng.standard_normal((1, H, L, E)), enable_gqa=True)
    # Query heads 0–3 read key head 0 and 4–7 key head 1 (PyTorch's repeat_interleave).
    key_norms = np.linalg.norm(key, axis=-1).mean(axis=(0, 2))
    np.testing.assert_allclose(stats.key_norm, np.repeat(key_norms, 4), rtol=1e-12)
    assert np.all(stats.grad_key_norm[:4] == stats.grad_key_norm[0])
    assert np.all(stats.grad_key_norm[4:] == stats.grad_key_norm[4])


def test_x14_figures_at_initialisation():
    # X14 (n = 128, d = 128): unscaled mean max weight ≈ 0.82 and entropy ≈ 0.48 nats; scaled
    # ≈ 0.07 and ≈ 4.35. The notes quote single runs, which vary by about 0.02 and 0.04 nats.
    query, key, value = random_qkv(9, shape=(1, H, 128, 128))
    unscaled = head_stats(query, key, value, scale=1.0)
    scaled = head_stats(query, key, value)
    assert unscaled.max_weight.mean() == pytest.approx(0.82, abs=0.05)
    assert unscaled.entropy.mean() == pytest.approx(0.48, abs=0.1)
    assert scaled.max_weight.mean() == pytest.approx(0.07, abs=0.01)
    assert scaled.entropy.mean() == pytest.approx(4.35, abs=0.05)


# Fault symptoms (the notes' G3, G4, G6, E5, F4, X4, X10) ------------------------------------------


def test_missing_scale_gives_low_entropy_and_a_high_max_weight():
    qkv = random_qkv(10)
    healthy, faulty = head_stats(*qkv), head_stats(*qkv, fault=Fault.missing_scale)
    assert np.all(faulty.entropy_normalized < 0.3) and np.all(healthy.entropy_normalized > 0.85)
    assert np.all(faulty.max_weight > 0.5) and np.all(healthy.max_weight < 0.1)
    np.testing.assert_allclose(faulty.effective_scale, 1.0, rtol=1e-12)


def test_double_scaling_is_near_uniform():
    stats = head_stats(*random_qkv(11), fault=Fault.double_scale)
    assert np.all(stats.entropy_normalized > 0.99)
    assert np.all(stats.max_weight < 1.5 / L)
    np.testing.assert_allclose(stats.effective_scale, 1 / E, rtol=1e-12)


def test_scaling_by_d_model_is_flatter_than_correct():
    qkv = random_qkv(12)
    healthy, faulty = head_stats(*qkv), head_stats(*qkv, fault=Fault.scale_by_d_model)
    assert np.all(faulty.entropy_normalized > healthy.entropy_normalized)
    assert np.all(faulty.max_weight < healthy.max_weight)
    np.testing.assert_allclose(faulty.effective_scale, 1 / math.sqrt(H * E), rtol=1e-12)


def test_unsplit_heads_are_sharper_and_identical():
    qkv = random_qkv(13)
    healthy, faulty = head_stats(*qkv), head_stats(*qkv, fault=Fault.heads_not_split)
    assert np.all(faulty.entropy_normalized < healthy.entropy_normalized)
    assert np.all(faulty.max_weight > healthy.max_weight)
    # A dot product over d_model = H·E has √H times the spread, still scaled by 1/√E.
    np.testing.assert_allclose(faulty.score_std_scaled, math.sqrt(H), rtol=0.1)
    np.testing.assert_allclose(faulty.head_agreement, 1.0, rtol=1e-12)


def test_without_the_causal_mask_later_keys_change_earlier_outputs():
    # X10: perturb every key and value after position t; outputs up to t must not move.
    query, key, value = random_qkv(14)
    t = L // 2
    later = np.zeros_like(key)
    later[..., t + 1 :, :] = 1.0
    for fault, leaks in ((None, False), (Fault.no_causal_mask, True)):
        before = attention(query, key, value, is_causal=True, fault=fault).output
        after = attention(query, key + later, value + later, is_causal=True, fault=fault).output
        changed = not np.array_equal(before[..., : t + 1, :], after[..., : t + 1, :])
        assert changed == leaks, fault
    healthy = head_stats(query, key, value, is_causal=True)
    faulty = head_stats(query, key, value, is_causal=True, fault=Fault.no_causal_mask)
    assert np.all(healthy.future_weight == 0.0)
    assert np.all(faulty.future_weight > 0.3)  # row i puts about (L − 1 − i)/L on the future


def test_fully_masked_row_is_nan_or_zero_by_policy():
    qkv = random_qkv(15)
    as_nan = attention(*qkv, empty_rows="nan", fault=Fault.fully_masked_row).output
    as_zero = attention(*qkv, empty_rows="zero", fault=Fault.fully_masked_row).output
    assert np.all(np.isnan(as_nan[..., -1, :])) and np.all(np.isfinite(as_nan[..., :-1, :]))
    assert np.all(as_zero[..., -1, :] == 0.0) and np.all(np.isfinite(as_zero))
    batch = qkv[0].shape[0]
    nan_stats = head_stats(*qkv, empty_rows="nan", fault=Fault.fully_masked_row)
    zero_stats = head_stats(*qkv, empty_rows="zero", fault=Fault.fully_masked_row)
    assert np.all(nan_stats.empty_rows == batch) and np.all(zero_stats.empty_rows == batch)
    assert np.all(nan_stats.output_nan == batch * E) and np.all(zero_stats.output_nan == 0)
    # The empty rows are counted, not mistaken for rows that fail to sum to one.
    np.testing.assert_allclose(zero_stats.row_sum_error, 0.0, atol=1e-12)


def test_float16_scores_overflow_with_large_inputs():
    # X4: unshifted exp overflows in float16 once a scaled score passes ln 65504 ≈ 11.09; with
    # component std 4 the scaled scores have std 16.
    large = random_qkv(16, std=4.0)
    faulty = head_stats(*large, fault=Fault.float16_scores)
    assert np.all(faulty.weights_nan + faulty.scores_inf + faulty.scores_nan > 0)
    assert np.all(faulty.output_nan > 0)
    for stats in (head_stats(*large), head_stats(*random_qkv(16), fault=Fault.float16_scores)):
        assert np.all(stats.weights_nan + stats.output_nan + stats.output_inf == 0)
        assert np.all(stats.zero_rows == 0)


def test_float16_denominators_that_overflow_leave_rows_of_zeros():
    # Several exps just below 65504 sum past it: every weight becomes x / inf = 0, with no NaN.
    faulty = head_stats(*random_qkv(16, std=2.0), fault=Fault.float16_scores)
    assert faulty.zero_rows.sum() > 0
    assert np.all(faulty.row_sum_error < 1e-2)  # the measured rows still sum to one


def test_float16_products_beyond_65504_are_inf_before_the_softmax():
    # X4: Q Kᵀ itself leaves float16's range; components of std 60 give raw std 60²·8 = 28,800.
    stats = head_stats(*random_qkv(17, std=60.0), fault=Fault.float16_scores)
    assert np.all(stats.scores_inf > 0)


def test_softmax_over_queries_leaves_rows_not_summing_to_one():
    qkv = random_qkv(18)
    healthy = head_stats(*qkv)
    faulty = head_stats(*qkv, fault=Fault.softmax_over_queries)
    assert np.all(healthy.row_sum_error < 1e-12)
    assert np.all(faulty.row_sum_error > 0.1)


def test_softmax_over_queries_with_uniform_scores_gives_rows_of_s_over_l():
    # Equal scores make every column uniform over the L queries: each row sums to S / L.
    _, key, value = random_qkv(19, shape=(1, H, 32, E))
    stats = head_stats(np.zeros((1, H, 8, E)), key, value, fault=Fault.softmax_over_queries)
    np.testing.assert_allclose(stats.row_sum_error, 32 / 8 - 1, rtol=1e-12)


def test_non_finite_inputs_are_counted_per_head():
    query, key, value = random_qkv(20)
    query[0, 3, 5, 7] = np.nan
    value[0, 6, 0, 0] = np.inf
    stats = head_stats(query, key, value)
    expected = np.zeros(H, dtype=int)
    expected[[3, 6]] = 1
    np.testing.assert_array_equal(stats.inputs_nonfinite, expected)
    assert stats.output_nan[3] > 0 and stats.weights_nan[3] > 0


def test_nanmedian_is_numpys_over_the_last_axis_nan_rows_included():
    rng = np.random.default_rng(21)
    for _ in range(500):
        shape = tuple(rng.integers(1, 7, size=rng.integers(1, 4)))
        x = rng.normal(size=shape)
        x[rng.random(shape) < rng.random()] = np.nan  # from no NaN to whole rows of them
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # numpy warns on all-NaN rows
            expected = np.nanmedian(x, axis=-1)
        np.testing.assert_array_equal(nanmedian(x), expected)
