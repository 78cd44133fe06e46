"""The bundled bank as the corpus tests read it: the questions of a part (a few of its files), their
variants, and the type's own self-test over many seeds."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from quiz.base import locations
from quiz.types.draw import make_variant
from quiz.types.registry import type_of


def part_ids(bank, files: Iterable[str]) -> list[str]:
    """Ids of the questions defined in the bundled files `files`, in the bank's order."""
    names = {locations.bundled_bank_dir() / name for name in files}
    return [q.id for q in bank.questions.values() if Path(q.source.path) in names]


def variants(bank, question_id: str, seeds: int):
    """The variants of seeds 0 … seeds − 1 of a question that must compile."""
    compiled = bank.compiled(question_id)
    assert compiled is not None, bank.problems(question_id)
    return [make_variant(compiled, seed) for seed in range(seeds)]


def assert_self_tests_hold(bank, ids: Iterable[str], seeds: int = 100) -> None:
    """The type's own checks on every seed (key grades 1.0, the key moved past the tolerance does
    not, each misconception finite, apart from the key and graded as itself); texts are left to validate."""
    for question_id in ids:
        compiled = bank.compiled(question_id)
        assert compiled is not None, bank.problems(question_id)
        for seed in range(seeds if compiled.question.has_variants else 1):
            variant = make_variant(compiled, seed)
            assert list(type_of(compiled.question).self_test(variant)) == [], variant.key
