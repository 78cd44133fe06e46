"""The attempts table: every graded answer, appended and never changed.

Each function works inside the caller's connection (and transaction), as the other tables' do;
`store.History` holds the transactions and turns errors into `HistoryUnavailable`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from typing import Any, Final

from quiz.history.records import AttemptRecord

_COLUMNS: Final = (
    "id, at_ms, question, version, key, seed, inputs, lang, mode, response, score, verdict, misconception, hints, revealed, duration_ms, mock, "
    "topic, claims"
)
_INSERT: Final = f"INSERT INTO attempts ({_COLUMNS}) VALUES ({', '.join('?' * len(_COLUMNS.split(', ')))})"


def insert_attempt(connection: sqlite3.Connection, attempt: AttemptRecord) -> None:
    """Append `attempt`; a ValueError when it cannot be (an id already recorded). Any other refusal
    (a trigger or constraint the quiz did not make) stays the sqlite3.IntegrityError it is: the
    store reports the file as one that cannot be used."""
    try:
        connection.execute(_INSERT, _row(attempt))
    except sqlite3.IntegrityError as exc:
        if connection.execute("SELECT 1 FROM attempts WHERE id = ?", (attempt.id,)).fetchone() is None:
            raise
        raise ValueError(f"attempt {attempt.id} cannot be recorded: {exc}") from None


def insert_new_attempts(connection: sqlite3.Connection, attempts: Iterable[AttemptRecord]) -> int:
    """Append the attempts whose ids are not here yet; how many were added."""
    insert = _INSERT.replace("INSERT", "INSERT OR IGNORE", 1)
    added: int = connection.executemany(insert, (_row(a) for a in attempts)).rowcount
    return added


def load_attempts(connection: sqlite3.Connection, *, limit: int | None, question: str | None, mock: str | None) -> list[AttemptRecord]:
    """Attempts, newest first: only `question`'s, or only mock interview `mock`'s, when given; at most `limit`."""
    filters = {name: value for name, value in (("question", question), ("mock", mock)) if value is not None}
    where = "WHERE " + " AND ".join(f"{name} = ?" for name in filters) if filters else ""
    rows = connection.execute(
        f"SELECT {_COLUMNS} FROM attempts {where} ORDER BY at_ms DESC, seq DESC LIMIT ?",
        (*filters.values(), -1 if limit is None else limit),
    )
    return [_record(row) for row in rows]


def attempts_with_marks(connection: sqlite3.Connection) -> Iterator[tuple[AttemptRecord, bool]]:
    """Every attempt, oldest first, with whether the learner marked it Easy."""
    rows = connection.execute(
        f"""SELECT {_COLUMNS}, EXISTS (SELECT 1 FROM easy_marks WHERE attempt = attempts.id)
            FROM attempts ORDER BY at_ms, seq"""
    )
    for *row, easy in rows:
        yield _record(tuple(row)), bool(easy)


def _row(attempt: AttemptRecord) -> tuple[object, ...]:
    """An attempt as the values of `_COLUMNS`."""
    a = attempt
    return (
        a.id, a.at_ms, a.question, a.version, a.key, a.seed, a.inputs_json, a.lang, a.mode, a.response,
        float(a.score), a.verdict, a.misconception, a.hints, int(a.revealed), a.duration_ms, a.mock,
        a.topic, None if a.claims is None else json.dumps(list(a.claims), ensure_ascii=False),
    )  # fmt: skip


def _record(row: tuple[Any, ...]) -> AttemptRecord:
    """An attempt from a row of `_COLUMNS` (sqlite3 types its values as Any)."""
    (id_, at_ms, question, version, key, seed, inputs, lang, mode, response, score, verdict, misconception, hints, revealed,
     duration, mock, topic, claims) = row  # fmt: skip
    return AttemptRecord(
        id_, at_ms, question, version, key, seed, json.loads(inputs), lang, mode, response,
        score, verdict, misconception, hints, bool(revealed), duration, mock, topic, read_claims(claims),
    )  # fmt: skip


def read_claims(stored: str | None) -> tuple[str, ...] | None:
    """An attempt's claims as stored (a JSON list), or None when they were not recorded or do not read as one."""
    if stored is None:
        return None
    try:
        claims = json.loads(stored)
    except ValueError:
        return None
    return tuple(claims) if isinstance(claims, list) and all(isinstance(c, str) for c in claims) else None
