"""What every mode's session shares (practice and the mock interview today; the live interview
next): the `Session` its screens drive, and the `AttemptSink` it commits each graded attempt to."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from quiz.bank import Bank
    from quiz.grading.result import Result
    from quiz.history.pushbacks import PushbackRow
    from quiz.history.records import AttemptRecord


class AttemptSink(Protocol):
    """Where a session's graded attempts go, each committed before `record` returns (the
    history's recorder; a test may give a list's stand-in). True when it was saved."""

    def record(self, attempt: AttemptRecord) -> bool: ...

    def record_pushback(self, row: PushbackRow) -> bool:
        """Commit a challenge met (quiz.session.pushback) to a recorded attempt; True when it was saved."""
        ...


@runtime_checkable
class Session(Protocol):
    """A mode's session as its screens see it: the bank and language it asks in, a way to answer
    the question on screen, and the attempt that answer left in the history."""

    bank: Bank
    lang: str

    def submit(self, response: Any, typed: str | None = None) -> Result:
        """Grade `response` (what the answer widget gives; `typed`, the text as typed) to the
        question on screen, and commit its attempt to the session's sink before returning."""
        ...

    @property
    def last_attempt(self) -> AttemptRecord | None:
        """The record of the last graded attempt (None before the first)."""
        ...
