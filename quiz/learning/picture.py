"""The learner's picture by claim, for the statistics screen: which claims are weak, which
misconceptions recur, and which questions to take next.

A claim is weak when the questions citing it that the learner has studied are recalled, by FSRS's
prediction now, with a mean probability below the plan's weak mark, or score below the pass mark
on average, or have had a misconception made on them at least twice in the last 30 days (a
mistake long since left behind does not count). The next questions are
today's plan while one is set; otherwise, for the weakest claims first, each one's least recalled
question, then a question for each claim never practised.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final

from quiz.history.cards import REVIEWED
from quiz.history.records import to_ms
from quiz.history.scheduling import PASS_MARK
from quiz.history.store import History
from quiz.learning.plan import RECENT_DAYS, WEAK_RECALL, PlanQuestion
from quiz.learning.plan_store import stored_plan

RECURRING: Final = 2
"""A misconception made this many times or more in the last RECENT_DAYS days recurs."""
NEXT_QUESTIONS: Final = 5


@dataclass(frozen=True)
class ClaimState:
    """How the learner stands on one claim."""

    claim: str
    questions: int
    """Questions in the bank citing it."""
    studied: int
    """Of them, those the learner has a review card for."""
    recall: float | None
    """FSRS's mean predicted recall now of the studied ones (None: none studied)."""
    mean_score: float | None
    misconceptions: int
    """Misconceptions made on its questions in the last RECENT_DAYS days."""

    @property
    def weak(self) -> bool:
        return self.studied > 0 and (
            (self.recall is not None and self.recall < WEAK_RECALL)
            or (self.mean_score is not None and self.mean_score < PASS_MARK)
            or self.misconceptions >= RECURRING
        )


@dataclass(frozen=True)
class Recurring:
    """A misconception made again and again, and the claims of the questions it was made on."""

    name: str
    times: int
    claims: tuple[str, ...]


@dataclass(frozen=True)
class Picture:
    """Weak claims (weakest first), recurring misconceptions (most often first), the questions
    to take next, and how many claims were never practised."""

    weak: tuple[ClaimState, ...]
    recurring: tuple[Recurring, ...]
    next_questions: tuple[str, ...]
    never_practised: int
    from_plan: bool = False
    """The next questions are today's plan's."""


def learner_picture(history: History, questions: Sequence[PlanQuestion], now: datetime) -> Picture:
    """The picture from the history at `now` (aware), for the bank's `questions`."""
    by_id = {q.id: q for q in questions}
    recall: dict[str, float] = {}
    for question in by_id:
        state = history.card(question)
        if state is not None:
            recall[question] = history.scheduler.retrievability(state.card, now)
    tallies = history.read(f"SELECT question, count(*), total(score) FROM attempts WHERE {REVIEWED} GROUP BY question")
    scores = {q: (n, total) for q, n, total in tallies}
    made = history.read(
        """SELECT question, misconception, count(*) FROM attempts
           WHERE misconception IS NOT NULL AND at_ms > ? AND at_ms <= ? GROUP BY question, misconception""",
        (to_ms(now - timedelta(days=RECENT_DAYS)), to_ms(now)),
    )
    claims = _claims(by_id, recall, scores, made)
    weak = tuple(sorted((c for c in claims.values() if c.weak), key=_weakness))
    plan = stored_plan(history, list(questions), now)
    if plan is not None:
        planned = [i.question for day in plan.days for i in day.items if i.question]
        following = tuple(dict.fromkeys(planned))[:NEXT_QUESTIONS]
    else:
        following = _next(by_id, recall, weak, claims)
    never = sum(c.studied == 0 for c in claims.values())
    return Picture(weak, _recurring(by_id, made), following, never, from_plan=plan is not None)


def _weakness(state: ClaimState) -> tuple[float, float, str]:
    """The least recalled first, then the lowest scored."""
    return (state.recall if state.recall is not None else 1.0, state.mean_score or 0.0, state.claim)


def _claims(
    by_id: dict[str, PlanQuestion],
    recall: dict[str, float],
    scores: dict[str, tuple[int, float]],
    made: list[tuple[str, str, int]],
) -> dict[str, ClaimState]:
    members: dict[str, list[str]] = defaultdict(list)
    for q in by_id.values():
        for claim in q.claims:
            members[claim].append(q.id)
    misconceptions: dict[str, int] = defaultdict(int)
    for question, _name, count in made:
        misconceptions[question] += count
    states = {}
    for claim, ids in sorted(members.items()):
        studied = [q for q in ids if q in recall]
        attempts = sum(scores.get(q, (0, 0.0))[0] for q in ids)
        total = sum(scores.get(q, (0, 0.0))[1] for q in ids)
        states[claim] = ClaimState(
            claim,
            len(ids),
            len(studied),
            sum(recall[q] for q in studied) / len(studied) if studied else None,
            total / attempts if attempts else None,
            sum(misconceptions[q] for q in ids),
        )
    return states


def _recurring(by_id: dict[str, PlanQuestion], made: list[tuple[str, str, int]]) -> tuple[Recurring, ...]:
    times: dict[str, int] = defaultdict(int)
    claims: dict[str, set[str]] = defaultdict(set)
    for question, name, count in made:
        times[name] += count
        claims[name].update(by_id[question].claims if question in by_id else ())
    found = [Recurring(name, n, tuple(sorted(claims[name]))) for name, n in times.items() if n >= RECURRING]
    return tuple(sorted(found, key=lambda r: (-r.times, r.name)))


def _next(by_id: dict[str, PlanQuestion], recall: dict[str, float], weak: Sequence[ClaimState], claims: dict[str, ClaimState]) -> tuple[str, ...]:
    """Without a plan: each weak claim's least recalled studied question, then one for each claim never practised."""
    chosen: list[str] = []
    for state in weak:
        cited = sorted((q for q in by_id.values() if state.claim in q.claims), key=lambda q: (q.id not in recall, recall.get(q.id, 0.0), q.id))
        pick = next((q.id for q in cited if q.id not in chosen), None)
        if pick is not None:
            chosen.append(pick)
    for claim in (c for c, s in claims.items() if s.studied == 0):
        pick = min((q.id for q in by_id.values() if claim in q.claims and q.id not in chosen), default=None)
        if pick is not None:
            chosen.append(pick)
    return tuple(chosen[:NEXT_QUESTIONS])
