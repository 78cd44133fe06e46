"""What validate cannot check in the testing and diagnosis questions of bank part C.

Closed forms in the questions are checked against the engine, the facts their explanations state
are checked numerically, and the answer of every fault-naming question is checked against what
the engine's own `diagnose` makes of the same run.
"""

import math
import re

import numpy as np
import pytest

import engine
from quiz.bank import load_bank
from quiz.format.checks import check_question
from quiz.format.diagnostics import Report
from quiz.grading.tolerance import within
from quiz.types.draw import make_variant

NUMERIC_QUESTIONS = [
    "two-key-test-tolerance",
    "row-sum-test-wrong-axis",
    "variance-test-standard-errors",
    "variance-test-standard-error-closed-form",
    "causal-leak-perturbation-test",
    "fused-kernel-comparison-gap",
    "float16-weight-rounding-tolerance",
    "gradient-test-two-key-query",
    "divisor-from-score-stds",
    "logit-growth-score-spread",
]


@pytest.fixture(scope="module")
def bank():
    return load_bank()


def variants(bank, question_id: str, seeds: range):
    compiled = check_question(bank.questions[question_id], bank.claims, Report())
    assert compiled is not None
    return [make_variant(compiled, seed) for seed in seeds]


# --- closed forms against the engine -------------------------------------------------------


@pytest.mark.parametrize("d_k", [4, 16, 32])
def test_standard_error_of_the_variance_matches_the_engine(d_k):
    """sqrt((2 d² + 6 d) / n): the spread of the estimate over many samples, and the engine's SE."""
    n = 500
    closed_form = math.sqrt((2 * d_k**2 + 6 * d_k) / n)
    samples = [engine.score_variance(d_k, n, seed) for seed in range(300)]
    spread = np.std([s.variance for s in samples], ddof=1)
    mean_se = np.mean([s.standard_error for s in samples])
    assert spread == pytest.approx(closed_form, rel=0.1)
    assert mean_se == pytest.approx(closed_form, rel=0.03)
    # The normal-data formula misses the products' heavy tails, by sqrt(1 + 3/d).
    assert d_k * math.sqrt(2 / n) < 0.99 * mean_se


def test_float16_half_gap_is_numpys_spacing_and_bounds_the_rounding():
    for p in np.round(np.arange(0.02, 0.985, 0.01), 2):
        exponent = math.floor(math.log2(p))
        if abs(p - 2.0**exponent) <= 0.005:
            continue  # the question excludes powers of two
        half_gap = 2.0 ** (exponent - 11)
        assert half_gap == float(np.spacing(np.float16(p))) / 2
        assert abs(float(np.float16(p)) - p) <= half_gap


def test_prescaled_queries_in_a_scaling_kernel_equal_the_double_scale_fault():
    rng = np.random.default_rng(0)
    for d_k in (16, 64):
        q, k, v = rng.normal(size=(1, d_k)), rng.normal(size=(3, d_k)), rng.normal(size=(3, 2))
        fused = engine.scaled_dot_product_attention(q / math.sqrt(d_k), k, v)
        assert np.allclose(fused, engine.attention(q, k, v, fault="double_scale").output)


def test_score_std_ratio_names_the_divisor_exactly():
    rng = np.random.default_rng(1)
    h, d_k = 8, 32
    q, k = rng.normal(size=(h, 4, d_k)), rng.normal(size=(h, 4, d_k))
    expected = {None: math.sqrt(d_k), "double_scale": d_k, "scale_by_d_model": math.sqrt(h * d_k)}
    for fault, divisor in expected.items():
        run = engine.attention(q, k, k, fault=fault)
        raw = run.scores.reshape(h, -1).std(axis=1)
        scaled = run.scaled.reshape(h, -1).std(axis=1)
        assert np.allclose(raw / scaled, divisor)


def test_growing_queries_and_keys_multiply_the_score_spread_by_both_factors():
    rng = np.random.default_rng(2)
    q, k = rng.normal(size=(1, 16, 32)), rng.normal(size=(1, 16, 32))
    a, b = 1.7, 2.3
    before = engine.attention(q, k, k).scaled.std()
    after = engine.attention(a * q, b * k, b * k).scaled.std()
    assert after == pytest.approx(a * b * before)
    # and the entropy collapses as the explanation says
    assert engine.entropy(engine.attention(a * q, b * k, b * k).weights).mean() < engine.entropy(
        engine.attention(q, k, k).weights
    ).mean()


