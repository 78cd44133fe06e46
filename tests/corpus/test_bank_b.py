"""The softmax and implementation questions of bank part B: what `quiz validate` cannot check.

Closed forms and the answer keys are checked against the engine (and the engine against finite
differences where a key takes a route of its own), every misconception is told apart from the key
on 200 seeds, and the facts the explanations state are checked numerically.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

import engine
from quiz.bank import load_bank
from quiz.grading.tolerance import within
from quiz.types.draw import make_variant
from quiz.types.registry import type_of

SEEDS = range(200)

SOFTMAX = [
    "softmax-shift-invariance",
    "softmax-tied-top-weights",
    "two-position-attention-output",
    "softmax-temperature-entropy",
    "softmax-jacobian-matrix",
    "saturated-softmax-derivative",
    "score-gradient-through-softmax",
    "scaling-gradient-ratio",
]
PIPELINE = [
    "multihead-scale-divisor",
    "cross-attention-score-shape",
    "head-scale-mistakes-weights",
    "padding-mask-batch-weights",
    "masked-after-softmax-row-sums",
    "dropout-attention-weights",
]
KERNELS = ["online-softmax-running-sum", "fused-kernel-double-scale"]
NUMERIC = SOFTMAX + PIPELINE + KERNELS


@pytest.fixture(scope="module")
def bank():
    return load_bank()


_VARIANTS: dict[str, list] = {}


def variants(bank, question_id: str, seeds=SEEDS):
    """The variants of `question_id` for `seeds`, drawn once per test session."""
    if question_id not in _VARIANTS:
        compiled = bank.compiled(question_id)
        assert compiled is not None, bank.problems(question_id)
        _VARIANTS[question_id] = [make_variant(compiled, seed) for seed in SEEDS]
    return [_VARIANTS[question_id][seed] for seed in seeds]


@pytest.mark.parametrize("question_id", NUMERIC)
def test_every_misconception_is_told_apart_from_the_key_and_the_others(bank, question_id):
    question = bank.questions[question_id]
    kind = type_of(question)
    for variant in variants(bank, question_id):
        for misconception in question.misconceptions:
            value = variant.misconceptions[misconception.name]
            assert not within(value, variant.answer, question.tolerance).all(), (variant.key, misconception.name)
            assert kind.grade(variant, value).misconception == misconception.name, (variant.key, misconception.name)


# Softmax facts the explanations state ------------------------------------------------------------


def test_the_notes_two_position_figures():
    """C6 and X3: [4, 0] gives ≈ [0.982, 0.018], scaled by 1/2 ≈ [0.881, 0.119]; 9.82 → 8.81."""
    raw, scaled = engine.softmax([4.0, 0.0]), engine.softmax([2.0, 0.0])
    np.testing.assert_allclose(raw, [0.982, 0.018], atol=5e-4)
    np.testing.assert_allclose(scaled, [0.881, 0.119], atol=5e-4)
    assert raw @ [10, 0] == pytest.approx(9.82, abs=0.005)
    assert scaled @ [10, 0] == pytest.approx(8.81, abs=0.005)
    assert engine.softmax_jacobian([4.0, 0.0])[0, 0] == pytest.approx(0.0177, abs=5e-5)
    assert engine.softmax_jacobian([2.0, 0.0])[0, 0] == pytest.approx(0.105, abs=5e-4)
    assert engine.softmax_jacobian([2.0, 0.0])[0, 0] / 2 == pytest.approx(0.0525, abs=5e-4)


def test_jacobian_entries_are_bounded_by_a_quarter():
    rng = np.random.default_rng(1)
    for _ in range(200):
        J = engine.softmax_jacobian(rng.normal(0, 3, size=rng.integers(2, 7)))
        assert np.abs(J).max() <= 0.25 + 1e-12
        np.testing.assert_allclose(J.sum(axis=1), 0, atol=1e-12)


def test_saturated_derivative_closed_form_and_its_neighbours(bank):
    for variant in variants(bank, "saturated-softmax-derivative"):
        a, n = variant.inputs["a"], variant.inputs["n"]
        assert variant.answer == pytest.approx((n - 1) * math.exp(a) / (math.exp(a) + n - 1) ** 2, rel=1e-12)
        J = variant.values["J"]
        # The explanation says every other entry is smaller than the one asked for.
        others = np.abs(J).copy()
        others[0, 0] = 0
        assert others.max() < J[0, 0]


def _output_loss(s, scale, V, g):
    """The loss g · softmax(s · scale) V, whose gradient in the scores s the key is."""
    return float(engine.softmax(s * scale) @ V @ g[0])


def test_score_gradient_key_matches_softmax_backward_and_finite_differences(bank):
    """The key projects attention_backward's dK on q; check it against two other routes."""
    for variant in variants(bank, "score-gradient-through-softmax", range(50)):
        v = variant.values
        q, K, V, g = (np.asarray(v[name]) for name in ("q", "K", "V", "g"))
        scale = 1 / math.sqrt(q.shape[-1])
        by_vjp = engine.softmax_vjp(v["p"], V @ g[0]) * scale
        np.testing.assert_allclose(variant.answer, by_vjp, rtol=1e-9, atol=1e-12)

        loss = functools.partial(_output_loss, scale=scale, V=V, g=g)
        s, h = q[0] @ K.T, 1e-6
        numeric = [(loss(s + h * e) - loss(s - h * e)) / (2 * h) for e in np.eye(3)]
        np.testing.assert_allclose(variant.answer, numeric, rtol=1e-5, atol=1e-8)
        assert abs(sum(variant.answer)) < 1e-12


