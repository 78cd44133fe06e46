"""Bank part A (attention, scaling, alternatives): what `quiz validate` cannot check.

Closed forms used as answer keys are checked against the engine (shapes, element counts,
simulations with fixed seeds), the claim facts the questions rely on are reproduced, and every
numeric question of these files is self-tested on 100 seeds (validate runs 50).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import bank_parts
import engine
from quiz.bank import load_bank

PART_FILES = ("attention.yaml", "scaling-derivation.yaml", "alternatives.yaml")


@pytest.fixture(scope="module")
def bank():
    return load_bank()


def part_ids(bank) -> list[str]:
    return bank_parts.part_ids(bank, PART_FILES)


def variants(bank, question_id: str, seeds: int = 40):
    return bank_parts.variants(bank, question_id, seeds)


@pytest.mark.slow
def test_every_key_and_misconception_of_the_part_holds_on_100_seeds(bank):
    ids = part_ids(bank)
    assert len(ids) >= 30
    bank_parts.assert_self_tests_hold(bank, ids)


# --- attention.yaml -------------------------------------------------------------------------


def test_score_memory_counts_what_the_engine_materialises(bank):
    # The engine's weights for (B, h, n, n) float32 inputs hold exactly B·h·n² four-byte numbers.
    rng = np.random.default_rng(0)
    B, h, n, d = 2, 3, 5, 4
    q, k, v = (rng.normal(size=(B, h, n, d)).astype(np.float32) for _ in range(3))
    weights = engine.attention(q, k, v).weights
    assert weights.shape == (B, h, n, n) and weights.nbytes == B * h * n * n * 4
    for variant in variants(bank, "score-matrix-memory"):
        x = variant.values
        assert variant.answer == pytest.approx(x["B"] * x["h"] * x["n"] ** 2 * x["bytes_per"] / 2**30)


@pytest.mark.parametrize(("n", "d_model", "h"), [(6, 8, 2), (5, 12, 4), (7, 12, 1)])
def test_multi_head_cost_is_two_n_squared_d_model_whatever_the_heads(n, d_model, h):
    x = np.random.default_rng(1).normal(size=(n, d_model))
    heads = engine.split_heads(x, h)  # (h, n, d_k)
    run = engine.attention(heads, heads, heads)
    d_k = heads.shape[-1]
    # each score is a d_k-term dot product; each output entry a sum over the n keys
    multiply_adds = run.scores.size * d_k + run.output.size * run.weights.shape[-1]
    assert multiply_adds == 2 * n * n * d_model


def test_kv_cache_bytes_per_token_match_the_cached_key_and_value_tensors(bank):
    for variant in variants(bank, "kv-cache-size-gqa", seeds=20):
        x = variant.values
        g, layers, tokens = x["g"], x["layers"], 3
        states = np.zeros((1, tokens, 256))
        keys = engine.split_heads(states @ np.zeros((256, g * 128)), g)  # (1, g, tokens, 128)
        values = engine.split_heads(states @ np.zeros((256, g * 128)), g)
        per_token = layers * (keys.size + values.size) * 2 / tokens  # float16: 2 bytes
        assert x["per_token"] == per_token
        assert variant.answer == pytest.approx(x["B"] * x["n"] * per_token / 2**30)


def test_gqa_weights_keep_one_row_per_query_head():
    q = np.random.default_rng(2).normal(size=(2, 8, 1, 4))
    kv = np.random.default_rng(3).normal(size=(2, 2, 6, 4))
    run = engine.attention(q, kv, kv, enable_gqa=True)
    assert run.weights.shape == (2, 8, 1, 6)
    # heads 0-3 share key/value head 0, yet their weights differ because their queries do
    assert not np.allclose(run.weights[:, 0], run.weights[:, 1])


def test_permutation_reorders_the_outputs_and_the_listed_inverses_are_inverses(bank):
    for variant in variants(bank, "permutation-equivariance-output"):
        x = variant.values
        perm, inverse = x["perm"].astype(int), x["inverse"].astype(int)
        assert (perm[inverse] == np.arange(4)).all()
        np.testing.assert_allclose(x["new"].output, x["O"][perm], atol=1e-12)


def test_output_variance_matches_a_simulation(bank):
    rng = np.random.default_rng(4)
    for variant in variants(bank, "attention-output-variance", seeds=5):
        p, sigma = variant.values["p"], variant.values["sigma_v"]
        values = rng.normal(0.0, sigma, size=(200_000, p.size))
        simulated = np.var(values @ p)
        assert simulated == pytest.approx(variant.answer, rel=0.02)


# --- scaling-derivation.yaml ----------------------------------------------------------------


@pytest.mark.slow
def test_unequal_scales_and_mean_shift_variances_match_the_engine_simulation(bank):
    # Var(q·k) = d_k σ_q² σ_k² (X1) and d_k (1 + 2μ²) (X2), within four standard errors.
    for variant in variants(bank, "raw-score-variance-unequal-scales", seeds=5):
        x = variant.values
        sim = engine.score_variance(x["d_k"], 20_000, 3, std_q=x["sigma_q"], std_k=x["sigma_k"])
        assert abs(sim.standard_errors_from(variant.answer)) < 4
    for variant in variants(bank, "mean-shift-score-variance", seeds=5):
        x = variant.values
        sim = engine.score_variance(x["d_k"], 20_000, 5, mean=x["mu"])
        assert abs(sim.standard_errors_from(variant.answer)) < 4


def test_within_row_variance_keeps_the_query_mean_and_drops_the_key_mean():
    rng = np.random.default_rng(6)
    d_k, mu_q, mu_k = 64, 1.2, 0.7
    q = rng.normal(mu_q, 1.0, size=(400, d_k))
    k = rng.normal(mu_k, 1.0, size=(4000, d_k))
    scaled = q @ k.T / math.sqrt(d_k)  # (queries, keys)
    within = scaled.var(axis=1).mean()
    assert within == pytest.approx(1 + mu_q**2, rel=0.03)
    assert scaled.var() == pytest.approx(1 + mu_q**2 + mu_k**2, rel=0.05)
    # the softmax does not see the row-common part: weights equal those of centred keys
    np.testing.assert_allclose(
        engine.softmax(scaled[:3]), engine.softmax(q[:3] @ (k - mu_k).T / math.sqrt(d_k)), atol=1e-12
    )


def init_figures(d_k: int, scaled: bool, trials: int = 40, n: int = 128) -> tuple[float, float]:
    """Mean largest weight and mean entropy (nats) of random heads at initialisation."""
    rng = np.random.default_rng(7)
    largest, entropy = [], []
    for _ in range(trials):
        q, k = rng.normal(size=(n, d_k)), rng.normal(size=(n, d_k))
        weights = engine.attention(q, k, k, scale=None if scaled else 1.0).weights
        largest.append(weights.max(axis=-1).mean())
        entropy.append(engine.entropy(weights).mean())
    return float(np.mean(largest)), float(np.mean(entropy))


def test_x14_initialisation_figures_and_the_options_built_on_them():
    unscaled = init_figures(128, scaled=False)
    assert unscaled[0] == pytest.approx(0.84, abs=0.015) and unscaled[1] == pytest.approx(0.44, abs=0.03)
    scaled = init_figures(128, scaled=True)
    assert scaled[0] == pytest.approx(0.07, abs=0.005) and scaled[1] == pytest.approx(4.37, abs=0.03)
    narrow = init_figures(8, scaled=False)
    assert narrow[0] == pytest.approx(0.37, abs=0.03) and narrow[1] == pytest.approx(2.5, abs=0.1)


def test_top_two_of_128_normals_are_about_a_third_of_a_deviation_apart():
    draws = np.sort(np.random.default_rng(8).normal(size=(20_000, 128)), axis=1)
    gap = (draws[:, -1] - draws[:, -2]).mean()
    assert gap == pytest.approx(0.35, abs=0.02)
    assert gap * math.sqrt(128) == pytest.approx(4, abs=0.2)


@pytest.mark.parametrize("d_k", [16, 64, 256])
def test_dividing_by_d_k_leaves_a_spread_of_one_over_root_d_k(d_k):
    sim = engine.score_variance(d_k, 20_000, 9, scale=1 / d_k)
    assert abs(sim.standard_errors_from(1 / d_k)) < 4


# --- alternatives.yaml ----------------------------------------------------------------------


def test_folding_the_factor_into_w_q_gives_the_standard_weights(bank):
    for variant in variants(bank, "fold-scale-into-wq"):
        x = variant.values
        np.testing.assert_allclose(x["folded"].weights, x["standard"].weights, atol=1e-12)


def test_soft_cap_written_with_exp_is_c_tanh():
    z = np.linspace(-40, 40, 161)
    for c in (5.0, 8.0, 10.0):
        with_exp = c * (1 - 2 / (np.exp(2 * z / c) + 1))
        np.testing.assert_allclose(with_exp, c * np.tanh(z / c), atol=1e-12)
        assert np.all(np.diff(with_exp) > 0) and np.all(np.abs(with_exp) < c)


def test_cosine_bound_is_reached_and_never_beaten():
    rng = np.random.default_rng(10)
    tau, n, d = 3.0, 16, 8
    bound = 1 / (1 + (n - 1) * math.exp(-2 * tau))
    q = rng.normal(size=d)
    q /= np.linalg.norm(q)
    extreme = np.vstack([q, np.tile(-q, (n - 1, 1))])  # one key along q, the rest opposite
    assert engine.softmax(tau * extreme @ q)[0] == pytest.approx(bound, rel=1e-12)
    keys = rng.normal(size=(2000, n, d))
    keys /= np.linalg.norm(keys, axis=-1, keepdims=True)
    assert engine.softmax(tau * keys @ q).max() < bound


def test_cosine_logits_can_reorder_keys_that_dot_products_rank():
    # The "same weights up to a constant" option is false: lengths differ from key to key.
    q = np.array([1.0, 0.0])
    keys = np.array([[3.0, 3.0], [1.0, 0.1]])
    dot = keys @ q
    cosine = keys @ q / np.linalg.norm(keys, axis=1)
    assert np.argmax(dot) != np.argmax(cosine)


def test_qk_norm_weights_ignore_a_doubled_w_k():
    rng = np.random.default_rng(11)
    x, w_q, w_k = rng.normal(size=(5, 6)), rng.normal(size=(6, 4)), rng.normal(size=(6, 4))

    def weights(w_key: np.ndarray) -> np.ndarray:
        q, k = x @ w_q, x @ w_key
        q = q / np.linalg.norm(q, axis=-1, keepdims=True)
        k = k / np.linalg.norm(k, axis=-1, keepdims=True)
        return engine.attention(q, k, k, scale=10.0).weights

    np.testing.assert_allclose(weights(w_k), weights(2 * w_k), atol=1e-12)


def test_correlated_pairs_have_mean_rho_d_k_and_variance_d_k_one_plus_rho_squared():
    rng = np.random.default_rng(12)
    d_k, rho, samples = 128, 0.4, 20_000
    q = rng.normal(size=(samples, d_k))
    k = rho * q + math.sqrt(1 - rho**2) * rng.normal(size=(samples, d_k))
    s = np.einsum("nd,nd->n", q, k)
    assert (s / math.sqrt(d_k)).mean() == pytest.approx(rho * math.sqrt(d_k), rel=0.02)
    assert (s / d_k).mean() == pytest.approx(rho, rel=0.02)
    assert (s / math.sqrt(d_k)).var() == pytest.approx(1 + rho**2, rel=0.05)


def test_checkpoint_switch_is_the_raw_score_over_d_k(bank):
    for variant in variants(bank, "checkpoint-factor-switch"):
        x = variant.values
        raw = x["z"] * math.sqrt(x["d_k"])
        np.testing.assert_allclose(engine.softmax(raw / x["d_k"]), x["after"], atol=1e-12)


def test_entropy_sensitivity_is_the_weighted_variance_of_the_logits(bank):
    # ∂H/∂(log τ) = Var_p(z/τ), against a central difference of the engine's entropy.
    for variant in variants(bank, "temperature-entropy-sensitivity"):
        z, tau = variant.values["z"], variant.values["tau"]
        h = 1e-5
        up = engine.entropy(engine.softmax(z / (tau * math.exp(h))))
        down = engine.entropy(engine.softmax(z / (tau * math.exp(-h))))
        assert (up - down) / (2 * h) == pytest.approx(variant.answer, rel=1e-6)


def test_entropy_rises_with_the_temperature():
    z = np.random.default_rng(13).normal(size=(50, 5)) * 1.5
    taus = np.array([0.4, 0.5, 0.6, 1.0, 1.5, 2.0, 2.5, 3.0])
    h = np.stack([engine.entropy(engine.softmax(z / tau)) for tau in taus])  # (taus, rows)
    assert np.all(np.diff(h, axis=0) > 0) and np.all(h < math.log(5))


def test_projected_score_spread_matches_an_engine_run():
    # q = x W_Q, k = x' W_K with unit-variance inputs: the scaled scores spread d_model σ_w².
    rng = np.random.default_rng(14)
    d_model, h, sigma_w, trials = 256, 8, 0.05, 30
    d_k = d_model // h
    spreads = []
    for _ in range(trials):
        w_q, w_k = rng.normal(0, sigma_w, size=(2, d_model, d_k))
        queries, keys = rng.normal(size=(2, 64, d_model))  # two independent sets of tokens
        run = engine.attention(queries @ w_q, keys @ w_k, keys @ w_k)
        spreads.append(run.scaled.var())
    assert math.sqrt(np.mean(spreads)) == pytest.approx(d_model * sigma_w**2, rel=0.05)
