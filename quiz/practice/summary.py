"""The end of a round: scores by topic, the questions missed, and the mistakes made."""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from quiz.bank import Bank
from quiz.base.fieldwise import Fieldwise, record
from quiz.format.model import Text
from quiz.grading.result import Result, Verdict
from quiz.variants.variant import Variant


class RoundEntry(NamedTuple):
    """A question shown in the round, and its result (None when it was left unanswered)."""

    variant: Variant
    result: Result | None


@record
class TopicScore(Fieldwise):
    topic: str
    answered: int
    shown: int
    mean_score: float


@record
class Mistake(Fieldwise):
    """A named mistake made in the round: its label for learners, and how often."""

    name: str
    label: Text | None
    count: int


@record
class RoundSummary(Fieldwise):
    shown: int
    answered: int
    mean_score: float
    topics: tuple[TopicScore, ...]
    missed: tuple[str, ...]
    """Question ids not answered fully right (wrong, partly right, given up or skipped), in order."""
    mistakes: tuple[Mistake, ...]

    @property
    def perfect(self) -> bool:
        return self.shown > 0 and not self.missed


def summarise(bank: Bank, entries: list[RoundEntry]) -> RoundSummary:
    """Summarise a round's entries; topics in the order claims.yaml lists them."""
    by_topic: dict[str, list[RoundEntry]] = {}
    for entry in entries:
        by_topic.setdefault(entry.variant.question.topic, []).append(entry)
    order = list(bank.claims.topics)
    topics = tuple(
        TopicScore(topic, sum(e.result is not None for e in group), len(group), _mean([e.result.score for e in group if e.result is not None]))
        for topic, group in sorted(by_topic.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order))
    )
    missed: list[str] = []
    for entry in entries:
        if (entry.result is None or entry.result.verdict is not Verdict.CORRECT) and entry.variant.question.id not in missed:
            missed.append(entry.variant.question.id)
    counts: Counter[str] = Counter()
    labels: dict[str, Text | None] = {}
    for entry in entries:
        if entry.result is not None and entry.result.misconception:
            counts[entry.result.misconception] += 1
            labels[entry.result.misconception] = entry.result.label
    scores = [e.result.score for e in entries if e.result is not None]
    return RoundSummary(
        shown=len(entries),
        answered=len(scores),
        mean_score=_mean(scores),
        topics=topics,
        missed=tuple(missed),
        mistakes=tuple(Mistake(name, labels[name], n) for name, n in counts.most_common()),
    )


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0