def test_scaling_gradient_ratio_is_a_ratio_of_two_closed_forms(bank):
    for variant in variants(bank, "scaling-gradient-ratio"):
        s, d_k = variant.values["s"], variant.inputs["d_k"]

        def slope(x):  # p(1 − p) for two keys with gap x
            return math.exp(-x) / (1 + math.exp(-x)) ** 2

        assert variant.answer == pytest.approx(slope(s / math.sqrt(d_k)) / math.sqrt(d_k) / slope(s), rel=1e-9)


def test_temperature_above_one_raises_entropy_below_one_lowers_it():
    rng = np.random.default_rng(2)
    for _ in range(200):
        z = rng.normal(0, 1.5, size=4)
        h1 = engine.entropy(engine.softmax(z))
        assert engine.entropy(engine.softmax(z / 2)) > h1 > engine.entropy(engine.softmax(z / 0.5))


def test_tied_keys_share_the_weight_exactly(bank):
    for variant in variants(bank, "softmax-tied-top-weights"):
        p, tied = variant.answer, np.asarray(variant.values["tied"])
        assert tied.sum() == variant.inputs["k"]
        assert np.ptp(p[tied]) == 0 and p[tied].min() > p[~tied].max()


def test_stable_softmax_equals_the_naive_one_where_both_are_finite():
    """E6, and the feedback on subtracting the mean: e^150 overflows float32."""
    rng = np.random.default_rng(3)
    for _ in range(200):
        z = rng.normal(0, 5, size=6)
        np.testing.assert_allclose(engine.softmax(z), engine.naive_softmax(z), rtol=1e-12)
    assert np.log(np.finfo(np.float32).max) == pytest.approx(88.72, abs=0.01)
    with np.errstate(over="ignore"):
        assert np.isinf(np.exp(np.float32(150)))
    z = np.array([200.0, 0, 0, 0])
    assert z.max() - z.mean() == 150


# Pipeline facts ----------------------------------------------------------------------------------


def test_the_divisor_is_the_engines_factor_after_the_head_split(bank):
    rng = np.random.default_rng(4)
    for variant in variants(bank, "multihead-scale-divisor", range(20)):
        h, d_model = variant.inputs["h"], variant.values["d_model"]
        x = rng.normal(size=(2, 3, d_model))
        q = engine.split_heads(x, h)
        assert engine.attention(q, q, q).scale == pytest.approx(1 / variant.answer)


def test_cross_attention_score_shape_is_the_engines(bank):
    rng = np.random.default_rng(5)
    for variant in variants(bank, "cross-attention-score-shape", range(10)):
        B, h, d_k, n_q, n_k = (variant.inputs[k] for k in ("B", "h", "d_k", "n_q", "n_k"))
        q = engine.split_heads(rng.normal(size=(B, n_q, h * d_k)), h)
        kv = engine.split_heads(rng.normal(size=(B, n_k, h * d_k)), h)
        run = engine.attention(q, kv, kv)
        assert list(run.scores.shape) == list(variant.answer)
        assert engine.merge_heads(run.output).shape == (B, n_q, h * d_k)


def test_head_scale_mistakes_are_the_closed_forms(bank):
    for variant in variants(bank, "head-scale-mistakes-weights"):
        s, h, n = variant.values["s"], variant.inputs["h"], variant.inputs["n"]
        for name, divisor in (("scale_by_d_model", math.sqrt(4 * h)), ("sequence_length", n), ("no_scaling", 1), ("divide_by_d_k", 4)):
            np.testing.assert_allclose(variant.misconceptions[name], engine.softmax(s / divisor), rtol=1e-12)
        np.testing.assert_allclose(variant.answer, engine.softmax(s / 2), rtol=1e-12)


