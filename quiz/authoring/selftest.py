"""Self-testing questions: every answer key must grade as correct for many seeds.

For each seed of a parametric question (fixed questions once): the variant can be made; its
answer is finite and grades 1.0; the answer moved by 1.1× the allowed error, up or down, does
not; each misconception is finite, differs from the key beyond tolerance and grades as itself;
every text renders in every language with no placeholder left; and at least half the seeds
give distinct variants. A wrong answer key is the worst bug this product can have.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Final

import numpy as np

from quiz.format.compile import CompiledQuestion, texts_of
from quiz.format.model import LANGUAGES, NumericQuestion
from quiz.grading import Verdict, allowed_error, grade_numeric, within
from quiz.variants import Variant, VariantError, make_variant

DEFAULT_SEEDS: Final = 20
OUTSIDE: Final = 1.1
"""How far outside the tolerance a near-miss is placed, as a multiple of the allowed error."""


def self_test(compiled: CompiledQuestion, seeds: int = DEFAULT_SEEDS) -> list[str]:
    """Problems found with `compiled` over `seeds` seeds (one for a fixed question)."""
    question = compiled.question
    problems: list[str] = []
    drawn: set[str] = set()
    tried = range(seeds) if question.is_parametric else range(1)
    for seed in tried:
        try:
            variant = make_variant(compiled, seed)
        except VariantError as exc:
            problems.append(f"seed {seed}: {exc.message}")
            continue
        drawn.add(json.dumps(variant.inputs, sort_keys=True))
        problems.extend(f"seed {seed}: {p}" for p in _check_variant(variant))
    if question.is_parametric and seeds >= 2 and len(drawn) * 2 < seeds:
        problems.append(f"only {len(drawn)} distinct variants in {seeds} seeds; widen the parameters")
    return problems


def _check_variant(variant: Variant) -> Iterator[str]:
    yield from _check_texts(variant)
    if isinstance(variant.question, NumericQuestion):
        yield from _check_numeric(variant)


def _check_texts(variant: Variant) -> Iterator[str]:
    for label, text in texts_of(variant.question):
        for lang in LANGUAGES:
            try:
                rendered = variant.text(text, lang)
            except VariantError as exc:
                yield f"{label} ({lang}): {exc.message}"
                continue
            # Only an opening `{{` marks a placeholder: `}}` is ordinary LaTeX (`\frac{1}{\sqrt{d_k}}`).
            if "{{" in rendered:
                yield f"{label} ({lang}): a placeholder is left unresolved: {rendered!r}"


def _check_numeric(variant: Variant) -> Iterator[str]:
    question = variant.question
    key = np.asarray(variant.answer, dtype=np.float64)
    if not np.isfinite(key).all():
        yield f"the answer is not finite: {variant.answer!r}"
        return
    if grade_numeric(variant, variant.answer).score != 1.0:
        yield "the answer key does not grade as correct"
    error = allowed_error(key, question.tolerance)
    for sign, side in ((1, "above"), (-1, "below")):
        near_miss = key + sign * OUTSIDE * error
        if grade_numeric(variant, near_miss).verdict is Verdict.CORRECT:
            yield f"an answer 1.1x the tolerance {side} the key still grades as correct"
    for misconception in question.misconceptions:
        value = np.asarray(variant.misconceptions[misconception.name], dtype=np.float64)
        name = misconception.name
        if value.shape != key.shape:
            yield f"misconception {name} has shape {value.shape}, the answer {key.shape}"
            continue
        if not np.isfinite(value).all():
            yield f"misconception {name} is not finite"
            continue
        if within(value, key, question.tolerance).all():
            yield f"misconception {name} equals the answer within tolerance; add a constraint that separates them"
            continue
        result = grade_numeric(variant, value)
        if result.misconception != name:
            yield f"misconception {name}'s own value grades as {result.misconception or 'no misconception'}"
