"""Why history cannot be used right now, as a value the app can say in the learner's language.

Every failure of the history file (damaged, truncated, locked, read-only, from a newer version,
a full disk) becomes an `Unavailable`: a catalogue key under `history.` and its parameters.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from quiz.locale.i18n import DEFAULT_LANGUAGE, tr

DAMAGED: Final = "damaged"
NOT_HISTORY: Final = "not_history"
TRUNCATED: Final = "truncated"
NEWER: Final = "newer"
LOCKED: Final = "locked"
READ_ONLY: Final = "read_only"
DISK_FULL: Final = "disk_full"
CANNOT_OPEN: Final = "cannot_open"

# SQLite's primary result codes (the low byte of an extended code) and what each means here.
_BY_SQLITE_CODE: Final = {
    5: LOCKED,  # SQLITE_BUSY: another connection holds the lock past the busy timeout
    6: LOCKED,  # SQLITE_LOCKED
    8: READ_ONLY,  # SQLITE_READONLY
    11: DAMAGED,  # SQLITE_CORRUPT
    13: DISK_FULL,  # SQLITE_FULL
    19: DAMAGED,  # SQLITE_CONSTRAINT past the quiz's own checks: a trigger or constraint it did not make
    26: NOT_HISTORY,  # SQLITE_NOTADB
}


@dataclass(frozen=True)
class Unavailable:
    """History cannot be used: `key` names the catalogue text `history.<key>`, `params` fill it."""

    key: str
    path: Path
    detail: str = ""
    params: Mapping[str, object] = field(default_factory=dict)

    def message(self, lang: str = DEFAULT_LANGUAGE) -> str:
        """The reason in `lang`, naming the file; the file is always said to be left untouched."""
        return tr(f"history.{self.key}", lang, path=str(self.path), detail=self.detail, **self.params)

    def __str__(self) -> str:
        return self.message()


class HistoryUnavailable(Exception):
    """Raised by store operations when the file cannot be used; carries the `Unavailable` reason."""

    def __init__(self, reason: Unavailable) -> None:
        super().__init__(str(reason))
        self.reason = reason


def from_sqlite_error(exc: sqlite3.Error, path: Path) -> Unavailable:
    """The reason behind a SQLite error on the history file."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    key = _BY_SQLITE_CODE.get(primary, CANNOT_OPEN) if primary is not None else CANNOT_OPEN
    detail = f"a write was refused by a rule the quiz did not make: {exc}" if primary == 19 else str(exc)
    return Unavailable(key, path, detail)


def from_os_error(exc: OSError, path: Path) -> Unavailable:
    """The reason behind an operating-system error on the history file or its folder."""
    return Unavailable(CANNOT_OPEN, path, exc.strerror or str(exc))
