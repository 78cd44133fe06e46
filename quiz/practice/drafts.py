"""Drafts of code answers, kept so that a crash loses nothing typed.

A draft lives in the history file's `drafts` table under its question's id (the code a candidate
writes does not depend on the drawn inputs, so new numbers keep it), and each save is committed
before the next starts. `DraftSaver` runs the saves in order on a thread of its own, so typing
never waits on the disk. A draft stays after its code is graded, for the learner to come back to.

When the history file cannot be used (damaged, locked, from a newer version, read-only), a draft
is written to `drafts/<question id>.py` in the data directory instead, atomically (temporary file,
fsync, rename), and the learner is told where. Once the history file works again, such a file
newer than the stored draft is taken back into it. A file that cannot be read is set aside, never
overwritten. Problems come back as `DraftNote`s, for the screen to say.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from quiz.base import locations
from quiz.base.atomic import write_text_atomically
from quiz.format.model import ID_PATTERN
from quiz.history.store import BUSY_TIMEOUT_S, History, open_history
from quiz.history.unavailable import HistoryUnavailable, Unavailable
from quiz.locale.i18n import DEFAULT_LANGUAGE, tr

MAX_DRAFT_BYTES: Final = 1 << 20
"""A draft larger than this is not code someone typed; such a file is set aside rather than loaded."""
FOLDER: Final = "drafts"
"""The data directory's folder for drafts while the history file cannot be used."""
MTIME_SLACK_MS: Final = 50
"""A file's modification time comes from the kernel's coarse clock, which can trail `time.time()`
by a tick: a draft file written just after a history save may look a few milliseconds older."""


@dataclass(frozen=True)
class DraftNote:
    """Something to tell the learner about their draft: the catalogue text `history.<key>`,
    filled with `params` and, when the history file is the cause, its `reason`."""

    key: str
    params: Mapping[str, object] = field(default_factory=dict)
    reason: Unavailable | None = None

    def message(self, lang: str = DEFAULT_LANGUAGE) -> str:
        reason = {"reason": self.reason.message(lang)} if self.reason is not None else {}
        return tr(f"history.{self.key}", lang, **self.params, **reason)

    def without_reason(self) -> DraftNote:
        """The same note, minus why the history file cannot be used (once that has been said)."""
        return DraftNote(f"{self.key}_only", self.params) if self.reason is not None else self


@dataclass(frozen=True)
class LoadedDraft:
    """The draft's text (None when there is none), and a note to show the learner, if any."""

    text: str | None
    note: DraftNote | None = None


def draft_file(question_id: str) -> Path:
    """Where the draft of `question_id` is written while the history file cannot be used."""
    if not ID_PATTERN.fullmatch(question_id):
        raise ValueError(f"not a question id: {question_id!r}")
    return locations.data_dir() / FOLDER / f"{question_id}.py"


class DraftStore:
    """The learner's code drafts: in the history file, or in files while it cannot be used.

    The history file is opened on first use, once; `close()` closes it. Safe to use from several
    threads (the history store gives each thread its own connection).
    """

    def __init__(self, path: Path | None = None, busy_timeout_s: float = BUSY_TIMEOUT_S) -> None:
        self._path = path
        self._busy_timeout_s = busy_timeout_s
        self._lock = threading.Lock()
        self._history: History | Unavailable | None = None

    def history(self) -> History | Unavailable:
        """The open history file, or why it cannot be used."""
        with self._lock:
            if self._history is None:
                self._history = open_history(self._path, busy_timeout_s=self._busy_timeout_s)
            return self._history

    def close(self) -> None:
        with self._lock:
            if isinstance(self._history, History):
                self._history.close()
            self._history = None

    def load(self, question_id: str) -> LoadedDraft:
        """The latest draft of `question_id`, from the history file or a file written while it failed."""
        path = draft_file(question_id)
        aside = _read(path)
        history = self.history()
        if isinstance(history, History):
            try:
                stored = history.draft(question_id)
            except HistoryUnavailable as exc:
                return self._from_file(aside, path, exc.reason)
            if isinstance(aside, DraftNote):
                return LoadedDraft(stored.text if stored else None, aside)
            if aside is None or (stored is not None and stored.updated_ms > aside[1] + MTIME_SLACK_MS):
                return LoadedDraft(stored.text if stored else None)
            return self._take_back(question_id, path, aside, history)
        return self._from_file(aside, path, history)

    def save(self, question_id: str, text: str) -> DraftNote | None:
        """Keep `text` as the draft, committed before returning; a note when it went elsewhere or nowhere."""
        history = self.history()
        if isinstance(history, History):
            try:
                history.save_draft(question_id, text)
                return None
            except HistoryUnavailable as exc:
                history = exc.reason
            except ValueError:  # text SQLite cannot store as UTF-8 (a lone surrogate)
                return DraftNote("draft_not_saved", {"problem": "not valid Unicode text"})
        path = draft_file(question_id)
        problem = _write(path, text)
        if problem is not None:
            return DraftNote("draft_not_saved", {"problem": problem})
        return DraftNote("draft_elsewhere", {"path": str(path)}, history)

    def _from_file(self, aside: tuple[str, int] | DraftNote | None, path: Path, reason: Unavailable) -> LoadedDraft:
        if isinstance(aside, DraftNote):
            return LoadedDraft(None, aside)
        note = DraftNote("draft_elsewhere", {"path": str(path)}, reason)
        return LoadedDraft(aside[0] if aside else None, note)

    def _take_back(self, question_id: str, path: Path, aside: tuple[str, int], history: History) -> LoadedDraft:
        """The file is newer than the history's draft: store its text there, then remove the file."""
        text, at_ms = aside
        try:
            history.save_draft(question_id, text, at_ms)
        except (HistoryUnavailable, ValueError):
            return LoadedDraft(text)  # the file stays, and stays the newer draft
        with contextlib.suppress(OSError):  # its text is in the history file now, and the newer of the two is still read
            path.unlink()
        return LoadedDraft(text)


