"""Drafts of code answers, kept so that a crash loses nothing typed: one file per question.

A draft lives in the data directory as `drafts/<question id>.py`, keyed by the question rather
than the variant, since the code a candidate writes does not depend on the drawn inputs. Each
save writes a temporary file beside it, flushes it to disk and renames it over the draft, so the
draft on disk is always one whole save. A draft that cannot be read is moved aside, never
overwritten. Problems come back as values, for the screen to show.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from quiz import locations
from quiz.format.model import ID_PATTERN

MAX_DRAFT_BYTES: Final = 1 << 20
"""A draft larger than this is not code someone typed; it is set aside rather than loaded."""


@dataclass(frozen=True)
class LoadedDraft:
    """The draft's text (None when there is none), and a problem to tell the learner about."""

    text: str | None
    problem: str | None = None


def draft_path(question_id: str) -> Path:
    """Where the draft for `question_id` is kept."""
    if not ID_PATTERN.fullmatch(question_id):
        raise ValueError(f"not a question id: {question_id!r}")
    return locations.data_dir() / "drafts" / f"{question_id}.py"


def load_draft(question_id: str) -> LoadedDraft:
    """The saved draft; one that cannot be read is renamed aside (`….unreadable-N.py`) and reported."""
    path = draft_path(question_id)
    try:
        with open(path, "rb") as file:
            raw = file.read(MAX_DRAFT_BYTES + 1)
    except FileNotFoundError:
        return LoadedDraft(None)
    except OSError as exc:
        return LoadedDraft(None, f"{path}: {exc.strerror or exc}")
    try:
        if len(raw) > MAX_DRAFT_BYTES:
            raise ValueError(f"larger than {MAX_DRAFT_BYTES:,} bytes")
        return LoadedDraft(raw.decode("utf-8"))
    except ValueError as exc:  # UnicodeDecodeError included
        return LoadedDraft(None, _set_aside(path, str(exc)))


def _set_aside(path: Path, why: str) -> str:
    for n in range(1, 1000):
        aside = path.with_name(f"{path.stem}.unreadable-{n}{path.suffix}")
        if not aside.exists():
            try:
                path.rename(aside)
            except OSError as exc:
                return f"{path}: cannot be read ({why}) nor moved aside: {exc.strerror or exc}"
            return f"{path}: cannot be read ({why}); kept as {aside.name}"
    return f"{path}: cannot be read ({why})"


def save_draft(question_id: str, text: str) -> str | None:
    """Write `text` as the draft, atomically and durably; a problem in words, or None when saved."""
    path = draft_path(question_id)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as file:
                file.write(text)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        _sync_directory(path.parent)
    except (OSError, ValueError) as exc:  # ValueError: text that cannot be encoded (a lone surrogate)
        return f"{path}: {getattr(exc, 'strerror', None) or exc}"
    return None


def _sync_directory(folder: Path) -> None:
    """Flush the rename itself to disk (a directory entry), where the system allows it."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)
