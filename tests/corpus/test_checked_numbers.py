"""The constant numbers parametric questions state in their explanations and feedback.

`quiz validate` warns about a literal decimal in a text shown with a drawn variant unless the
question lists it under `checked_numbers` with the test that computes it: these are those tests,
and the first test keeps every listed entry pointing at a test that exists and a number the
question still states.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from quiz.bank import load_bank
from quiz.format.compile import texts_of

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bank():
    return load_bank()


def test_every_checked_number_names_an_existing_test_and_is_still_stated(bank):
    listed = 0
    for question in bank.questions.values():
        for number, test in getattr(question, "checked_numbers", {}).items():
            listed += 1
            path, _, name = test.partition("::")
            source = (ROOT / path).read_text(encoding="utf-8")
            assert re.search(rf"^def {re.escape(name)}\(", source, re.M), (question.id, number, test)
            stated = " ".join(s for _, text in texts_of(question) for _, s in text.items())
            assert number in stated, (question.id, number)
    assert listed > 0


def test_sqrt_32_is_about_5_66():
    assert f"{math.sqrt(32):.2f}" == "5.66"


def test_ln_65504_is_about_11_09_and_float16_exp_overflows_just_past_it():
    assert f"{math.log(65504):.2f}" == "11.09"
    with np.errstate(over="ignore"):
        assert np.isfinite(np.exp(np.float16(11.08))) and np.exp(np.float16(11.1)) == np.inf


def test_log_128_is_about_4_85():
    assert f"{math.log(128):.2f}" == "4.85"


def test_float16_gaps_near_1_are_2_to_the_minus_10_and_half_of_it():
    assert np.spacing(np.float16(1)) == 2.0**-10
    assert f"{2.0**-10 * 1e4:.2f}" == "9.77" and f"{2.0**-11 * 1e4:.1f}" == "4.9"


def test_d_k_16_scores_divided_by_16_and_by_8_have_stds_near_0_25_and_0_5():
    """diagnose-faulty-layer (d_k = 16, d_model = 64): raw std about 4, so /16 gives 0.25 and /8 gives 0.5."""
    rng = np.random.default_rng(16)
    scores = (rng.normal(size=(4000, 16)) * rng.normal(size=(4000, 16))).sum(axis=-1)
    assert abs(scores.std() / 16 - 0.25) < 0.01
    assert abs(scores.std() / 8 - 0.5) < 0.02


def test_the_right_scale_for_d_k_16_is_0_25():
    """fix-from-layer-figures (d_k = 16): the applied scale 1/√d_k."""
    assert 1 / math.sqrt(16) == 0.25
