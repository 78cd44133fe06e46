"""Self-testing questions: every answer key must grade as correct for many seeds.

For each seed of a parametric question (fixed questions once): the variant can be made; every
text renders in every language with no placeholder left; the type's own checks pass (numeric
types: the key is finite and grades 1.0, the key moved by 1.1× the allowed error does not, each
misconception is finite, differs from the key and grades as itself); and at least half the seeds
give distinct variants. A wrong answer key is the worst bug this product can have.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Final

from quiz.format.compile import CompiledQuestion, texts_of
from quiz.i18n import LANGUAGES
from quiz.types.registry import type_of
from quiz.variants.draw import make_variant
from quiz.variants.variant import Variant, VariantError

DEFAULT_SEEDS: Final = 20


def self_test(compiled: CompiledQuestion, seeds: int = DEFAULT_SEEDS) -> list[str]:
    """Problems found with `compiled` over `seeds` seeds (one for a fixed question)."""
    question = compiled.question
    problems: list[str] = []
    drawn: set[str] = set()
    tried = range(seeds) if question.has_variants else range(1)
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
    yield from type_of(variant.question).self_test(variant)


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