def test_padding_weights_match_the_engines_boolean_mask(bank):
    for variant in variants(bank, "padding-mask-batch-weights"):
        Z, allowed = np.asarray(variant.values["Z"]), np.asarray(variant.values["allowed"])
        # With K = I and E = 4 the engine scales Q Kᵀ = 2Z by 1/√4, giving the scores Z.
        eye = np.broadcast_to(np.eye(4), (2, 4, 4))
        run = engine.attention(2 * Z[:, None, :], eye, eye, attn_mask=allowed[:, None, :])
        np.testing.assert_allclose(run.weights[:, 0, :], variant.answer, rtol=1e-12, atol=1e-15)
        assert (variant.answer[~allowed] == 0).all()


def _mask_after_softmax(x, causal, d_k):
    return np.where(causal, engine.softmax(x / math.sqrt(d_k)), 0)


def _mask_before_softmax(x, causal, d_k):
    return engine.softmax(np.where(causal, x / math.sqrt(d_k), -np.inf))


def test_masking_after_the_softmax_leaks_the_future_and_masking_before_does_not(bank):
    for variant in variants(bank, "masked-after-softmax-row-sums", range(50)):
        S, d_k = np.asarray(variant.values["S"]), variant.inputs["d_k"]
        causal = engine.causal_mask(3)
        nudged = S.copy()
        nudged[0, 2] += 1.0  # a future key of query 1
        buggy = functools.partial(_mask_after_softmax, causal=causal, d_k=d_k)
        right = functools.partial(_mask_before_softmax, causal=causal, d_k=d_k)
        assert buggy(nudged)[0, 0] != pytest.approx(buggy(S)[0, 0])
        np.testing.assert_array_equal(right(nudged)[0], right(S)[0])
        np.testing.assert_allclose(right(S).sum(axis=1), 1)
        assert variant.answer[2] == pytest.approx(1)


def test_inverted_dropout_keeps_each_weight_on_average(bank):
    """The explanation's claim, by exact enumeration over the 16 masks."""
    for variant in variants(bank, "dropout-attention-weights", range(20)):
        p, drop = variant.values["p"], variant.inputs["p_drop"]
        expected = np.zeros(4)
        for bits in range(16):
            keep = np.array([(bits >> i) & 1 for i in range(4)], dtype=bool)
            chance = np.prod(np.where(keep, 1 - drop, drop))
            expected += chance * np.where(keep, p / (1 - drop), 0)
        np.testing.assert_allclose(expected, p, rtol=1e-12)


def test_critical_pairs_of_the_order_question_are_genuinely_critical():
    rng = np.random.default_rng(6)
    d_k, z = 16, rng.normal(0, 4, size=(3, 3))
    causal = engine.causal_mask(3)
    right = engine.softmax(np.where(causal, z / math.sqrt(d_k), -np.inf))
    # Scaling after the softmax: rows sum to 1/√d_k.
    scaled_after = engine.softmax(np.where(causal, z, -np.inf)) / math.sqrt(d_k)
    np.testing.assert_allclose(scaled_after.sum(axis=1), 1 / math.sqrt(d_k))
    # Masking after the softmax: rows no longer sum to one.
    masked_after = np.where(causal, engine.softmax(z / math.sqrt(d_k)), 0)
    assert (masked_after.sum(axis=1)[:2] < 1 - 1e-3).all()
    # Zeroing scores before the softmax does not remove a key: e^0 = 1 still counts.
    keep = np.array([True, False, True])
    dropped_scores = engine.softmax(np.where(keep, z[2] / math.sqrt(d_k), 0) / 0.5)
    assert dropped_scores[1] > 0 and not np.allclose(dropped_scores, np.where(keep, right[2], 0) / 0.5)
    # But scaling and a −∞ mask commute.
    np.testing.assert_array_equal(np.where(causal, z, -np.inf) / math.sqrt(d_k), np.where(causal, z / math.sqrt(d_k), -np.inf))


def test_fully_masked_row_facts():
    """What the policy question's feedback says: NaN, uniform in float32, −1e9 → −∞ in float16."""
    with np.errstate(invalid="ignore"):
        assert np.isnan(engine.naive_softmax(np.full(4, -np.inf))).all()
    scores = np.array([0.3, -1.2, 2.0, 0.5], dtype=np.float32)
    np.testing.assert_allclose(engine.softmax(scores + np.float32(-1e9)), 0.25)
    with np.errstate(over="ignore"):
        assert np.isneginf(np.float16(-1e9))
    with np.errstate(over="ignore", invalid="ignore"):
        assert np.isnan(engine.naive_softmax(np.full(4, -1e9).astype(np.float16))).all()


