"""The history file: one SQLite database in the data directory, opened safely, written atomically.

WAL journal, foreign keys on, a busy timeout, schema versions in PRAGMA user_version. Each thread
gets its own connection (Textual's thread workers open their own). Recording an attempt appends
it and updates its review card in one BEGIN IMMEDIATE transaction, committed before `record`
returns, so two processes writing at once lose nothing and a killed process loses nothing it
had recorded. A file that cannot be used is reported as an `Unavailable` reason and never
overwritten or deleted; before a migration the file is first copied with `Connection.backup()`.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote

from fsrs import Scheduler

from quiz.base import locations
from quiz.history import cards, drafts, mocks, pushbacks, schema
from quiz.history.attempts import attempts_with_marks as all_attempts_with_marks
from quiz.history.attempts import insert_attempt, insert_new_attempts, load_attempts
from quiz.history.cards import CardState, DueCard
from quiz.history.drafts import Draft
from quiz.history.header import check_existing_file
from quiz.history.mocks import MockProgress, MockRow, SpokenRow, StoredMock
from quiz.history.pushbacks import PushbackRow
from quiz.history.records import AttemptRecord, check, now_ms
from quiz.history.scheduling import PASS_MARK, Review, ReviewScheduler
from quiz.history.unavailable import (
    DAMAGED,
    NEWER,
    NOT_HISTORY,
    HistoryUnavailable,
    Unavailable,
    from_os_error,
    from_sqlite_error,
)

HISTORY_FILE: Final = "history.sqlite3"
BUSY_TIMEOUT_S: Final = 5.0
"""How long a writer waits for another one (another app instance) before giving up."""


def history_path() -> Path:
    """Where the history file lives: `history.sqlite3` in the data directory (`QUIZ_DATA_DIR`)."""
    return locations.data_dir() / HISTORY_FILE


def open_history(
    path: Path | None = None, *, busy_timeout_s: float = BUSY_TIMEOUT_S, parameters: Scheduler | None = None
) -> History | Unavailable:
    """Open (creating or migrating when needed) the history file, or say why it cannot be used.

    `parameters` are the FSRS parameters a new file starts with (default: fsrs's, fuzz on); an
    existing file keeps its own.
    """
    path = path or history_path()
    problem = check_existing_file(path)
    if problem is not None:
        return problem
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return from_os_error(exc, path)
    history = History(path, busy_timeout_s)
    try:
        problem = history._prepare(parameters)
    except HistoryUnavailable as exc:
        problem = exc.reason
    except sqlite3.Error as exc:
        problem = from_sqlite_error(exc, path)
    except OSError as exc:
        problem = from_os_error(exc, path)
    if problem is not None:
        history.close()
        return problem
    return history


class History:
    """An open history file. Use `open_history()`; every method may raise `HistoryUnavailable`."""

    def __init__(self, path: Path, busy_timeout_s: float) -> None:
        self.path = path
        self._busy_timeout_s = busy_timeout_s
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: list[sqlite3.Connection] = []
        self._scheduler = ReviewScheduler()

    def connection(self) -> sqlite3.Connection:
        """This thread's connection (opened on first use)."""
        connection = getattr(self._local, "connection", None)
        if connection is None:
            connection = self._connect("rw")
            self._local.connection = connection
        return connection

    def close(self) -> None:
        """Close every thread's connection."""
        with self._lock:
            for connection in self._connections:
                connection.close()
            self._connections.clear()
        self._local = threading.local()

    def __enter__(self) -> History:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # --- writing -------------------------------------------------------------------------

    def record(self, attempt: AttemptRecord) -> CardState | None:
        """Append `attempt` and update its question's card, committed before returning.

        Returns the card after the attempt (None for a question not reached in a mock interview
        and never reviewed). Raises ValueError for an invalid record or an id already recorded.
        """
        check(attempt)
        with self._reporting(), self._transaction() as connection:
            insert_attempt(connection, attempt)
            return cards.apply_attempt(connection, self._scheduler, attempt)

    def mark_easy(self, attempt_id: str, at_ms: int | None = None) -> CardState | None:
        """The learner found a passed attempt easy: rate it Easy and reschedule its card.

        Raises KeyError for an unknown attempt and ValueError for one below the pass mark.
        """
        with self._reporting(), self._transaction() as connection:
            row = connection.execute("SELECT question, score, verdict FROM attempts WHERE id = ?", (attempt_id,)).fetchone()
            if row is None:
                raise KeyError(attempt_id)
            question, score, verdict = row
            if score < PASS_MARK or verdict == "not_reached":
                raise ValueError(f"attempt {attempt_id} did not pass, so it cannot be rated Easy")
            connection.execute("INSERT OR IGNORE INTO easy_marks (attempt, at_ms) VALUES (?, ?)", (attempt_id, at_ms or now_ms()))
            return cards.rebuild_card(connection, self._scheduler, question)

    def reschedule_card(self, question: str) -> CardState | None:
        """Rebuild `question`'s card from its attempts alone (None when it has none)."""
        with self._reporting(), self._transaction() as connection:
            return cards.rebuild_card(connection, self._scheduler, question)

    def add_attempts(
        self, attempts: Sequence[tuple[AttemptRecord, bool]], sittings: Sequence[StoredMock] = (), met: Sequence[PushbackRow] = ()
    ) -> tuple[int, int]:
        """Add attempts (each with its Easy mark), mock sittings and challenges met in practice that
        are not here yet, all in one transaction, then rebuild the cards of their questions. Returns
        (added, already present) attempts; a sitting already here is kept as it is."""
        for attempt, _easy in attempts:
            check(attempt)
        with self._reporting(), self._transaction() as connection:
            for sitting in sittings:
                if mocks.insert_or_keep_mock(connection, sitting.row):
                    for asked in sitting.asked:
                        mocks.insert_asked(connection, asked, keep=True)
                    for spoken in sitting.spoken:
                        mocks.insert_spoken(connection, spoken, keep=True)
            added = insert_new_attempts(connection, (a for a, _ in attempts))
            for pushback in [*(p for sitting in sittings for p in sitting.pushbacks), *met]:  # after the attempts they challenge
                pushbacks.insert_pushback(connection, pushback, keep=True)
            connection.executemany(
                "INSERT OR IGNORE INTO easy_marks (attempt, at_ms) VALUES (?, ?)",
                ((a.id, a.at_ms) for a, easy in attempts if easy),
            )
            for question in sorted({a.question for a, _ in attempts}):
                cards.rebuild_card(connection, self._scheduler, question)
        return added, len(attempts) - added

    def reschedule(self, parameters: Scheduler, settings: Mapping[str, str] | None = None) -> None:
        """Schedule with `parameters` from now on: store them (and the `settings` rows beside them)
        and every card rebuilt from its attempts. The cards are built before the write transaction
        and stored in it, so an attempt recorded meanwhile (the app refits while the learner goes on)
        waits milliseconds, not the whole rebuild; its card is built again in the transaction."""
        scheduler = ReviewScheduler(parameters)
        with self._reporting():
            connection = self.connection()
            connection.execute("BEGIN")  # one snapshot to build from
            try:
                built = cards.rebuilt_cards(connection, scheduler)
            finally:
                connection.execute("COMMIT")
            previous = self._scheduler
            try:
                with self._transaction() as connection:
                    rows = {**(settings or {}), "scheduler": scheduler.to_json()}
                    connection.executemany("INSERT OR REPLACE INTO settings (name, value) VALUES (?, ?)", rows.items())
                    cards.store_rebuilt_cards(connection, scheduler, built)
                    self._scheduler = scheduler  # before the commit: a writer waiting for it then uses the new set
            except BaseException:
                self._scheduler = previous
                raise

    def save_setting(self, name: str, value: str | None) -> None:
        """Keep `value` under `name` in the file's settings table (None removes it), committed
        before returning; the scheduler's parameters are not set this way (see `reschedule`)."""
        if name == "scheduler":
            raise ValueError("the scheduler's parameters are set by reschedule, with the cards rebuilt")
        with self._reporting(), self._transaction() as connection:
            if value is None:
                connection.execute("DELETE FROM settings WHERE name = ?", (name,))
            else:
                connection.execute(
                    "INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value", (name, value)
                )

    def backup(self, target: Path) -> None:
        """Copy the whole file, consistent at one moment, to `target` (which must not exist)."""
        if target.exists():
            raise FileExistsError(target)
        with self._reporting():
            copy = sqlite3.connect(target)
            try:
                self.connection().backup(copy)
            finally:
                copy.close()

    # --- reading -------------------------------------------------------------------------

    def attempts(self, *, limit: int | None = None, question: str | None = None, mock: str | None = None) -> list[AttemptRecord]:
        """Attempts, newest first: only `question`'s, or only mock interview `mock`'s, when given;
        at most `limit`."""
        with self._reporting():
            return load_attempts(self.connection(), limit=limit, question=question, mock=mock)

    def read(self, sql: str, params: Sequence[object] | Mapping[str, object] = ()) -> list[tuple[Any, ...]]:
        """The rows of a read-only query on this thread's connection (statistics use it)."""
        with self._reporting():
            return self.connection().execute(sql, params).fetchall()

    def setting(self, name: str) -> str | None:
        """The value kept under `name` in the file's settings table, or None."""
        with self._reporting():
            row = self.connection().execute("SELECT value FROM settings WHERE name = ?", (name,)).fetchone()
            return None if row is None else str(row[0])

    @property
    def scheduler(self) -> ReviewScheduler:
        """The FSRS scheduler with this file's parameters (planning simulates reviews with it)."""
        return self._scheduler

    def attempts_with_marks(self) -> Iterator[tuple[AttemptRecord, bool]]:
        """Every attempt, oldest first, with whether the learner marked it Easy (for export)."""
        with self._reporting():
            yield from all_attempts_with_marks(self.connection())

    def attempt_count(self) -> int:
        """How many attempts the file holds."""
        with self._reporting():
            count: int = self.connection().execute("SELECT count(*) FROM attempts").fetchone()[0]
            return count

    def parameters(self) -> Scheduler:
        """The FSRS parameters the cards are scheduled with (and the desired retention)."""
        return self._scheduler.parameters

    def review_logs(self) -> list[tuple[str, list[Review]]]:
        """Each reviewed question's reviews in time order, rated as its card is (for fitting FSRS)."""
        with self._reporting():
            return list(cards.review_logs(self.connection()))

    def review_count(self) -> int:
        """How many attempts were reviews of a card (all but questions a mock interview did not reach)."""
        with self._reporting():
            count: int = self.connection().execute(f"SELECT count(*) FROM attempts WHERE {cards.REVIEWED}").fetchone()[0]
            return count

    def cards(self) -> list[CardState]:
        """Every stored card, by question id."""
        with self._reporting():
            return cards.load_cards(self.connection())

    def card(self, question: str) -> CardState | None:
        """`question`'s review card, or None before its first review."""
        with self._reporting():
            return cards.load_card(self.connection(), question)

    def due(self, now: datetime) -> list[DueCard]:
        """The cards due at `now` (an aware datetime), most overdue first."""
        with self._reporting():
            return cards.due_cards(self.connection(), self._scheduler, now)

    def draft(self, key: str) -> Draft | None:
        """What the learner last typed for `key` and did not submit, if anything. `key` is a variant
        key, or a question id where the answer does not depend on the variant (a code question's)."""
        with self._reporting():
            return drafts.load_draft(self.connection(), key)

    def save_draft(self, key: str, text: str, at_ms: int | None = None) -> None:
        """Keep `text` as the draft answer for `key` (replacing the previous draft), committed before returning."""
        with self._reporting(), self._transaction() as connection:
            drafts.save_draft(connection, Draft(key, text, at_ms or now_ms()))

    def discard_draft(self, key: str) -> None:
        """Forget the draft of `key` (once its answer is submitted)."""
        with self._reporting(), self._transaction() as connection:
            drafts.discard_draft(connection, key)

    # --- mock interviews ------------------------------------------------------------------

    def save_mock(self, progress: MockProgress) -> None:
        """Commit a step of a sitting in one transaction: the sitting when new, spoken answers,
        attempts with their card updates, challenges met, questions asked, and the finish, in that order.

        Raises ValueError for an invalid attempt or an id already recorded."""
        for attempt in progress.attempts:
            check(attempt)
        with self._reporting(), self._transaction() as connection:
            if progress.mock is not None:
                mocks.insert_mock(connection, progress.mock)
            for spoken in progress.spoken:
                mocks.insert_spoken(connection, spoken)
            for attempt in progress.attempts:
                insert_attempt(connection, attempt)
                cards.apply_attempt(connection, self._scheduler, attempt)
            for pushback in progress.pushbacks:
                pushbacks.insert_pushback(connection, pushback)
            for asked in progress.asked:
                mocks.insert_asked(connection, asked)
            if progress.finished_ms is not None:
                mocks.finish_mock(connection, progress.mock_id, progress.finished_ms)

    def save_pushback(self, row: PushbackRow) -> None:
        """Commit a challenge met, after the attempt it challenges."""
        with self._reporting(), self._transaction() as connection:
            pushbacks.insert_pushback(connection, row)

    def practice_pushbacks(self) -> list[PushbackRow]:
        """The challenges met outside mock interviews (practice), in the order given."""
        with self._reporting():
            return pushbacks.load_pushbacks(self.connection(), None)

    def self_grade(self, row: SpokenRow, attempt: AttemptRecord) -> CardState | None:
        """Store a spoken answer's self-grades and record its attempt, in one transaction.

        Raises ValueError when it is not awaiting self-grades (unknown or already graded)."""
        assert row.levels is not None and row.graded_ms is not None
        check(attempt)
        with self._reporting(), self._transaction() as connection:
            if not mocks.set_levels(connection, row.id, row.levels, row.graded_ms):
                raise ValueError(f"spoken answer {row.id} is not awaiting self-grades")
            insert_attempt(connection, attempt)
            return cards.apply_attempt(connection, self._scheduler, attempt)

    def mocks(self, *, status: str | None = None, key: str | None = None) -> list[MockRow]:
        """Sittings, oldest first: only those with `status` (running, finished) or `key` when given."""
        with self._reporting():
            return mocks.load_mocks(self.connection(), status=status, key=key)

    def running_mocks(self) -> list[MockRow]:
        """Sittings still running: interrupted ones, to offer for resuming."""
        return self.mocks(status="running")

    def mock(self, mock_id: str) -> StoredMock | None:
        """Everything kept of sitting `mock_id`, read at one moment; None when there is none."""
        with self._reporting():
            connection = self.connection()
            connection.execute("BEGIN")  # one snapshot: another process may be adding to it
            try:
                row = mocks.load_mock(connection, mock_id)
                asked = mocks.load_asked(connection, mock_id)
                spoken = mocks.load_spoken(connection, mock_id)
                met = pushbacks.load_pushbacks(connection, mock_id)
                attempts = tuple(reversed(self.attempts(mock=mock_id)))
            finally:
                connection.execute("COMMIT")
        return None if row is None else StoredMock(row, tuple(asked), attempts, tuple(spoken), tuple(met))

    # --- internals -----------------------------------------------------------------------

    def _connect(self, mode: str) -> sqlite3.Connection:
        connection = sqlite3.connect(
            f"file:{quote(str(self.path.resolve()))}?mode={mode}",
            uri=True,
            timeout=self._busy_timeout_s,
            isolation_level=None,  # transactions are explicit: BEGIN IMMEDIATE ... COMMIT
            check_same_thread=False,  # used by one thread only; close() may run on another
        )
        with self._lock:
            self._connections.append(connection)
        connection.execute("PRAGMA foreign_keys = ON")
        # FULL: a committed attempt survives a power cut, not only a killed process.
        connection.execute("PRAGMA synchronous = FULL")
        return connection

    def _prepare(self, parameters: Scheduler | None) -> Unavailable | None:
        self._local.connection = connection = self._connect("rwc")
        version = schema.user_version(connection)
        if version > schema.CURRENT:
            return Unavailable(NEWER, self.path, params={"version": version, "supported": schema.CURRENT})
        if version == 0 and not schema.is_empty(connection):
            return Unavailable(NOT_HISTORY, self.path)
        # Only now, once the file is known to be ours: switching to WAL rewrites its header.
        # The mode stays with the file, so other connections need not set it.
        connection.execute("PRAGMA journal_mode = WAL")
        if 0 < version < schema.CURRENT:
            self.backup(self._backup_path(version))
        with self._transaction() as connection:
            version = schema.user_version(connection)  # another process may have migrated it
            if version < schema.CURRENT:
                schema.migrate(connection, version)
            connection.execute(
                "INSERT OR IGNORE INTO settings (name, value) VALUES ('scheduler', ?)",
                (ReviewScheduler(parameters).to_json(),),
            )
            [stored] = connection.execute("SELECT value FROM settings WHERE name = 'scheduler'").fetchone()
        try:
            self._scheduler = ReviewScheduler.from_json(stored)
        except (ValueError, KeyError, TypeError) as exc:
            return Unavailable(DAMAGED, self.path, f"the stored FSRS parameters cannot be read ({exc})")
        return None

    def _backup_path(self, version: int) -> Path:
        stem = self.path.with_suffix("").name
        for n in range(1, 1000):
            candidate = self.path.with_name(f"{stem}.v{version}-backup{'' if n == 1 else f'-{n}'}.sqlite3")
            if not candidate.exists():
                return candidate
        raise FileExistsError(f"too many backups beside {self.path}")

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction that takes the write lock at once, so no other writer interleaves."""
        connection = self.connection()
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield connection
            connection.execute("COMMIT")
        except BaseException:
            # Also when COMMIT itself fails (a full disk): the connection must not stay inside
            # a transaction, or every later write on it would fail too.
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise

    @contextmanager
    def _reporting(self) -> Iterator[None]:
        """Turn SQLite and file errors into `HistoryUnavailable` with the reason."""
        try:
            yield
        except sqlite3.Error as exc:
            raise HistoryUnavailable(from_sqlite_error(exc, self.path)) from exc
        except OSError as exc:
            raise HistoryUnavailable(from_os_error(exc, self.path)) from exc
