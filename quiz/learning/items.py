"""Item analysis for authors: how each question behaved across one or several learners' attempts.

Per question: attempts, facility (the mean score), discrimination, the share of each misconception,
of hinted answers and of give-ups, and the median time against the suggested time; flags for what
looks broken. A question not reached in a mock interview was not attempted and counts nowhere.

Discrimination is Moodle's quiz statistics' discrimination index: the Pearson correlation, over the
learner-attempt sets in which the question was answered, of the question's score with the rest of
the set's score (the total minus the question). A set is what one learner answered in one sitting:
one mock interview, or one day (UTC) of practice and review. Sets differ in size here, where a
Moodle quiz's do not, so the rest is the mean score of the set's other questions (the total minus
the item, divided by their number); a set of this question alone says nothing and is left out.
Learners are known by a label only ("learner 1"), never by anything in their files.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from math import sqrt
from statistics import median
from typing import Any, Final

from quiz.history.records import AttemptRecord

DAY_MS: Final = 86_400_000
FACILITY_LOW: Final = 0.1
FACILITY_HIGH: Final = 0.9
"""Facility below FACILITY_LOW or above FACILITY_HIGH: the question tells learners apart little."""
MIN_ATTEMPTS_TO_FLAG: Final = 5
"""Flags need at least this many attempts: fewer say nothing about the question."""
MIN_SETS_FOR_DISCRIMINATION: Final = 3


@dataclass(frozen=True)
class ItemInfo:
    """What the analysis needs of a question from the bank: its suggested time and the
    misconceptions it names."""

    seconds: int
    misconceptions: tuple[str, ...] = ()


@dataclass(frozen=True)
class ItemStats:
    """One question's figures over every learner's attempts."""

    question: str
    attempts: int
    learners: int
    facility: float
    discrimination: float | None
    """None when fewer than three sets answered it, or the scores in them do not vary."""
    misconceptions: dict[str, float]
    """Each misconception's share of the attempts, the question's own named ones included at 0."""
    hinted: float
    gave_up: float
    median_seconds: float | None
    suggested_seconds: int | None
    over_time: float | None
    """The share of the timed attempts that took longer than the suggested time."""
    flags: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "attempts": self.attempts,
            "learners": self.learners,
            "facility": self.facility,
            "discrimination": self.discrimination,
            "misconceptions": self.misconceptions,
            "hinted": self.hinted,
            "gave_up": self.gave_up,
            "median_seconds": self.median_seconds,
            "suggested_seconds": self.suggested_seconds,
            "over_time": self.over_time,
            "flags": list(self.flags),
        }


def learner_labels(count: int) -> list[str]:
    """The labels the learners are known by: "learner 1", "learner 2", ..."""
    return [f"learner {n}" for n in range(1, count + 1)]


def item_statistics(histories: Mapping[str, Sequence[AttemptRecord]], bank: Mapping[str, ItemInfo]) -> list[ItemStats]:
    """Each attempted question's figures from every learner's attempts (learner label → attempts),
    by question id; questions the bank no longer has are kept, without their time or own misconceptions."""
    by_question: dict[str, list[tuple[tuple[str, str], AttemptRecord]]] = defaultdict(list)
    sets = _Sets()
    for label, attempts in histories.items():
        for attempt in attempts:
            if attempt.verdict == "not_reached":
                continue
            key = (label, _set_of(attempt))
            by_question[attempt.question].append((key, attempt))
            sets.add(key, attempt)
    return [_item(question, rows, sets, bank.get(question)) for question, rows in sorted(by_question.items())]


def _set_of(attempt: AttemptRecord) -> str:
    """The sitting an attempt belongs to: its mock interview, or its UTC day."""
    return f"mock:{attempt.mock}" if attempt.mock else f"day:{attempt.at_ms // DAY_MS}"


class _Sets:
    """The score sums and counts of each learner-attempt set, in all and by question, so that the
    rest of a set (its total minus one question) is a subtraction."""

    def __init__(self) -> None:
        self.total: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0])
        self.item: dict[tuple[tuple[str, str], str], list[float]] = defaultdict(lambda: [0.0, 0])

    def add(self, key: tuple[str, str], attempt: AttemptRecord) -> None:
        for tally in (self.total[key], self.item[(key, attempt.question)]):
            tally[0] += attempt.score
            tally[1] += 1

    def discrimination(self, question: str, keys: Iterable[tuple[str, str]]) -> float | None:
        """The correlation over the sets holding `question` of its mean score there with the
        mean score of the set's other attempts; None with fewer than three such sets."""
        item, rest = [], []
        for key in sorted(keys):
            (total, count), (mine, mine_count) = self.total[key], self.item[(key, question)]
            if count > mine_count:
                item.append(mine / mine_count)
                rest.append((total - mine) / (count - mine_count))
        if len(item) < MIN_SETS_FOR_DISCRIMINATION:
            return None
        return pearson(item, rest)


def _item(question: str, rows: list[tuple[tuple[str, str], AttemptRecord]], sets: _Sets, info: ItemInfo | None) -> ItemStats:
    attempts = [a for _, a in rows]
    n = len(attempts)
    named = Counter(a.misconception for a in attempts if a.misconception)
    misconceptions = {name: named.get(name, 0) / n for name in sorted({*named, *(info.misconceptions if info else ())})}
    times = [a.duration_ms / 1000 for a in attempts if a.duration_ms is not None]
    suggested = info.seconds if info else None
    over = sum(t > suggested for t in times) / len(times) if times and suggested else None
    stats = ItemStats(
        question=question,
        attempts=n,
        learners=len({label for (label, _), _ in rows}),
        facility=sum(a.score for a in attempts) / n,
        discrimination=sets.discrimination(question, {key for key, _ in rows}),
        misconceptions=misconceptions,
        hinted=sum(a.hints > 0 for a in attempts) / n,
        gave_up=sum(a.revealed or a.verdict == "revealed" for a in attempts) / n,
        median_seconds=median(times) if times else None,
        suggested_seconds=suggested,
        over_time=over,
        flags=(),
    )
    return replace(stats, flags=_flags(stats))


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """The Pearson correlation of two equally long samples; None when either does not vary."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx <= 0 or syy <= 0:
        return None
    return sxy / sqrt(sxx * syy)


def _flags(stats: ItemStats) -> tuple[str, ...]:
    """What looks wrong with the question: only once it has enough attempts to tell."""
    if stats.attempts < MIN_ATTEMPTS_TO_FLAG:
        return ()
    flags = []
    if stats.facility < FACILITY_LOW:
        flags.append("too_hard")
    if stats.facility > FACILITY_HIGH:
        flags.append("too_easy")
    if stats.discrimination is not None and stats.discrimination < 0:
        flags.append("negative_discrimination")
    if any(share == 0 for share in stats.misconceptions.values()):
        flags.append("unused_misconception")
    if stats.over_time is not None and stats.over_time > 0.5:
        flags.append("over_time")
    return tuple(flags)


def item_infos(questions: Iterable[Any]) -> dict[str, ItemInfo]:
    """The analysis's view of bank questions: suggested time, and the misconceptions each names
    (a numeric question's `misconceptions`, an order question's critical pairs)."""
    infos = {}
    for q in questions:
        names = [m.name for m in getattr(q, "misconceptions", ())] + [c.name for c in getattr(q, "critical", ())]
        infos[q.id] = ItemInfo(int(q.time), tuple(sorted(set(names))))
    return infos
