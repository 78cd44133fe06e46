"""What `--adaptive` leans a mock towards: the learner's weakest topics and claims, and the
mistakes they make most, from their recent attempts.

Each question gets a weight ≥ 0: the shortfall (1 − mean score) of its topic over the recent
attempts, plus the mean shortfall of its claims, plus the share of recent mistakes that are
mistakes this question can catch. Topics and claims never attempted weigh nothing: the
composer's own spread covers them.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Final

from quiz.bank import Bank
from quiz.history.records import AttemptRecord

RECENT: Final = 200
"""How many of the latest attempts count."""


def weakness(bank: Bank, attempts: Iterable[AttemptRecord]) -> dict[str, float]:
    """Question id → weight, from `attempts` (newest first; the first RECENT count)."""
    by_topic: dict[str, list[float]] = defaultdict(list)
    by_claim: dict[str, list[float]] = defaultdict(list)
    mistakes: Counter[str] = Counter()
    for n, attempt in enumerate(attempts):
        if n >= RECENT:
            break
        question = bank.questions.get(attempt.question)
        if question is None or attempt.verdict == "not_reached":
            continue
        by_topic[question.topic].append(attempt.score)
        for claim in question.refs:
            by_claim[claim].append(attempt.score)
        if attempt.misconception:
            mistakes[attempt.misconception] += 1
    topic_gap = {t: 1 - sum(s) / len(s) for t, s in by_topic.items()}
    claim_gap = {c: 1 - sum(s) / len(s) for c, s in by_claim.items()}
    total_mistakes = sum(mistakes.values())
    weights = {}
    for question in bank.questions.values():
        claims = [claim_gap[c] for c in question.refs if c in claim_gap]
        names = {m.name for m in (*getattr(question, "misconceptions", ()), *getattr(question, "critical", ()))}
        caught = sum(mistakes[name] for name in names) / total_mistakes if total_mistakes else 0.0
        weight = topic_gap.get(question.topic, 0.0) + (sum(claims) / len(claims) if claims else 0.0) + caught
        if weight > 0:
            weights[question.id] = weight
    return weights