# --- facts the explanations state ----------------------------------------------------------


def test_causal_outputs_before_t_do_not_move_when_later_tokens_change():
    """X10: perturb queries, keys and values after t; a causal layer keeps outputs up to t exactly."""
    rng = np.random.default_rng(3)
    x = rng.normal(size=(6, 8))
    y = x.copy()
    y[4:] += rng.normal(size=(2, 8))
    good_x, good_y = (engine.attention(t, t, t, is_causal=True).output for t in (x, y))
    assert np.array_equal(good_x[:4], good_y[:4])
    bad_x, bad_y = (engine.attention(t, t, t, is_causal=True, fault="no_causal_mask").output for t in (x, y))
    assert np.abs(bad_x[:4] - bad_y[:4]).max() > 1e-3


def test_a_value_change_moves_each_unmasked_output_by_its_weight_times_delta():
    rng = np.random.default_rng(4)
    s, v = rng.normal(size=(3, 3)), rng.normal(size=(3, 1))
    delta = 3.0
    v2 = v + np.array([[0], [0], [delta]])
    run = engine.attention(s, np.eye(3), v, is_causal=True, scale=1, fault="no_causal_mask")
    run2 = engine.attention(s, np.eye(3), v2, is_causal=True, scale=1, fault="no_causal_mask")
    assert np.allclose(run2.output - run.output, run.weights[:, 2:3] * delta)


def test_softmax_over_queries_with_a_causal_mask_leaves_row_1_short_and_row_3_over():
    rng = np.random.default_rng(5)
    for _ in range(200):
        s = rng.normal(scale=1.5, size=(3, 3))
        w = engine.attention(s, np.eye(3), np.ones((3, 1)), is_causal=True, scale=1, fault="softmax_over_queries").weights
        sums = w.sum(axis=-1)
        assert sums[0] < 1 < sums[2]
        assert np.allclose(w.sum(axis=0), 1)


@pytest.mark.parametrize(
    ("z", "outcome"),
    [([10.4, 9.4, 3, 1], "finite"), ([10.7, 10.2, 8, 8], "zeros"), ([11.2, 5, 2, 1], "nan")],
)
def test_unshifted_float16_softmax_outcomes(z, outcome):
    """nan-source-from-counts: an overflowed exp gives ∞/∞ = NaN; finite numerators over ∞ give 0."""
    w = engine.attention(np.array([z]), np.eye(4), np.ones((4, 1)), scale=1, fault="float16_scores").weights[0]
    if outcome == "finite":
        assert np.isfinite(w).all() and w.sum() == pytest.approx(1, abs=2e-3)
    elif outcome == "zeros":
        assert (w == 0).all()  # no exp overflows, their sum does
    else:
        assert np.isnan(w[0]) and (w[1:] == 0).all()


def test_x14_claim_states_the_simulated_initialisation_figures(bank):
    """The claim's four figures (mean max weight and entropy, unscaled then scaled) to the digits it gives.

    The notes said 0.82 and 0.48 nats unscaled; random heads give 0.836 and 0.443 (about
    0.002 and 0.005 standard error over 32 heads), so the claim states 0.84 and 0.44.
    """
    rng = np.random.default_rng(6)
    q, k = rng.normal(size=(32, 128, 128)), rng.normal(size=(32, 128, 128))
    unscaled = engine.attention(q, k, k, fault="missing_scale").weights
    scaled = engine.attention(q, k, k).weights
    per_head = [  # each (32,): one figure per head, averaged over its 128 query rows
        unscaled.max(axis=-1).mean(axis=-1),
        engine.entropy(unscaled).mean(axis=-1),
        scaled.max(axis=-1).mean(axis=-1),
        engine.entropy(scaled).mean(axis=-1),
    ]
    claim = bank.claims.claims["X14"]
    for text in (claim.en, claim.ja):
        stated = [float(a or b) for a, b in re.findall(r"約 ?(\d\.\d+)|≈ (\d\.\d+)", text)]
        assert len(stated) == 4, text
        for figure, heads in zip(stated, per_head, strict=True):
            rounding = 0.5 * 10.0 ** -len(str(figure).split(".")[1])
            error = heads.std(ddof=1) / math.sqrt(len(heads))
            assert abs(heads.mean() - figure) <= rounding + 3 * error, (text, figure, heads.mean(), error)


