"""Writing a small file so that a killed process leaves the old text or the new, never half of it:
a temporary file beside it, flushed to disk, renamed over it, and the rename itself flushed."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_text_atomically(path: Path, text: str) -> None:
    """Replace `path` with `text` (UTF-8, newlines as given), making its folder when needed.

    Raises OSError, or ValueError for text that cannot be encoded (a lone surrogate); the file
    is then as it was.
    """
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


def _sync_directory(folder: Path) -> None:
    """Flush the rename (a directory entry) to disk, where the system allows it."""
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
