"""Issue 26: where a question counts FLOPs, its prompt states the convention, and an answer in the
other convention is recognised and named, not just marked wrong.

A count in FLOPs ($2mnk$ for an $(m \\times k)(k \\times n)$ product) is twice the count in
multiply-adds ($mnk$). Every numeric question whose English prompt speaks of either must say in
both languages which one it asks for, and must have a misconception whose value is the count in
the other convention on every served variant, graded as that misconception.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from quiz.bank import load_bank
from quiz.types.draw import make_variant
from quiz.types.registry import type_of

NUMERIC_TYPES = {"number", "vector", "matrix"}
COUNTS = re.compile(r"FLOP|multiply-add", re.IGNORECASE)
# Each language's way of naming the convention: the 2mnk rule, or counting multiply-adds (積和).
STATED = {"en": re.compile(r"2mnk|multiply-adds"), "ja": re.compile(r"2mnk|積和")}
# Answers in which the two conventions give the same number: a length at which two counts are
# equal, and a ratio of two counts. The factor 2 cancels, so there is no other answer to name.
CONVENTION_FREE = {
    "attention-equals-projections-length": "a length at which two counts in the same convention are equal",
    "linear-attention-flops-ratio": "a ratio of two counts in the same convention",
}
SEEDS = range(30)


@pytest.fixture(scope="module")
def bank():
    return load_bank()


def counting_questions(bank) -> list[str]:
    return [
        q.id for q in bank.questions.values()
        if q.type in NUMERIC_TYPES and COUNTS.search(q.prompt.get("en"))
    ]


def test_the_bank_has_counting_questions_and_the_exemptions_are_among_them(bank):
    ids = counting_questions(bank)
    assert len(ids) >= 6
    assert set(CONVENTION_FREE) <= set(ids)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_counting_prompt_states_its_convention(bank, lang):
    unstated = [i for i in counting_questions(bank) if not STATED[lang].search(bank.questions[i].prompt.get(lang))]
    assert unstated == []


def other_convention(variant) -> str | None:
    """The misconception whose value is the key doubled or halved on this variant, if any."""
    key = np.asarray(variant.answer, dtype=float)
    for name, value in variant.misconceptions.items():
        value = np.asarray(value, dtype=float)
        if value.shape == key.shape and (np.allclose(value, 2 * key, rtol=1e-9) or np.allclose(value, key / 2, rtol=1e-9)):
            return name
    return None


def test_the_answer_in_the_other_convention_is_named_on_every_served_variant(bank):
    for question_id in counting_questions(bank):
        if question_id in CONVENTION_FREE:
            continue
        kind = type_of(bank.questions[question_id])
        names = set()
        for seed in SEEDS:
            variant = make_variant(bank.compiled(question_id), seed)
            name = other_convention(variant)
            assert name is not None, (question_id, seed)
            assert kind.grade(variant, variant.misconceptions[name]).misconception == name, (question_id, seed)
            names.add(name)
        assert len(names) == 1, (question_id, names)
