"""The history file's schema, one forward migration per version, tracked in PRAGMA user_version.

A migration runs inside the caller's write transaction, so a file is either at the old version
or fully at the new one. Attempts are append-only: triggers refuse to change or delete them.
"""

from __future__ import annotations

import sqlite3
from typing import Final

VERSION_1: Final = """
CREATE TABLE attempts (
    seq INTEGER PRIMARY KEY,              -- insertion order, breaks ties between equal times
    id TEXT NOT NULL UNIQUE,              -- random UUID
    at_ms INTEGER NOT NULL,               -- UTC epoch milliseconds
    question TEXT NOT NULL,
    version TEXT NOT NULL,                -- content version of the question
    key TEXT NOT NULL,                    -- variant key, id#seed
    seed INTEGER NOT NULL,
    inputs TEXT NOT NULL,                 -- drawn parameters, canonical JSON
    lang TEXT NOT NULL,
    mode TEXT NOT NULL CHECK (mode IN ('practice', 'mock', 'review')),
    response TEXT,                        -- as typed; NULL when there is none
    score REAL NOT NULL CHECK (score >= 0 AND score <= 1),
    verdict TEXT NOT NULL CHECK (verdict IN ('correct', 'partial', 'incorrect', 'revealed', 'no_answer', 'not_reached')),
    misconception TEXT,
    hints INTEGER NOT NULL CHECK (hints >= 0),
    revealed INTEGER NOT NULL CHECK (revealed IN (0, 1)),
    duration_ms INTEGER CHECK (duration_ms >= 0)
);
CREATE INDEX attempts_by_time ON attempts (at_ms);
CREATE INDEX attempts_by_question ON attempts (question, at_ms, score);
CREATE TRIGGER attempts_are_never_changed BEFORE UPDATE ON attempts
BEGIN SELECT RAISE(ABORT, 'attempts are append-only'); END;
CREATE TRIGGER attempts_are_never_deleted BEFORE DELETE ON attempts
BEGIN SELECT RAISE(ABORT, 'attempts are append-only'); END;

-- The learner said an attempt was easy (FSRS rating Easy instead of the one its grade gives).
CREATE TABLE easy_marks (
    attempt TEXT PRIMARY KEY REFERENCES attempts (id),
    at_ms INTEGER NOT NULL
);

-- One FSRS card per question id; rebuilt from the attempts whenever needed.
CREATE TABLE cards (
    question TEXT PRIMARY KEY,
    card TEXT NOT NULL,                   -- fsrs.Card as JSON
    due_ms INTEGER NOT NULL,              -- copied from the card for the due queries
    reviews INTEGER NOT NULL,             -- reviews applied so far (seeds the interval fuzz)
    last_ms INTEGER NOT NULL              -- time of the last review applied
);
CREATE INDEX cards_by_due ON cards (due_ms);

-- Settings kept with the data, such as the scheduler's parameters.
CREATE TABLE settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""

VERSION_2: Final = """
-- Timed mock interviews group their attempts.
ALTER TABLE attempts ADD COLUMN mock TEXT;
CREATE INDEX attempts_by_mock ON attempts (mock) WHERE mock IS NOT NULL;