# Kernel facts ------------------------------------------------------------------------------------


def online_attention(scores: np.ndarray, values: np.ndarray, block: int) -> np.ndarray:
    """One query's attention output computed FlashAttention's way: key blocks, running max and sum."""
    m, total, acc = -np.inf, 0.0, np.zeros(values.shape[1])
    for start in range(0, len(scores), block):
        s, v = scores[start : start + block], values[start : start + block]
        m_new = max(m, s.max())
        rescale = math.exp(m - m_new) if np.isfinite(m) else 0.0
        total = total * rescale + np.exp(s - m_new).sum()
        acc = acc * rescale + np.exp(s - m_new) @ v
        m = m_new
    return acc / total


def test_online_softmax_recurrence_gives_the_engines_attention():
    rng = np.random.default_rng(7)
    for _ in range(100):
        n, d = rng.integers(2, 20), rng.integers(1, 5)
        q, K, V = rng.normal(size=(1, d)), rng.normal(0, 3, size=(n, d)), rng.normal(size=(n, 2))
        run = engine.attention(q, K, V)
        np.testing.assert_allclose(online_attention(run.scaled[0], V, int(rng.integers(1, 6))), run.output[0], rtol=1e-10)


def test_running_sum_after_block_two_is_the_full_rows_denominator(bank):
    for variant in variants(bank, "online-softmax-running-sum"):
        scores = np.concatenate([variant.values["b1"], variant.values["b2"]])
        top = int(np.argmax(scores))
        # softmax_j = e^(s_j − max) / ℓ, and e^0 = 1 at the maximum.
        assert variant.answer == pytest.approx(1 / engine.softmax(scores)[top], rel=1e-12)


def test_fused_double_scale_is_the_engines_double_scale_fault(bank):
    for variant in variants(bank, "fused-kernel-double-scale"):
        Q, K, d_k = np.asarray(variant.values["Q"]), np.asarray(variant.values["K"]), variant.inputs["d_k"]
        np.testing.assert_allclose(variant.answer, engine.attention(Q, K, K, fault="double_scale").weights, rtol=1e-12)
        np.testing.assert_allclose(variant.answer, engine.attention(Q, K, K, scale=1 / d_k).weights, rtol=1e-12)
        # Flatter than intended, as the explanation says: a smaller largest weight in every row.
        assert (variant.answer.max(axis=1) < variant.values["intended"].max(axis=1)).all()


def test_float16_outcomes_follow_the_overflow_thresholds(bank):
    limit = math.log(65504)
    seen = set()
    for variant in variants(bank, "float16-naive-softmax-outcome"):
        z = np.asarray(variant.values["z"])
        seen.add(variant.answer)
        if z.max() > limit:
            assert variant.answer == "nan"
        elif math.log(np.exp(z).sum()) > limit:
            assert variant.answer == "zeros"
        else:
            assert variant.answer == "fine"
            np.testing.assert_allclose(variant.values["half"], engine.softmax(z), atol=2e-3)
    assert seen == {"nan", "zeros", "fine"}


def test_float16_facts_in_the_explanations():
    assert math.log(65504) == pytest.approx(11.09, abs=0.005)
    assert float(np.finfo(np.float16).max) == 65504
    with np.errstate(over="ignore"):
        assert np.isinf(np.exp(np.float16(11.2))) and np.isfinite(np.exp(np.float16(11.0)))
        assert np.isneginf(np.float16(-20) + np.finfo(np.float16).min)
    assert np.float16(2048) + np.float16(1) == 2048


def test_the_classic_pipeline_question_catches_masking_and_scaling_after_the_softmax(bank):
    """The order question this bank opened with exists to catch a mask applied to weights: that
    order and the scale applied to weights score at most their cap, a reversed list nothing."""
    question = bank.questions["attention-pipeline-order"]
    kind = type_of(question)
    right = list(range(8))  # project, split, scores, scale, mask, softmax, values, merge
    mask_late = [0, 1, 2, 3, 5, 4, 6, 7]
    scale_late = [0, 1, 2, 4, 5, 3, 6, 7]
    for variant in variants(bank, "attention-pipeline-order", seeds=range(5)):
        assert kind.grade(variant, right).score == 1
        assert kind.grade(variant, right[::-1]).score == 0
        masked = kind.grade(variant, mask_late)
        assert masked.score == pytest.approx(0.25) and masked.misconception == "mask_after_softmax"
        assert kind.grade(variant, scale_late).misconception == "scale_after_softmax"
