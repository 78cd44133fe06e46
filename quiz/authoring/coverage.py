"""Which claims the bank's questions cite: claims × questions, by topic and type, and what is uncited."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from quiz.bank import Bank


@dataclass(frozen=True)
class Coverage:
    """Questions citing each claim (every claim of claims.yaml, in its order), and counts."""

    claims: dict[str, list[str]]
    topics: dict[str, Counter[str]]
    """Per topic: how many questions of each type."""
    difficulties: dict[str, Counter[int]]
    """Per topic: how many questions of each difficulty."""

    @property
    def uncited(self) -> list[str]:
        return [claim for claim, ids in self.claims.items() if not ids]

    def as_json(self) -> dict[str, Any]:
        return {
            "claims": self.claims,
            "uncited": self.uncited,
            "topics": {
                topic: {
                    "questions": sum(types.values()),
                    "types": dict(types),
                    "difficulties": {str(d): n for d, n in sorted(self.difficulties[topic].items())},
                }
                for topic, types in self.topics.items()
            },
        }


def coverage(bank: Bank) -> Coverage:
    """Count, for every claim and topic the claims file names, the questions that cite or hold it."""
    claims: dict[str, list[str]] = {claim: [] for claim in bank.claims.claims}
    topics: dict[str, Counter[str]] = {topic: Counter() for topic in bank.claims.topics}
    difficulties: dict[str, Counter[int]] = {topic: Counter() for topic in bank.claims.topics}
    for question in bank.questions.values():
        for ref in question.refs:
            claims.setdefault(ref, []).append(question.id)
        topics.setdefault(question.topic, Counter())[question.type] += 1
        difficulties.setdefault(question.topic, Counter())[question.difficulty] += 1
    return Coverage(claims, topics, difficulties)
