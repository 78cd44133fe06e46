"""The first twelve questions (softmax, scaling, masking, diagnosis): what `quiz validate` cannot check.

Each test here guards a fix found by review: a key that 0 or a flipped sign could pass for, a
misconception missing or within tolerance of another, advice or a reason that numpy contradicts.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import engine
from quiz.bank import load_bank
from quiz.grading.result import Verdict
from quiz.grading.tolerance import within
from quiz.types.draw import make_variant
from quiz.types.grade import grade

MANY_SEEDS = range(500)


@pytest.fixture(scope="module")
def bank():
    return load_bank()


def variants(bank, question_id: str, seeds=MANY_SEEDS) -> list:
    compiled = bank.compiled(question_id)
    assert compiled is not None, bank.problems(question_id)
    return [make_variant(compiled, seed) for seed in seeds]


def assert_all_apart(variant, tolerance) -> None:
    """The key and every misconception lie outside each other's tolerance, both ways round."""
    values = {"answer": variant.answer, **variant.misconceptions}
    for (a, x), (b, y) in itertools.permutations(values.items(), 2):
        assert not within(x, y, tolerance).all(), (variant.key, a, b, x, y)


# --- softmax-jacobian-entry ----------------------------------------------------------------------


def test_jacobian_entry_zero_and_a_flipped_sign_never_pass(bank):
    question = bank.questions["softmax-jacobian-entry"]
    for variant in variants(bank, "softmax-jacobian-entry"):
        key = variant.answer
        assert key < 0
        assert grade(variant, 0.0).verdict is Verdict.INCORRECT, variant.key
        flipped = grade(variant, -key)
        assert flipped.verdict is Verdict.INCORRECT and flipped.misconception == "sign_flipped", variant.key
        assert grade(variant, key).verdict is Verdict.CORRECT
        assert_all_apart(variant, question.tolerance)


def test_jacobian_entry_sign_flip_has_a_label_in_both_languages(bank):
    [flip] = [m for m in bank.questions["softmax-jacobian-entry"].misconceptions if m.name == "sign_flipped"]
    assert flip.label.en and flip.label.ja


# --- scaled-score-variance -----------------------------------------------------------------------


def test_scaled_score_variance_memorised_one_is_named_and_never_the_key(bank):
    question = bank.questions["scaled-score-variance"]
    [unit] = [m for m in question.misconceptions if m.name == "unit_variance"]
    assert unit.label.en and unit.label.ja
    for variant in variants(bank, "scaled-score-variance"):
        assert variant.answer == pytest.approx(variant.inputs["sigma"] ** 4)
        assert not within(1.0, variant.answer, question.tolerance), variant.key
        assert grade(variant, 1.0).misconception == "unit_variance", variant.key
        assert_all_apart(variant, question.tolerance)


# --- float16-fully-masked-row --------------------------------------------------------------------

F16 = np.float16


