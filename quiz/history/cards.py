"""Review cards in the history file: applying an attempt, rebuilding from attempts, the due list.

Each function works inside the caller's connection (and transaction), so recording an attempt
and updating its card commit together.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from itertools import groupby
from operator import itemgetter
from typing import Final

from fsrs import Card

from quiz.history.records import AttemptRecord, to_ms
from quiz.history.scheduling import Review, ReviewScheduler, rating_for

# A question that was never shown in a timed mock interview was not reviewed.
REVIEWED: Final = "verdict != 'not_reached'"


@dataclass(frozen=True)
class CardState:
    """A question's review card as stored: the FSRS card and how many reviews built it."""

    question: str
    card: Card
    reviews: int

    @property
    def due(self) -> datetime:
        return self.card.due


@dataclass(frozen=True)
class DueCard:
    """A card that is due, as `quiz review --list` and the review screen show it."""

    question: str
    due: datetime
    stability: float
    difficulty: float
    retrievability: float
    reviews: int


def load_card(connection: sqlite3.Connection, question: str) -> CardState | None:
    """The stored card of `question`, or None before its first review."""
    row = connection.execute("SELECT card, reviews FROM cards WHERE question = ?", (question,)).fetchone()
    return None if row is None else CardState(question, Card.from_json(row[0]), row[1])


def load_cards(connection: sqlite3.Connection) -> list[CardState]:
    """Every stored card, by question id."""
    rows = connection.execute("SELECT question, card, reviews FROM cards ORDER BY question")
    return [CardState(question, Card.from_json(text), reviews) for question, text, reviews in rows]


def apply_attempt(connection: sqlite3.Connection, scheduler: ReviewScheduler, attempt: AttemptRecord) -> CardState | None:
    """Update the card of `attempt`'s question with it (already inserted); the card after it."""
    if attempt.verdict == "not_reached":
        return load_card(connection, attempt.question)
    row = connection.execute("SELECT card, reviews, last_ms FROM cards WHERE question = ?", (attempt.question,)).fetchone()
    if row is not None and attempt.at_ms < row[2]:
        # Older than the card's last review (a clock set back): replay all, in time order.
        return rebuild_card(connection, scheduler, attempt.question)
    review = Review(attempt.at_ms, rating_for(attempt.score, attempt.verdict, attempt.hints, attempt.revealed), attempt.duration_ms)
    if row is None:
        card, reviews = scheduler.review(scheduler.new_card(attempt.question, attempt.at_ms), review, 0), 1
    else:
        card, reviews = scheduler.review(Card.from_json(row[0]), review, row[1]), row[1] + 1
    return _save(connection, CardState(attempt.question, card, reviews))


def rebuild_card(connection: sqlite3.Connection, scheduler: ReviewScheduler, question: str) -> CardState | None:
    """Build `question`'s card again from its attempts alone, store it, and return it."""
    card, count = scheduler.rebuild(question, next((reviews for _, reviews in review_logs(connection, question)), []))
    if card is None:
        connection.execute("DELETE FROM cards WHERE question = ?", (question,))
        return None
    return _save(connection, CardState(question, card, count))


def rebuilt_cards(connection: sqlite3.Connection, scheduler: ReviewScheduler) -> list[CardState]:
    """Every card built again from its attempts with `scheduler` (new parameters), not stored: the
    slow part of rescheduling, done outside the write transaction."""
    built = []
    for question, reviews in review_logs(connection):
        card, count = scheduler.rebuild(question, reviews)
        assert card is not None  # a question is listed only with a review
        built.append(CardState(question, card, count))
    return built


def store_rebuilt_cards(connection: sqlite3.Connection, scheduler: ReviewScheduler, built: list[CardState]) -> None:
    """Store cards `rebuilt_cards` made, inside the write transaction; a card that took a review
    since (or is new since) is built again here, from all its attempts."""
    current = dict(connection.execute("SELECT question, reviews FROM cards").fetchall())
    for state in built:
        if current.pop(state.question, None) == state.reviews:
            _save(connection, state)
        else:
            rebuild_card(connection, scheduler, state.question)
    for question in current:
        rebuild_card(connection, scheduler, question)


def review_logs(connection: sqlite3.Connection, question: str | None = None) -> Iterator[tuple[str, list[Review]]]:
    """Each question's reviews in time order (only `question`'s when given), rated as its card is."""
    where = "" if question is None else "AND a.question = :question"
    rows = connection.execute(
        f"""SELECT a.question, a.at_ms, a.score, a.verdict, a.hints, a.revealed, a.duration_ms, e.attempt IS NOT NULL
            FROM attempts AS a LEFT JOIN easy_marks AS e ON e.attempt = a.id
            WHERE {REVIEWED} {where} ORDER BY a.question, a.at_ms, a.seq""",
        {"question": question},
    )
    for name, group in groupby(rows, key=itemgetter(0)):
        yield (
            name,
            [
                Review(at, rating_for(score, verdict, hints, bool(revealed), bool(easy)), duration)
                for _, at, score, verdict, hints, revealed, duration, easy in group
            ],
        )


def due_cards(connection: sqlite3.Connection, scheduler: ReviewScheduler, now: datetime) -> list[DueCard]:
    """The cards due at `now`, most overdue first."""
    rows = connection.execute("SELECT question, card, reviews FROM cards WHERE due_ms <= ? ORDER BY due_ms, question", (to_ms(now),))
    due = []
    for question, text, reviews in rows:
        card = Card.from_json(text)
        due.append(DueCard(question, card.due, card.stability or 0.0, card.difficulty or 0.0, scheduler.retrievability(card, now), reviews))
    return due


def _save(connection: sqlite3.Connection, state: CardState) -> CardState:
    card = state.card
    assert card.last_review is not None  # a stored card has been reviewed at least once
    connection.execute(
        """INSERT INTO cards (question, card, due_ms, reviews, last_ms) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (question) DO UPDATE SET card = excluded.card, due_ms = excluded.due_ms,
           reviews = excluded.reviews, last_ms = excluded.last_ms""",
        (state.question, card.to_json(), to_ms(card.due), state.reviews, to_ms(card.last_review)),
    )
    return state
