"""The first twelve questions (softmax, scaling, masking, diagnosis): what `quiz validate` cannot check.

Each test here guards a fix found by review: a key that 0 or a flipped sign could pass for, a
misconception missing or within tolerance of another, advice or a reason that numpy contradicts.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from quiz.bank import load_bank
from quiz.grading.grade import grade
from quiz.grading.result import Verdict
from quiz.grading.tolerance import within
from quiz.variants.draw import make_variant

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
