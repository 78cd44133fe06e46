"""The history as the app uses it: opened off the critical path, every graded attempt committed
as it is graded, and any reason the file cannot be used said once.

The app calls `open` in a worker thread once the first screen is drawn. An attempt graded before
the file is open opens it, or waits for the worker doing so (opening takes a millisecond or so);
reads made while the first screen is built do not wait, and count this run's attempts instead. Once the file fails
(damaged, cut short, locked, read-only, from a newer version), the recorder stops using it for
the rest of the run, so it is never touched again; `notice` gives the reason once, for the app
to say. The store and its statistics are imported in `open`, off the first screen's path.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Mapping
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from quiz.history.records import AttemptRecord, local_now, to_ms

if TYPE_CHECKING:
    from quiz.history.cards import CardState
    from quiz.history.mocks import MockProgress, MockRow, SpokenRow, StoredMock
    from quiz.history.personal import DailyLoad, Fit, Standing
    from quiz.history.pushbacks import PushbackRow
    from quiz.history.stats import QuestionInfo, Statistics
    from quiz.history.store import History
    from quiz.history.unavailable import Unavailable

T = TypeVar("T")


class Recorder:
    """The app's link to the history file at `path` (default: the data directory's)."""

    def __init__(
        self, path: Path | None = None, *, now: Callable[[], datetime] = local_now, on_record: Callable[[AttemptRecord], None] | None = None
    ) -> None:
        self.path = path
        self.now = now
        """The clock attempts are stamped with and statistics counted at (tests fix it)."""
        self.on_record = on_record
        """Also told of every attempt `record` is given, after the file has it (tests listen)."""
        self.last_saved: AttemptRecord | None = None
        """The last attempt committed to the file: the only one Easy can apply to."""
        self._history: History | None = None
        self._problem: Unavailable | None = None
        self._told: tuple[str, Path] | None = None  # the reason said: its key and file
        self._opening = threading.Lock()  # one thread opens; another asking meanwhile waits for it
        self._opened = threading.Event()
        self._given: list[float] = []  # this run's scores: "today" while there is no file
        # A refit and a new desired retention each write the scheduler's whole parameters: one at a time,
        # so neither writes back what the other has just changed.
        self._rescheduling = threading.Lock()

    def now_ms(self) -> int:
        """`now` in UTC epoch milliseconds, as attempts are stamped."""
        return to_ms(self.now())

    # -- opening and failing ------------------------------------------------------------------

    def open(self) -> None:
        """Open (creating or migrating) the file, once; the app runs it in a worker thread."""
        with self._opening:
            if self._opened.is_set():
                return
            from quiz.history import stats  # noqa: F401  (loaded here, off the first screen's path)
            from quiz.history.store import History, open_history

            try:
                opened = open_history(self.path)
                if isinstance(opened, History):
                    self._history = opened
                else:
                    self._problem = opened
            finally:
                self._opened.set()

    @property
    def opened(self) -> bool:
        """Whether opening has finished, whether or not the file can be used."""
        return self._opened.is_set()

    @property
    def problem(self) -> Unavailable | None:
        """Why attempts are not being saved (None while they are, or before opening ends)."""
        return self._problem

    def notice(self) -> Unavailable | None:
        """`problem`, the first time it is asked for after the file failed; None after that, and
        when `tell_once` has already been given the same reason."""
        if self._problem is None or not self.tell_once(self._problem):
            return None
        return self._problem

    def tell_once(self, reason: Unavailable) -> bool:
        """Whether `reason`, found by another user of the file (the draft store), is news: True
        the first time, after which `notice` keeps quiet about the same reason."""
        if self._told == (reason.key, reason.path):
            return False
        self._told = (reason.key, reason.path)
        return True

    def close(self) -> None:
        if self._history is not None:
            self._history.close()

    def _fail(self, problem: Unavailable) -> None:
        """Stop using the file for the rest of the run: it is never touched again."""
        self._problem = problem
        history, self._history = self._history, None
        if history is not None:
            history.close()

    def _using(self, use: Callable[[History], T], *, wait: bool = True) -> T | None:
        """`use(store)`, or None when there is no store (yet, if not `wait`ing) or it fails now."""
        if wait:
            self.open()  # a no-op once it is open
        from quiz.history.unavailable import HistoryUnavailable

        history = self._history
        if history is None:
            return None
        try:
            return use(history)
        except HistoryUnavailable as exc:
            self._fail(exc.reason)
            return None

    # -- writing --------------------------------------------------------------------------------

    def record(self, attempt: AttemptRecord) -> bool:
        """Commit `attempt` with its card update before returning; False when it was not saved."""
        self._given.append(attempt.score)

        def save(history: History) -> bool:
            history.record(attempt)
            return True

        saved = self._using(save) is True
        if saved:
            self.last_saved = attempt
        if self.on_record is not None:
            self.on_record(attempt)
        return saved

    def can_mark_easy(self, attempt: AttemptRecord | None) -> bool:
        """Whether `attempt` was saved and passed, so the learner may call it easy."""
        from quiz.history.scheduling import PASS_MARK

        return attempt is not None and attempt is self.last_saved and attempt.score >= PASS_MARK

    def mark_easy(self, attempt: AttemptRecord) -> CardState | None:
        """Rate the saved, passed `attempt` Easy and reschedule its card (None if that failed)."""
        return self._using(lambda history: history.mark_easy(attempt.id, self.now_ms()))

    def record_pushback(self, row: PushbackRow) -> bool:
        """Commit a challenge met to an attempt recorded (practice; a mock's go with its steps). Not
        an answer of its own: today's count, of attempts, leaves it out."""
        return self._write(lambda history: history.save_pushback(row))

    # -- mock interviews: each write committed before returning; False when it was not saved --------

    def save_mock(self, progress: MockProgress) -> bool:
        """Commit a step of a mock sitting (see `History.save_mock`); False when it was not saved."""
        self._given.extend(attempt.score for attempt in progress.attempts if attempt.verdict != "not_reached")
        saved = self._write(lambda history: history.save_mock(progress))
        if saved and progress.attempts:
            self.last_saved = progress.attempts[-1]
        return saved

    def self_grade(self, row: SpokenRow, attempt: AttemptRecord) -> bool:
        """Store a spoken answer's self-grades with its attempt (the attempt counts for today)."""
        self._given.append(attempt.score)

        return self._write(lambda history: history.self_grade(row, attempt))

    def _write(self, write: Callable[[History], object]) -> bool:
        """`write(store)`; whether it was saved."""

        def run(history: History) -> bool:
            write(history)
            return True

        return self._using(run) is True

    def running_mocks(self) -> list[MockRow]:
        """Interrupted sittings to offer for resuming (none when there is no file)."""
        return self._using(lambda history: history.running_mocks()) or []

    def stored_mock(self, mock_id: str) -> StoredMock | None:
        return self._using(lambda history: history.mock(mock_id))

    def earlier_mocks(self, mock_id: str) -> list[StoredMock]:
        """The finished sittings before `mock_id`, oldest first, for the report's trend."""

        def read(history: History) -> list[StoredMock]:
            rows = history.mocks(status="finished")
            this = next((r for r in history.mocks() if r.id == mock_id), None)
            before = [r for r in rows if r.id != mock_id and (this is None or r.started_ms <= this.started_ms)]
            return [m for m in (history.mock(r.id) for r in before) if m is not None]

        return self._using(read) or []

    # -- reading --------------------------------------------------------------------------------

    def today(self) -> tuple[int, float]:
        """How many attempts today and their mean score: from the file, or this run's while
        there is none (without waiting for it, and without loading the store)."""
        if self._history is not None:
            from quiz.history.stats import today

            counted = self._using(lambda history: today(history, self.now()), wait=False)
            if counted is not None:
                return counted.attempts, counted.mean_score or 0.0
        given = self._given
        return len(given), sum(given) / len(given) if given else 0.0

    def due(self, known: Collection[str], *, wait: bool = False) -> list[str] | None:
        """The due questions among `known` (the bank's ids), most overdue first; None while there
        is no file (or it is not open yet, unless `wait`)."""
        due = self._using(lambda history: history.due(self.now()), wait=wait)
        return None if due is None else [card.question for card in due if card.question in known]

    def read(self, use: Callable[[History], T], *, wait: bool = False) -> T | None:
        """`use(store)` for a reader above the history (the study plan); None while there is no
        file (or it is not open yet, unless `wait`)."""
        return self._using(use, wait=wait)

    def statistics(self, catalogue: Mapping[str, QuestionInfo]) -> Statistics | None:
        """Everything the statistics screen shows, at `now`; None when there is no file."""
        from quiz.history.stats import statistics

        return self._using(lambda history: statistics(history, catalogue, self.now()))

    # -- review scheduling (FSRS) ----------------------------------------------------------------

    def scheduling(self) -> Standing | None:
        """The last fit of FSRS to the history, the reviews there are and the desired retention."""
        from quiz.history.personal import standing

        return self._using(standing)

    def refit_if_due(self) -> Fit | None:
        """Fit FSRS again when REFIT_AFTER attempts were recorded since the last fit (the app runs
        it in a worker after each answer); the fit, or None when none was due."""
        from quiz.history.personal import needs_refit, refit

        with self._rescheduling:
            return self._using(lambda history: refit(history) if needs_refit(history) else None)

    def desired_retention(self) -> float:
        """The desired retention reviews are scheduled at (FSRS's default while the file is not open)."""
        from quiz.history.personal import DEFAULT_RETENTION

        retention = self._using(lambda history: history.parameters().desired_retention, wait=False)
        return DEFAULT_RETENTION if retention is None else float(retention)

    def daily_load(self, retention: float) -> DailyLoad | None:
        """The reviews expected each day at `retention`, from now (None when there is no file)."""
        from quiz.history.personal import daily_load

        return self._using(lambda history: daily_load(history, retention, self.now()))

    def set_desired_retention(self, retention: float) -> bool:
        """Schedule at `retention` from now on (every card rebuilt); whether it was saved."""
        from quiz.history.personal import set_desired_retention

        with self._rescheduling:
            return self._write(lambda history: set_desired_retention(history, retention))
