"""Composing a mock interview: which questions, in what order, with which variant, in how long.

The same options, seed and bank give the same interview on any machine: candidates are taken in
id order and shuffled by a generator seeded from the options, never from Python's `hash()`.
The choice opens with a warm-up, covers every topic it can, fits the questions' own `time`
budgets into the minutes, never takes a question whose claims were mostly shown already (nor one
a chosen question's follow-ups may ask), and climbs from warm-up to hard, moving to another area
after each question where the level allows.
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
"""A question this much of whose cited claims the interview has already shown covers the same ground."""
WARM_UP_SECONDS: Final = 120
"""A warm-up is quick: an easiest-level question of at most this budget, neither spoken nor code."""
FILLED: Final = 0.9
"""A plan on new ground filling this share of the minutes is long enough: no question revisits claims."""
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
    chosen = _order(_choose(ordered, bank, options), list(bank.claims.topics))
    squeeze = _squeeze(chosen, options)
    planned = tuple(PlannedQuestion(q.id, variant_seed(options.seed, q.id), float(q.time) * squeeze) for q in chosen)
    return MockPlan(mock_key(options, bank_fingerprint(bank)), options, planned)


def _candidates(bank: Bank, options: MockOptions) -> list[QuestionBase]:
    ids: set[str] = set()
    for topic in options.topics or (None,):
        ids.update(bank.select(Selection(topic=topic, difficulty=options.difficulty)))
    return [bank.questions[i] for i in ids if bank.compiled(i) is not None]


def _choose(ordered: Sequence[QuestionBase], bank: Bank, options: MockOptions) -> list[QuestionBase]:
    """Greedy: a warm-up, then one question per topic, then more until the count or the time is
    filled; a set count not met within the time is made up past it (the budgets are squeezed)."""
    chosen: list[QuestionBase] = []
    shown: set[str] = set()  # the claims the chosen questions cite
    probed: set[str] = set()  # what the chosen questions' follow-ups may ask: left to them

    def fits(question: QuestionBase, *, in_time: bool = True, new_ground: bool = True, apart: bool | None = None) -> bool:
        """Whether `question` may be taken: within the count and (`in_time`) the minutes, apart from
        what is chosen, on claims not yet shown (`new_ground`) and (`apart`, by default as
        `new_ground`) neither asked by a chosen question's follow-ups nor asking a chosen one."""
        if question in chosen or (options.questions is not None and len(chosen) >= options.questions):
            return False
        if in_time and sum(q.time for q in chosen) + question.time > options.seconds:
            return False
        refs = set(question.refs)
        if new_ground and refs and len(refs & shown) >= OVERLAP * len(refs):
            return False
        if any(_overlap(question, other) >= OVERLAP for other in chosen):
            return False
        apart_from_follow_ups = new_ground if apart is None else apart
        return not apart_from_follow_ups or (question.id not in probed and not _chain(bank, question) & {q.id for q in chosen})

    def take(question: QuestionBase) -> None:
        chosen.append(question)
        shown.update(question.refs)
        probed.update(_chain(bank, question))

    warm_up = next((q for q in ordered if _is_warm_up(q, ordered) and fits(q)), None)
    if warm_up is not None:
        take(warm_up)
    topics_seen = {q.topic for q in chosen}
    for question in ordered:  # every topic represented, as far as the time allows
        if question.topic not in topics_seen and fits(question):
            take(question)
            topics_seen.add(question.topic)
    for question in ordered:
        if fits(question):
            take(question)
    # Few topics may leave much of the time unfilled on new ground: then questions that revisit
    # claims or that a follow-up might have asked, never one citing mostly the same claims as
    # another question; the order spaces them out.
    if sum(q.time for q in chosen) < FILLED * options.seconds:
        for question in ordered:
            if fits(question, new_ground=False):
                take(question)
    if not chosen or (options.questions is not None and len(chosen) < options.questions):
        # the quickest, squeezed to fit: apart from the follow-ups first, as a follow-up would ask it again
        for apart in (True, False):
            for question in sorted(ordered, key=lambda q: q.time):
                if fits(question, in_time=False, new_ground=False, apart=apart):
                    take(question)
    return chosen


def _is_warm_up(question: QuestionBase, candidates: Sequence[QuestionBase]) -> bool:
    """A quick question of the easiest level on offer, answered by typing a short answer."""
    easiest = min(q.difficulty for q in candidates)
    return question.difficulty == easiest and question.time <= WARM_UP_SECONDS and question.type not in ("explain", "code")


def _chain(bank: Bank, question: QuestionBase) -> set[str]:
    """The ids a question's follow-ups may ask, down the whole chain."""
    reached: set[str] = set()
    stack = [link.id for link in question.follow_ups]
    while stack:
        question_id = stack.pop()
        if question_id not in reached and question_id in bank.questions:
            reached.add(question_id)
            stack.extend(link.id for link in bank.questions[question_id].follow_ups)
    return reached


def _order(chosen: Sequence[QuestionBase], topics: Sequence[str]) -> list[QuestionBase]:
    """Warm-up first, then level by level; within a level each next question is the one sharing
    the fewest claims with the last, then of another topic, then first in the bank's order of topics."""
    if not chosen:
        return []
    rank = {topic: n for n, topic in enumerate(topics)}
    first = min(chosen, key=lambda q: (q.difficulty, q.type in ("explain", "code"), q.time, q.id))
    rest = sorted((q for q in chosen if q is not first), key=lambda q: (q.difficulty, rank.get(q.topic, len(rank)), q.id))
    out = [first]
    while rest:
        level = [q for q in rest if q.difficulty == rest[0].difficulty]
        last, before = out[-1], out[-2] if len(out) > 1 else out[-1]
        pick = min(level, key=lambda q: (len(set(q.refs) & set(last.refs)), q.topic == last.topic, len(set(q.refs) & set(before.refs))))
        out.append(pick)
        rest.remove(pick)
    return out


def _overlap(a: QuestionBase, b: QuestionBase) -> float:
    """Jaccard overlap of two questions' cited claims (0 when either cites none)."""
    left, right = set(a.refs), set(b.refs)
    if not left or not right:
        return 0.0
    return len(left & right) / len(left | right)


def _squeeze(chosen: Sequence[QuestionBase], options: MockOptions) -> float:
    """The factor that fits the budgets into the minutes: below 1 only when a set count of questions
    (or a single question) needs more than the interview has."""
    total = sum(q.time for q in chosen)
    return min(1.0, options.seconds / total) if total else 1.0


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
