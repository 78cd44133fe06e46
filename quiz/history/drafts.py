"""Drafts: what the learner has typed into a long answer (a code question) and not yet submitted,
kept across sessions. Unlike attempts, a draft is replaced and forgotten."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass


@dataclass(frozen=True)
class Draft:
    """The unsubmitted text of the answer to one variant."""

    key: str
    text: str
    updated_ms: int


def load_draft(connection: sqlite3.Connection, key: str) -> Draft | None:
    row = connection.execute("SELECT text, updated_ms FROM drafts WHERE key = ?", (key,)).fetchone()
    return None if row is None else Draft(key, row[0], row[1])


def save_draft(connection: sqlite3.Connection, draft: Draft) -> None:
    connection.execute(
        """INSERT INTO drafts (key, text, updated_ms) VALUES (?, ?, ?)
           ON CONFLICT (key) DO UPDATE SET text = excluded.text, updated_ms = excluded.updated_ms""",
        (draft.key, draft.text, draft.updated_ms),
    )


def discard_draft(connection: sqlite3.Connection, key: str) -> None:
    connection.execute("DELETE FROM drafts WHERE key = ?", (key,))