def unshifted_softmax(z: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        e = np.exp(z)
        return e / e.sum(dtype=z.dtype)


def shifted_softmax(z: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return unshifted_softmax(z - z.max())


def test_float16_row_statements_hold_in_numpy():
    """The key, and the advice: fill with finfo.min, or add about −1e4; adding finfo.min overflows."""
    scores = np.array([3.5, -20.0, 7.25, 0.5], dtype=F16)
    with np.errstate(over="ignore"):
        masked = scores + F16(-1e9)
        assert np.isneginf(F16(-1e9)) and np.isneginf(masked).all()
        assert np.isnan(unshifted_softmax(masked)).all() and np.isnan(shifted_softmax(masked)).all()
        # The minimum is safe to fill with but not to add: -20 + (-65504) rounds to -inf.
        assert np.finfo(F16).min == -65504
        assert np.isneginf(F16(-20) + np.finfo(F16).min)
    allowed = np.array([True, False, True, False])
    filled = np.where(allowed, scores, np.finfo(F16).min).astype(F16)
    added = scores + np.where(allowed, F16(0), F16(-1e4))
    for row in (filled, added):
        assert np.isfinite(row).all()
        weights = shifted_softmax(row)
        assert (weights[~allowed] == 0).all() and weights.sum() == pytest.approx(1, abs=1e-3)
    # With either mask a fully masked row stays finite: the row policy decides what it gives.
    for row in (np.full(4, np.finfo(F16).min, F16), scores + F16(-1e4)):
        assert np.isfinite(shifted_softmax(row)).all()
    assert np.log(65504) == pytest.approx(11.09, abs=0.005)


def test_float16_row_texts_state_the_checked_figures(bank):
    question = bank.questions["float16-fully-masked-row"]
    [uniform] = [o for o in question.options if o.id == "uniform"]
    for lang in ("en", "ja"):
        assert "64" in uniform.feedback.get(lang)
        explanation = question.explanation.get(lang)
        assert all(part in explanation for part in ("masked_fill", "finfo(dtype).min", "-10^4", "-20", "-65504"))


def test_float32_uniform_row_comes_from_absorbed_scores_not_a_cancelling_offset():
    """Near 1e9 float32 values are 64 apart, so scores of size < 32 vanish into the mask."""
    assert np.spacing(np.float32(1e9)) == 64
    scores = np.array([3.5, -20.0, 7.25, 0.5])
    in_float32 = scores.astype(np.float32) + np.float32(-1e9)
    assert (in_float32 == np.float32(-1e9)).all()
    assert np.allclose(shifted_softmax(in_float32), 0.25)
    # Exactly, a shared offset cancels and leaves the scores' own softmax: far from uniform.
    exact = shifted_softmax(scores - 1e9)
    assert np.allclose(exact, shifted_softmax(scores)) and exact.max() > 0.9


# --- nan-attention-checks ------------------------------------------------------------------------


def test_only_a_shifted_softmax_of_finite_scores_is_always_finite():
    with np.errstate(over="ignore"):
        assert np.isfinite(np.exp(F16(11.0))) and np.isinf(np.exp(F16(11.1)))
    unshifted = engine.naive_softmax(np.array([12, 0], dtype=F16))
    assert np.isnan(unshifted[0]) and unshifted[1] == 0
    rng = np.random.default_rng(0)
    for _ in range(500):
        z = rng.normal(0, 3000, size=rng.integers(2, 9)).astype(F16)  # finite, often saturated
        assert np.isfinite(shifted_softmax(z)).all()


def test_nan_checks_explanation_states_the_unshifted_counterexample(bank):
    explanation = bank.questions["nan-attention-checks"].explanation
    for lang in ("en", "ja"):
        assert "$[12, 0]$" in explanation.get(lang) and "NaN" in explanation.get(lang)


# --- diagnose-faulty-layer -----------------------------------------------------------------------

DIAGNOSE_CAUSE = {"healthy": "no_fault_evident"}


def faulty_layer_stats(variant) -> engine.HeadStats:
    inputs, f = variant.inputs, variant.answer
    return engine.head_stats(inputs["Q"], inputs["K"], inputs["V"], is_causal=True, fault=None if f == "healthy" else f)


def test_faulty_layer_figures_are_taken_as_the_table_says(bank):
    """Means of per-row figures match head_stats; the stds pool every head; the row sum is a maximum."""
    pooled_differs_from_mean = False
    for variant in variants(bank, "diagnose-faulty-layer", range(100)):
        v, stats = variant.values, faulty_layer_stats(variant)
        assert v["max_weight"] == pytest.approx(stats.max_weight.mean(), abs=1e-12)
        assert v["entropy_ratio"] == pytest.approx(stats.entropy_normalized.mean(), abs=1e-12)
        assert v["future_weight"] == round(float(stats.future_weight.mean()), 3)
        assert v["row_sum_error"] == round(float(stats.row_sum_error.max()), 3)
        for figure, trace in (("raw_std", v["run"].scores), ("scaled_std", v["run"].scaled)):
            assert v[figure] == pytest.approx(np.asarray(trace).reshape(-1).std(), rel=1e-12)
            per_head = np.asarray(trace).reshape(4, -1).std(axis=1).mean()
            pooled_differs_from_mean |= abs(v[figure] - per_head) > 0.01
    assert pooled_differs_from_mean  # so "averaged over heads" would misname them


def test_faulty_layer_key_is_what_diagnose_finds_and_healthy_is_drawn(bank):
    seen = set()
    for variant in variants(bank, "diagnose-faulty-layer", range(100)):
        [finding, *_] = engine.diagnose(faulty_layer_stats(variant))
        assert finding.cause.value == DIAGNOSE_CAUSE.get(variant.answer, variant.answer), variant.key
        seen.add(variant.answer)
    assert seen == {o.id for o in bank.questions["diagnose-faulty-layer"].options}
