"""Issue 27: sentences with a number that is not filled from the variant, checked by computing it.

Each test computes the fact a bundled text states and checks that the text states it (in both
languages), so a text that drifts from the arithmetic, or arithmetic that drifts from the text,
fails here.
"""

from __future__ import annotations

import numpy as np
import pytest

import engine
from quiz.bank import load_bank
from quiz.format.checks import check_question
from quiz.format.diagnostics import Report
from quiz.types.draw import make_variant


@pytest.fixture(scope="module")
def bank():
    return load_bank()


def texts(text) -> tuple[str, str]:
    """Both languages, each with its line breaks folded to single spaces."""
    return " ".join(text.en.split()), " ".join(text.ja.split())


def option(question, option_id: str):
    return next(o for o in question.options if o.id == option_id)


def test_float16_addition_above_2048_rounds_to_even_and_loses_increments_below_1(bank):
    """explain-float16-guards: 2048 + 1 is 2048, 2050 + 1 is 2052, and any increment below 1 is lost."""
    h = np.float16
    assert h(2048) + h(1) == 2048
    assert h(2050) + h(1) == 2052
    assert np.spacing(h(2048)) == 2
    for start in (2048, 2050, 3000, 4094):
        assert h(start) + h(0.999) == h(start)
    # below 2048 adding 1 is exact
    assert h(2047) + h(1) == 2048
    answer = bank.questions["explain-float16-guards"].model_answer
    en, ja = texts(answer)
    assert "2048 + 1 giving 2048 and 2050 + 1 giving 2052" in en
    assert "2048 + 1 は 2048、2050 + 1 は 2052" in ja
    assert "adding 1 no longer changes" not in en


def test_float16_min_overflows_only_for_scores_of_minus_16_or_below(bank):
    """explain-float16-guards: a score of −16 or below plus finfo(float16).min is −∞, −15 still finite."""
    lowest = np.finfo(np.float16).min
    with np.errstate(over="ignore"):
        for score in (-16, -16.5, -17, -100):
            assert np.float16(score) + lowest == -np.inf
        for score in (-1, -15, -15.9):
            assert np.float16(score) + lowest == -65504
    en, ja = texts(bank.questions["explain-float16-guards"].model_answer)
    assert "a score of $-16$ or below" in en and "$-15$ plus `finfo(float16).min` is still $-65504$" in en
    assert "$-16$ 以下のスコア" in ja and "まだ $-65504$" in ja


def test_unscaled_width_8_head_figures_in_option_and_explanation(bank):
    """init-saturation-without-scale: an unscaled head of width 8 over 128 keys, about 0.37 and 2.5 nats."""
    rng = np.random.default_rng(27)
    q, k = rng.normal(size=(512, 128, 8)), rng.normal(size=(512, 128, 8))
    w = engine.attention(q, k, k, fault="missing_scale").weights
    for per_head, figure, rounding in ((w.max(axis=-1).mean(axis=-1), 0.37, 0.005), (engine.entropy(w).mean(axis=-1), 2.5, 0.05)):
        error = per_head.std(ddof=1) / np.sqrt(len(per_head))
        assert abs(per_head.mean() - figure) <= rounding + 3 * error, (figure, per_head.mean(), error)
    largest = w.max(axis=-1).mean(axis=-1)
    assert abs(largest.mean() - 0.35) > 0.005 + 3 * largest.std(ddof=1) / np.sqrt(len(largest))  # the old option's figure
    question = bank.questions["init-saturation-without-scale"]
    for text in (*texts(option(question, "moderate").text), *texts(question.explanation)):
        assert "0.37" in text and "2.5" in text, text


def test_float32_minus_1e9_absorbs_exactly_the_scores_within_32(bank):
    """float16-fully-masked-row and fully-masked-row-policies: the collapse holds for |score| ≤ 32."""
    f = np.float32
    assert np.spacing(f(1e9)) == 64
    inside = np.linspace(-32, 32, 2001, dtype=f)
    assert (inside + f(-1e9) == f(-1e9)).all()
    assert f(32.01) + f(-1e9) != f(-1e9) and f(-32.01) + f(-1e9) != f(-1e9)
    feedbacks = [
        option(bank.questions["float16-fully-masked-row"], "uniform").feedback,
        option(bank.questions["fully-masked-row-policies"], "big-negative").feedback,
    ]
    for feedback in feedbacks:
        en, ja = texts(feedback)
        assert "within $\\pm 32$" in en, en
        assert "$\\pm 32$ 以内" in ja, ja


def test_over_flattened_ratio_to_uniform_is_filled_from_the_variant(bank):
    """over-flattened-weights: the key is 1.08 to 1.5 times uniform across seeds, so the text fills it."""
    question = bank.questions["over-flattened-weights"]
    for text in texts(question.explanation):
        assert "{{ answer * n }}" in text, text
    assert "barely above" not in question.explanation.en
    compiled = check_question(question, bank.claims, Report())
    drawn = [make_variant(compiled, seed) for seed in range(200)]
    ratios = [float(v.values["answer"]) * float(v.values["n"]) for v in drawn]
    assert min(ratios) > 1.0 and max(ratios) < 1.6


def test_double_scale_rows_of_name_fault_from_weights_are_within_0_1_of_uniform(bank):
    """name-fault-from-weights: "each row is nearly uniform" holds on every drawn double-scale variant."""
    question = bank.questions["name-fault-from-weights"]
    compiled = check_question(question, bank.claims, Report())
    allowed = engine.causal_mask(5)
    uniform = allowed / allowed.sum(axis=-1, keepdims=True)
    seen = 0
    for seed in range(1000):
        variant = make_variant(compiled, seed)
        if variant.values["f"] != "double_scale":
            continue
        seen += 1
        weights = np.asarray(variant.values["run"].weights)
        assert np.abs(weights - uniform).max() < 0.1, (seed, weights.round(2))
    assert seen > 100
    for text in texts(option(question, "double_scale").feedback):
        assert "1/2" in text and "1/5" in text