-- What the learner has typed into a code question so far, kept across sessions.
-- Covering indexes for the statistics (v1's served only listings).
DROP INDEX attempts_by_question;
DROP INDEX attempts_by_time;
CREATE INDEX attempts_by_question ON attempts (question, at_ms, score, verdict);
CREATE INDEX attempts_by_time ON attempts (at_ms, score, verdict);
CREATE INDEX attempts_by_misconception ON attempts (misconception, at_ms) WHERE misconception IS NOT NULL;

CREATE TABLE drafts (
    key TEXT PRIMARY KEY,                 -- variant key
    text TEXT NOT NULL,
    updated_ms INTEGER NOT NULL
);
"""

VERSION_3: Final = """
-- Mock interview sittings: the plan as composed and the start on both clocks, so a sitting cut
-- short by a crash resumes with its deadline unchanged.
CREATE TABLE mocks (
    id TEXT PRIMARY KEY,                  -- random UUID; attempts.mock names it
    key TEXT NOT NULL,                    -- the printable key that composes the same mock again
    options TEXT NOT NULL,                -- canonical JSON
    plan TEXT NOT NULL,                   -- canonical JSON: [{question, seed, budget}, ...]
    lang TEXT NOT NULL,
    feedback TEXT NOT NULL CHECK (feedback IN ('end', 'each')),
    start_clock REAL NOT NULL,            -- the interview clock (seconds since boot) at the start
    start_wall REAL NOT NULL,             -- UTC epoch seconds at the start
    start_boot TEXT NOT NULL,             -- the boot the interview clock reading belongs to
    started_ms INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running', 'finished')),
    finished_ms INTEGER
);
CREATE INDEX mocks_by_status ON mocks (status, started_ms);

-- The questions of a sitting in the order they were asked, follow-ups included.
CREATE TABLE mock_questions (
    mock TEXT NOT NULL REFERENCES mocks (id),
    position INTEGER NOT NULL,            -- 1-based
    question TEXT NOT NULL,
    seed INTEGER NOT NULL,
    budget REAL NOT NULL,                 -- seconds
    follow_up_of TEXT,                    -- the question it probes, for a follow-up
    shown_s REAL NOT NULL,                -- seconds into the interview it was shown
    PRIMARY KEY (mock, position)
);

-- Spoken answers: notes and time kept as given, then the candidate's self-grades; once graded
-- the answer is recorded as an attempt with this id.
CREATE TABLE mock_self_grades (
    id TEXT PRIMARY KEY,
    mock TEXT NOT NULL REFERENCES mocks (id),
    position INTEGER NOT NULL,
    question TEXT NOT NULL,
    version TEXT NOT NULL,
    key TEXT NOT NULL,
    seed INTEGER NOT NULL,
    inputs TEXT NOT NULL,
    lang TEXT NOT NULL,
    notes TEXT,
    at_ms INTEGER NOT NULL,
    duration_ms INTEGER CHECK (duration_ms >= 0),
    levels TEXT,                          -- JSON list, one of missing/weak/good/strong per point
    graded_ms INTEGER
);
CREATE INDEX mock_self_grades_by_mock ON mock_self_grades (mock, position);
"""

VERSION_4: Final = """
-- Pushbacks: an interviewer's challenge to a graded answer, held or revised, graded on its own
-- and linked to the attempt it challenges (the question was answered once: one card review).
CREATE TABLE pushbacks (
    seq INTEGER PRIMARY KEY,              -- insertion order
    id TEXT NOT NULL UNIQUE,              -- random UUID
    attempt TEXT NOT NULL REFERENCES attempts (id),
    mock TEXT REFERENCES mocks (id),      -- the sitting, for a challenge in a mock interview
    question TEXT NOT NULL,
    choice TEXT NOT NULL CHECK (choice IN ('hold', 'revise')),
    response TEXT,                        -- the revised answer as typed; NULL when held
    score REAL NOT NULL CHECK (score >= 0 AND score <= 1),
    verdict TEXT NOT NULL CHECK (verdict IN ('correct', 'partial', 'incorrect')),
    at_ms INTEGER NOT NULL,
    duration_ms INTEGER CHECK (duration_ms >= 0)
);
CREATE INDEX pushbacks_by_mock ON pushbacks (mock, at_ms) WHERE mock IS NOT NULL;
CREATE INDEX pushbacks_by_attempt ON pushbacks (attempt);
"""

VERSION_5: Final = """
-- The question's topic and claims when it was asked, so the statistics place an attempt even
-- when the pack its question came from is not loaded; NULL in attempts recorded before v5 (the
-- statistics take those from the bank). Indexed with what the statistics sum, so they read
-- the index alone.
ALTER TABLE attempts ADD COLUMN topic TEXT;
ALTER TABLE attempts ADD COLUMN claims TEXT;  -- JSON list of claim ids
CREATE INDEX attempts_by_placing ON attempts (question, topic, claims, at_ms, score, verdict);
"""

MIGRATIONS: Final = (VERSION_1, VERSION_2, VERSION_3, VERSION_4, VERSION_5)
"""MIGRATIONS[n] takes a file from version n to version n + 1."""
CURRENT: Final = len(MIGRATIONS)


def user_version(connection: sqlite3.Connection) -> int:
    """The schema version the file says it has (0 for a new file)."""
    return int(connection.execute("PRAGMA user_version").fetchone()[0])


def is_empty(connection: sqlite3.Connection) -> bool:
    """Whether the file holds no table, index or trigger yet."""
    count: int = connection.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
    return count == 0


def migrate(connection: sqlite3.Connection, start: int, target: int = CURRENT) -> None:
    """Apply the migrations from version `start` up to `target`, inside the caller's transaction."""
    for version in range(start, target):
        for statement in _statements(MIGRATIONS[version]):
            connection.execute(statement)
        connection.execute(f"PRAGMA user_version = {version + 1}")


def _statements(script: str) -> list[str]:
    """The script split into statements (a trigger's body keeps its own semicolons)."""
    statements, current = [], ""
    for line in script.splitlines(keepends=True):
        if line.lstrip().startswith("--"):
            continue
        current += line
        if sqlite3.complete_statement(current):
            statements.append(current.strip())
            current = ""
    return [s for s in statements if s]