class DraftSaver:
    """Saves one question's drafts in order on a thread of its own; only the latest text waiting
    is saved. `on_note` hears each save's note (None when it went to the history file) from that
    thread."""

    def __init__(self, store: DraftStore, question_id: str, on_note: Callable[[DraftNote | None], object]) -> None:
        self._store = store
        self._question_id = question_id
        self._on_note = on_note
        self._waiting: str | None = None
        self._closing = False
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name=f"draft {question_id}", daemon=True)
        self._thread.start()

    def save(self, text: str) -> None:
        """Have `text` saved soon; returns at once."""
        with self._changed:
            self._waiting = text
            self._changed.notify()

    def close(self, timeout: float | None = None) -> bool:
        """Save what is waiting, then stop; False if that took longer than `timeout` seconds."""
        with self._changed:
            self._closing = True
            self._changed.notify()
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def _run(self) -> None:
        while True:
            with self._changed:
                while self._waiting is None and not self._closing:
                    self._changed.wait()
                if self._waiting is None:
                    return
                text, self._waiting = self._waiting, None
            self._on_note(self._store.save(self._question_id, text))


def read_draft_text(path: Path) -> tuple[str, int]:
    """A draft file's text and when it was last written (ms since the epoch). Raises OSError, or
    ValueError saying why the file is not a draft (too large, not UTF-8 text)."""
    with open(path, "rb") as file:
        raw = file.read(MAX_DRAFT_BYTES + 1)
        at_ms = os.fstat(file.fileno()).st_mtime_ns // 1_000_000
    if len(raw) > MAX_DRAFT_BYTES:
        raise ValueError(f"larger than {MAX_DRAFT_BYTES:,} bytes")
    try:
        return raw.decode("utf-8"), at_ms
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 text (byte {exc.start})") from None


def _read(path: Path) -> tuple[str, int] | DraftNote | None:
    """A draft file's text and time; None when there is none; a note when it cannot be read (then
    it is renamed aside, `….unreadable-N.py`, so that no save replaces it)."""
    try:
        return read_draft_text(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return DraftNote("draft_unreadable", {"problem": f"{path}: {exc.strerror or exc}"})
    except ValueError as exc:
        return DraftNote("draft_unreadable", {"problem": _set_aside(path, str(exc))})


def _set_aside(path: Path, why: str) -> str:
    for n in range(1, 1000):
        aside = path.with_name(f"{path.stem}.unreadable-{n}{path.suffix}")
        if not aside.exists():
            try:
                path.rename(aside)
            except OSError as exc:
                return f"{path}: cannot be read, {why}, nor moved aside: {exc.strerror or exc}"
            return f"{path}: cannot be read, {why}; kept as {aside.name}"
    return f"{path}: cannot be read, {why}"


def _write(path: Path, text: str) -> str | None:
    """Write `text` to `path` atomically and durably; a problem in words, or None when written."""
    try:
        write_text_atomically(path, text)
    except (OSError, ValueError) as exc:  # ValueError: text that cannot be encoded (a lone surrogate)
        return f"{path}: {getattr(exc, 'strerror', None) or exc}"
    return None