def test_correct_layer_at_init_keeps_about_0_8_to_0_9_of_the_maximum_entropy():
    """The size used by sharp-or-flat-heads-at-init: 12 keys, d_k = 32."""
    rng = np.random.default_rng(7)
    q, k = rng.normal(size=(400, 12, 32)), rng.normal(size=(400, 12, 32))
    share = engine.entropy(engine.attention(q, k, k).weights).mean() / math.log(12)
    assert 0.8 < share < 0.9


def test_double_scale_rows_are_near_uniform_and_missing_scale_rows_near_one_hot():
    """The signatures name-fault-from-weights relies on, at d_k = 64 under a causal mask."""
    rng = np.random.default_rng(8)
    allowed = engine.causal_mask(5)
    uniform = allowed / allowed.sum(axis=-1, keepdims=True)
    flat, sharp = [], []
    for _ in range(200):
        q, k = rng.normal(size=(5, 64)), rng.normal(size=(5, 64))
        flat.append(np.abs(engine.attention(q, k, k, is_causal=True, fault="double_scale").weights - uniform).max())
        sharp.append(engine.attention(q, k, k, is_causal=True, fault="missing_scale").weights[1:].max(axis=-1).mean())
    assert np.max(flat) < 0.15
    assert np.mean(sharp) > 0.9


# --- every fault-naming question agrees with the engine's diagnose -------------------------

DIAGNOSE_CAUSE = {
    "low-entropy-learned-or-fault": {
        "learned": "no_fault_evident",
        "missing_scale": "missing_scale",
        "logit_growth": "growing_projection_weights",
    },
    "nan-source-from-counts": {
        "fully_masked_row": "fully_masked_row",
        "float16_scores": "float16_scores",
        "nonfinite_inputs": "nonfinite_inputs",
    },
    "fix-from-layer-figures": {
        "none": "no_fault_evident",
        "scale_by_d_model": "scale_by_d_model",
        "no_causal_mask": "no_causal_mask",
        "softmax_over_queries": "softmax_over_queries",
        "fully_masked_row": "fully_masked_row",
    },
    "evidence-heads-not-split": {"agreement": "heads_not_split"},
}


@pytest.mark.parametrize("question_id", list(DIAGNOSE_CAUSE))
def test_the_key_is_what_diagnose_finds_first(bank, question_id):
    seen = set()
    for variant in variants(bank, question_id, range(40)):
        [answer] = (
            [variant.answer]
            if variant.answer is not None
            else [o.id for o in variant.question.options if o.correct]
        )
        findings = engine.diagnose(variant.values["stats"])
        assert findings[0].cause.value == DIAGNOSE_CAUSE[question_id][answer], variant.key
        seen.add(answer)
    assert seen == set(DIAGNOSE_CAUSE[question_id])  # every case is drawn


DRAWN_ANSWERS = {
    "name-fault-from-weights": {
        "none", "missing_scale", "double_scale", "no_causal_mask", "softmax_over_queries", "fully_masked_row"
    },
    "sharp-or-flat-heads-at-init": {"sharp", "flat", "healthy"},
    "entropy-drop-shorter-sequences": {"length", "shift", "leak"},
}


@pytest.mark.parametrize("question_id", list(DRAWN_ANSWERS))
def test_every_drawable_answer_comes_up(bank, question_id):
    assert {v.answer for v in variants(bank, question_id, range(60))} == DRAWN_ANSWERS[question_id]


def test_entropy_drop_cases_read_as_their_explanation_says(bank):
    for variant in variants(bank, "entropy-drop-shorter-sequences", range(40)):
        values = variant.values
        log_n = math.log(values["n_b"])
        if variant.answer == "leak":
            assert values["h_b"] > log_n  # impossible for weights on n_b keys
        else:
            assert values["h_b"] <= log_n + 1e-12


# --- misconceptions stay apart from the key ------------------------------------------------


@pytest.mark.parametrize("question_id", NUMERIC_QUESTIONS)
def test_misconceptions_differ_from_the_key_on_200_seeds(bank, question_id):
    tolerance = bank.questions[question_id].tolerance
    for variant in variants(bank, question_id, range(200)):
        for name, value in variant.misconceptions.items():
            assert not within(np.asarray(value), np.asarray(variant.answer), tolerance).all(), (variant.key, name)
