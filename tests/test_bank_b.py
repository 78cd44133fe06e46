"""The softmax and implementation questions of bank part B: what `quiz validate` cannot check.

Closed forms and the answer keys are checked against the engine (and the engine against finite
differences where a key takes a route of its own), every misconception is told apart from the key
on 200 seeds, and the facts the explanations state are checked numerically.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import engine
from quiz.bank import load_bank
from quiz.grading.tolerance import within
from quiz.types.registry import type_of
from quiz.variants.draw import make_variant

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
NUMERIC = SOFTMAX


@pytest.fixture(scope="module")
def bank():
    return load_bank()


def variants(bank, question_id: str, seeds=SEEDS):
    compiled = bank.compiled(question_id)
    assert compiled is not None, bank.problems(question_id)
    return [make_variant(compiled, seed) for seed in seeds]


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


def test_score_gradient_key_matches_softmax_backward_and_finite_differences(bank):
    """The key projects attention_backward's dK on q; check it against two other routes."""
    for variant in variants(bank, "score-gradient-through-softmax", range(50)):
        v = variant.values
        q, K, V, g = (np.asarray(v[name]) for name in ("q", "K", "V", "g"))
        scale = 1 / math.sqrt(q.shape[-1])
        by_vjp = engine.softmax_vjp(v["p"], V @ g[0]) * scale
        np.testing.assert_allclose(variant.answer, by_vjp, rtol=1e-9, atol=1e-12)

        def loss(s):
            return float(engine.softmax(s * scale) @ V @ g[0])

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
