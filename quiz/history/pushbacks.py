"""Pushbacks in the history file: an interviewer's challenge to a graded answer, and how the
candidate met it (held the answer, or revised it), graded.

A pushback is linked to the attempt it challenges rather than being an attempt itself: the
question was answered once, so its card is reviewed once; the challenge is graded on its own
(the final answer right or not) and the mock report shows and scores it beside the answer.
Each row is committed as it is graded, like an attempt. Functions work inside the caller's
connection (and transaction).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Final

CHOICES: Final = ("hold", "revise")


@dataclass(frozen=True)
class PushbackRow:
    """A challenge met: to which attempt, held or revised (with the revised answer), and its grade."""

    id: str
    attempt: str
    """The id of the attempt challenged."""
    mock: str | None
    question: str
    choice: str
    """`hold` or `revise`."""
    response: str | None
    """The revised answer as typed (None when held)."""
    score: float
    verdict: str
    """The final answer's verdict: correct when it stands right after the challenge."""
    at_ms: int
    duration_ms: int | None


COLUMNS: Final = "id, attempt, mock, question, choice, response, score, verdict, at_ms, duration_ms"


def insert_pushback(connection: sqlite3.Connection, row: PushbackRow, *, keep: bool = False) -> None:
    """Add a challenge met (`keep`: leave one already here, for an import)."""
    verb = "INSERT OR IGNORE" if keep else "INSERT"
    connection.execute(
        f"{verb} INTO pushbacks ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (row.id, row.attempt, row.mock, row.question, row.choice, row.response, row.score, row.verdict, row.at_ms, row.duration_ms),
    )


def load_pushbacks(connection: sqlite3.Connection, mock_id: str | None) -> list[PushbackRow]:
    """The challenges met in sitting `mock_id` (None: outside any sitting, in practice), in the order given."""
    where = "mock = ?" if mock_id is not None else "mock IS NULL"
    rows = connection.execute(f"SELECT {COLUMNS} FROM pushbacks WHERE {where} ORDER BY at_ms, seq", (mock_id,) if mock_id is not None else ())
    return [PushbackRow(*row) for row in rows]
