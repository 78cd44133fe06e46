"""Mock interviews in the history file: the sitting, the questions as they were asked, and the
spoken answers with their self-grades.

A mock's graded answers are ordinary attempts (mode `mock`, `attempts.mock` = the sitting's id).
What attempts cannot hold lives here: the plan and the stored start (so a mock cut short by a
crash resumes with its clock still running), the order questions were asked in (follow-ups
included, each naming the question it follows up, so the chains' trees can be rebuilt), each
spoken answer's notes until the candidate self-grades it, and the challenges met (pushbacks,
quiz.history.pushbacks). Attempts are append-only, so a spoken answer becomes an attempt only once self-graded, with the score its
self-grades give; until then its notes and time wait in `mock_self_grades`, committed as given.
Each function works inside the caller's connection (and transaction).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from quiz.history.pushbacks import PushbackRow
from quiz.history.records import AttemptRecord, canonical_json

STATUSES: Final = ("running", "finished")
LEVELS: Final = ("missing", "weak", "good", "strong")
"""How well a spoken answer made one checklist point, as the candidate grades it."""
LEVEL_SCORES: Final = {"missing": 0.0, "weak": 1 / 3, "good": 2 / 3, "strong": 1.0}


@dataclass(frozen=True)
class MockRow:
    """One sitting of a mock interview: what it is and when it started (on both clocks)."""

    id: str
    key: str
    options: Mapping[str, Any]
    plan: Sequence[Mapping[str, Any]]
    """The planned questions in order: `{"question", "seed", "budget"}` each."""
    lang: str
    feedback: str
    start_clock: float
    start_wall: float
    start_boot: str
    started_ms: int
    status: str = "running"
    finished_ms: int | None = None


@dataclass(frozen=True)
class AskedRow:
    """A question as it was put to the candidate: its place, variant, budget and when."""

    mock: str
    position: int
    """1-based, in the order asked."""
    question: str
    seed: int
    budget: float
    follow_up_of: str | None
    shown_s: float
    """Seconds into the interview it was shown."""


@dataclass(frozen=True)
class SpokenRow:
    """A spoken (explain) answer: the notes typed and the time taken, then the self-grades.

    `id` is the id its attempt gets once self-graded."""

    id: str
    mock: str
    position: int
    question: str
    version: str
    key: str
    seed: int
    inputs: Mapping[str, Any]
    lang: str
    notes: str | None
    at_ms: int
    duration_ms: int | None
    levels: tuple[str, ...] | None = None
    """One level (LEVELS) per checklist point, once self-graded."""
    graded_ms: int | None = None


@dataclass(frozen=True)
class StoredMock:
    """Everything kept of one sitting, as the report and a resumed session read it."""

    row: MockRow
    asked: tuple[AskedRow, ...] = ()
    attempts: tuple[AttemptRecord, ...] = ()
    """Its attempts, oldest first."""
    spoken: tuple[SpokenRow, ...] = field(default=())
    pushbacks: tuple[PushbackRow, ...] = ()
    """The challenges met, in the order given."""


@dataclass
class MockProgress:
    """What one step of a sitting adds (starting it, an answer, the close), committed together:
    one transaction, so an answer and the question asked next cost one commit."""

    mock_id: str
    mock: MockRow | None = None
    """The sitting itself, when the step starts it."""
    spoken: list[SpokenRow] = field(default_factory=list)
    attempts: list[AttemptRecord] = field(default_factory=list)
    asked: list[AskedRow] = field(default_factory=list)
    pushbacks: list[PushbackRow] = field(default_factory=list)
    finished_ms: int | None = None
    """When the sitting finished, when the step finishes it."""

    def __bool__(self) -> bool:
        return bool(self.mock or self.spoken or self.attempts or self.asked or self.pushbacks or self.finished_ms is not None)


def chain_depth(asked: Sequence[AskedRow], index: int) -> int:
    """How many follow-up links lead from a planned question to `asked[index]` (0 for a planned one)."""
    parents = {row.question: row.follow_up_of for row in asked}
    depth, parent = 0, asked[index].follow_up_of
    while parent is not None and depth < len(asked):  # bounded: stored rows are data
        depth += 1
        parent = parents.get(parent)
    return depth


def self_grade_score(levels: Sequence[str]) -> float:
    """The score of a spoken answer: the mean of its points' levels (missing 0 … strong 1)."""
    return sum(LEVEL_SCORES[level] for level in levels) / len(levels) if levels else 0.0


