"""Review scheduling with FSRS (py-fsrs): one card per question id, rated from each graded attempt.

The rating follows the FSRS maintainers' advice to rate by outcome, never by time: below the
pass mark is Again; a pass that needed a hint, a reveal or partial credit is Hard; a clean pass
is Good; Easy only when the learner says so. Interval fuzz is drawn from a generator seeded by
the card and its review count, so rebuilding a card from its attempts gives the same dates.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Final

from fsrs import Card, Rating, Scheduler, State
from fsrs.scheduler import FUZZ_RANGES

from quiz.history.records import EPOCH

PASS_MARK: Final = 0.5
"""An attempt scoring at least this has been recalled (two hints on a right answer still pass)."""
_SHORTEST_FUZZED_DAYS: Final = 3  # FSRS leaves intervals under 2.5 days as they are


def card_id_for(question_id: str) -> int:
    """A stable positive 63-bit card id for a question id (the same on every machine)."""
    digest = hashlib.sha256(question_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def rating_for(score: float, verdict: str, hints: int, revealed: bool, easy: bool = False) -> Rating:
    """The FSRS rating a graded attempt gives its card (time taken plays no part)."""
    if score < PASS_MARK:
        return Rating.Again
    if easy:
        return Rating.Easy
    if hints or revealed or verdict == "partial":
        return Rating.Hard
    return Rating.Good


def at_datetime(at_ms: int) -> datetime:
    """UTC epoch milliseconds as an aware datetime in `timezone.utc` (what fsrs accepts)."""
    return EPOCH + timedelta(milliseconds=at_ms)


@dataclass(frozen=True)
class Review:
    """One review of a card: when, how it was rated, and how long it took."""

    at_ms: int
    rating: Rating
    duration_ms: int | None = None


class ReviewScheduler:
    """FSRS with the stored parameters; fuzz, when the parameters enable it, is seeded per review."""

    def __init__(self, parameters: Scheduler | None = None) -> None:
        self.parameters = parameters or Scheduler()
        # fsrs draws its fuzz from the global `random`; ours is seeded per review, so fsrs runs
        # without it and the same range is applied here.
        self._fsrs = Scheduler.from_dict({**self.parameters.to_dict(), "enable_fuzzing": False})

    @classmethod
    def from_json(cls, text: str) -> ReviewScheduler:
        """A scheduler from parameters stored as `fsrs.Scheduler` JSON."""
        return cls(Scheduler.from_json(text))

    def to_json(self) -> str:
        return self.parameters.to_json()

    def new_card(self, question_id: str, at_ms: int) -> Card:
        """The card of a question never reviewed before, due at `at_ms`."""
        return Card(card_id=card_id_for(question_id), due=at_datetime(at_ms))

    def review(self, card: Card, review: Review, index: int) -> Card:
        """`card` after `review`, its `index`-th review (0 for the first)."""
        at = at_datetime(review.at_ms)
        reviewed, _log = self._fsrs.review_card(card, review.rating, at, review.duration_ms)
        if self.parameters.enable_fuzzing and reviewed.state == State.Review:
            days = (reviewed.due - at).days
            reviewed.due = at + timedelta(days=self._fuzzed_days(days, card.card_id, index))
        return reviewed

    def rebuild(self, question_id: str, reviews: Iterable[Review]) -> tuple[Card | None, int]:
        """The card built from all its reviews in order, and how many there were (None, 0 if none)."""
        card: Card | None = None
        count = 0
        for count, review in enumerate(reviews, 1):
            card = self.review(card or self.new_card(question_id, review.at_ms), review, count - 1)
        return card, count

    def retrievability(self, card: Card, now: datetime) -> float:
        """The predicted probability of recalling the card at `now`."""
        return float(self._fsrs.get_card_retrievability(card, now.astimezone(UTC)))

    def _fuzzed_days(self, days: int, card_id: int, index: int) -> int:
        if days < _SHORTEST_FUZZED_DAYS:
            return days
        spread = 1.0 + sum(r["factor"] * max(min(float(days), r["end"]) - r["start"], 0.0) for r in FUZZ_RANGES)
        longest = min(round(days + spread), self.parameters.maximum_interval)
        shortest = min(max(2, round(days - spread)), longest)
        return random.Random(fuzz_seed(card_id, index)).randint(shortest, longest)


def fuzz_seed(card_id: int, index: int) -> int:
    """The seed of the fuzz of a card's `index`-th review: stable across runs and machines."""
    return int.from_bytes(hashlib.sha256(f"{card_id}:{index}".encode()).digest()[:8], "big")
