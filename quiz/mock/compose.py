"""Composing a mock interview: which questions, in what order, with which variant, in how long.

The same options, seed and bank give the same interview on any machine: candidates are taken in
id order and shuffled by a generator seeded from the options, never from Python's `hash()`.
The choice covers every topic it can, fills the time with the questions' own `time` budgets,
never takes two questions citing mostly the same claims, and climbs from warm-up to hard.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from quiz.bank import Bank, Selection, SelectionError
from quiz.format.model import QuestionBase
from quiz.mock.options import MockOptions, mock_key
from quiz.types.draw import make_variant
from quiz.variants.keys import generator_seed
from quiz.variants.variant import Variant, VariantError

OVERLAP: Final = 0.5
"""Two questions whose cited claims overlap this much (Jaccard) cover the same ground."""
OVERFILL: Final = 1.1
"""The time budgets may add up to this much of the interview at most."""
MAX_VARIANT_SEED: Final = 10**6


@dataclass(frozen=True)
class PlannedQuestion:
    """One question of the interview: its variant key and its time budget in seconds."""

    question_id: str
    seed: int
    budget: float

    @property
    def key(self) -> str:
        return f"{self.question_id}#{self.seed}"


@dataclass(frozen=True)
class MockPlan:
    """A composed interview: its key, options and the questions in the order they are asked."""

    key: str
    options: MockOptions
    questions: tuple[PlannedQuestion, ...]

    @property
    def planned_seconds(self) -> float:
        return sum(q.budget for q in self.questions)


def bank_fingerprint(bank: Bank) -> str:
    """A short hash of the bank's questions and their content versions."""
    text = "\n".join(f"{q.id}:{q.version}" for q in sorted(bank.questions.values(), key=lambda q: q.id))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def variant_seed(mock_seed: int, question_id: str) -> int:
    """The variant a mock asks of a question: fixed by the mock's seed and the question."""
    return generator_seed(question_id, mock_seed) % MAX_VARIANT_SEED


def compose(bank: Bank, options: MockOptions, weakness: Mapping[str, float] | None = None) -> MockPlan:
    """The interview `options` describe, from `bank`.

    `weakness` (question id → weight ≥ 0, higher for what the learner gets wrong most) leans the
    choice towards those questions; it comes from history for `--adaptive` mocks.
    Raises SelectionError when no question matches the options.
    """
    candidates = _candidates(bank, options)
    if not candidates:
        raise SelectionError("no_match")
    # Seeded from what the key carries, written as the key writes it (30 and 30.0 are one mock).
    rng = random.Random(mock_key(options, bank_fingerprint(bank)))
    ordered = sorted(candidates, key=lambda q: q.id)
    rng.shuffle(ordered)
    if weakness:
        # Weighted order without replacement: a key of u^(1/w) per item (Efraimidis–Spirakis).
        keys = {q.id: rng.random() ** (1.0 / (0.25 + weakness.get(q.id, 0.0))) for q in ordered}
        ordered.sort(key=lambda q: keys[q.id], reverse=True)
    chosen = _choose(ordered, options)
    chosen.sort(key=lambda q: (q.difficulty, list(bank.claims.topics).index(q.topic) if q.topic in bank.claims.topics else 99, q.id))
    planned = tuple(PlannedQuestion(q.id, variant_seed(options.seed, q.id), float(q.time)) for q in chosen)
    return MockPlan(mock_key(options, bank_fingerprint(bank)), options, planned)


def _candidates(bank: Bank, options: MockOptions) -> list[QuestionBase]:
    ids: set[str] = set()
    for topic in options.topics or (None,):
        ids.update(bank.select(Selection(topic=topic, difficulty=options.difficulty)))
    return [bank.questions[i] for i in ids if bank.compiled(i) is not None]


def _choose(ordered: Sequence[QuestionBase], options: MockOptions) -> list[QuestionBase]:
    """Greedy: first one question per topic, then more until the count or the time is filled."""
    limit = options.seconds * OVERFILL
    chosen: list[QuestionBase] = []

    def fits(question: QuestionBase) -> bool:
        if options.questions is not None and len(chosen) >= options.questions:
            return False
        if options.questions is None and sum(q.time for q in chosen) + question.time > limit and chosen:
            return False
        return all(_overlap(question, other) < OVERLAP for other in chosen)

    topics_seen: set[str] = set()
    for question in ordered:  # every topic represented, as far as the time allows
        if question.topic not in topics_seen and fits(question):
            chosen.append(question)
            topics_seen.add(question.topic)
    for question in ordered:
        if question not in chosen and fits(question):
            chosen.append(question)
    return chosen


def _overlap(a: QuestionBase, b: QuestionBase) -> float:
    """Jaccard overlap of two questions' cited claims (0 when either cites none)."""
    left, right = set(a.refs), set(b.refs)
    if not left or not right:
        return 0.0
    return len(left & right) / len(left | right)


def drawn_variant(bank: Bank, question_id: str, seed: int) -> Variant | None:
    """The variant a mock asks (or asked) of `question_id`, or None when the bank no longer has the
    question or it cannot be drawn: a stored mock outlives the packs it was made from."""
    compiled = bank.compiled(question_id) if question_id in bank.questions else None
    if compiled is None:
        return None
    try:
        return make_variant(compiled, seed)
    except VariantError:
        return None