def insert_mock(connection: sqlite3.Connection, row: MockRow) -> None:
    connection.execute(
        """INSERT INTO mocks (id, key, options, plan, lang, feedback, start_clock, start_wall, start_boot,
           started_ms, status, finished_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        _mock_values(row),
    )


def insert_or_keep_mock(connection: sqlite3.Connection, row: MockRow) -> bool:
    """Add a sitting unless one with its id is here (an import); whether it was added."""
    cursor = connection.execute(
        """INSERT OR IGNORE INTO mocks (id, key, options, plan, lang, feedback, start_clock, start_wall,
           start_boot, started_ms, status, finished_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        _mock_values(row),
    )
    return cursor.rowcount == 1


def _mock_values(row: MockRow) -> tuple[object, ...]:
    return (
        row.id, row.key, canonical_json(row.options), canonical_json(list(row.plan)), row.lang, row.feedback,
        row.start_clock, row.start_wall, row.start_boot, row.started_ms, row.status, row.finished_ms,
    )  # fmt: skip


def insert_asked(connection: sqlite3.Connection, row: AskedRow, *, keep: bool = False) -> None:
    """Add a question as asked (`keep`: leave one already at its place, for an import)."""
    verb = "INSERT OR IGNORE" if keep else "INSERT"
    connection.execute(
        f"{verb} INTO mock_questions (mock, position, question, seed, budget, follow_up_of, shown_s) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (row.mock, row.position, row.question, row.seed, row.budget, row.follow_up_of, row.shown_s),
    )


def insert_spoken(connection: sqlite3.Connection, row: SpokenRow, *, keep: bool = False) -> None:
    """Add a spoken answer (`keep`: leave one already here, for an import)."""
    verb = "INSERT OR IGNORE" if keep else "INSERT"
    connection.execute(
        f"""{verb} INTO mock_self_grades (id, mock, position, question, version, key, seed, inputs, lang, notes,
            at_ms, duration_ms, levels, graded_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        (
            row.id, row.mock, row.position, row.question, row.version, row.key, row.seed, canonical_json(row.inputs),
            row.lang, row.notes, row.at_ms, row.duration_ms,
            None if row.levels is None else canonical_json(list(row.levels)), row.graded_ms,
        ),
    )  # fmt: skip


def set_levels(connection: sqlite3.Connection, item_id: str, levels: Sequence[str], graded_ms: int) -> bool:
    """Store the self-grades of a spoken answer not graded yet; False when there is none such."""
    cursor = connection.execute(
        "UPDATE mock_self_grades SET levels = ?, graded_ms = ? WHERE id = ? AND levels IS NULL",
        (canonical_json(list(levels)), graded_ms, item_id),
    )
    return cursor.rowcount == 1


def finish_mock(connection: sqlite3.Connection, mock_id: str, finished_ms: int) -> None:
    connection.execute("UPDATE mocks SET status = 'finished', finished_ms = ? WHERE id = ? AND status = 'running'", (finished_ms, mock_id))


_MOCK_COLUMNS: Final = "id, key, options, plan, lang, feedback, start_clock, start_wall, start_boot, started_ms, status, finished_ms"


def _mock(row: tuple[Any, ...]) -> MockRow:
    id_, key, options, plan, lang, feedback, clock, wall, boot, started, status, finished = row
    return MockRow(id_, key, json.loads(options), json.loads(plan), lang, feedback, clock, wall, boot, started, status, finished)


def load_mocks(connection: sqlite3.Connection, *, status: str | None = None, key: str | None = None) -> list[MockRow]:
    """Sittings, oldest first: only those with `status` or `key` when given."""
    filters = {name: value for name, value in (("status", status), ("key", key)) if value is not None}
    where = "WHERE " + " AND ".join(f"{name} = ?" for name in filters) if filters else ""
    rows = connection.execute(f"SELECT {_MOCK_COLUMNS} FROM mocks {where} ORDER BY started_ms, id", tuple(filters.values()))
    return [_mock(row) for row in rows]


def load_mock(connection: sqlite3.Connection, mock_id: str) -> MockRow | None:
    row = connection.execute(f"SELECT {_MOCK_COLUMNS} FROM mocks WHERE id = ?", (mock_id,)).fetchone()
    return None if row is None else _mock(row)


def load_asked(connection: sqlite3.Connection, mock_id: str) -> list[AskedRow]:
    rows = connection.execute(
        "SELECT mock, position, question, seed, budget, follow_up_of, shown_s FROM mock_questions WHERE mock = ? ORDER BY position",
        (mock_id,),
    )
    return [AskedRow(*row) for row in rows]


def load_spoken(connection: sqlite3.Connection, mock_id: str | None = None) -> list[SpokenRow]:
    """Spoken answers, in the order given: only `mock_id`'s when given."""
    where = "WHERE mock = ?" if mock_id is not None else ""
    rows = connection.execute(
        f"""SELECT id, mock, position, question, version, key, seed, inputs, lang, notes, at_ms, duration_ms, levels, graded_ms
            FROM mock_self_grades {where} ORDER BY mock, position""",
        (mock_id,) if mock_id is not None else (),
    )
    found = []
    for id_, mock, position, question, version, key, seed, inputs, lang, notes, at_ms, duration, levels, graded in rows:
        graded_levels = None if levels is None else tuple(json.loads(levels))
        found.append(
            SpokenRow(id_, mock, position, question, version, key, seed, json.loads(inputs), lang, notes, at_ms, duration, graded_levels, graded)
        )
    return found
