"""A look at an existing history file's first bytes, before SQLite opens it.

SQLite treats some damaged files as something it may write to: an empty file is a new database,
and a truncated one may be "repaired" by the next write. Refusing them here means a damaged file
is reported and left exactly as it is, never overwritten.
"""

from __future__ import annotations

import os
import stat
import struct
from pathlib import Path
from typing import Final

from quiz.history.unavailable import DAMAGED, NOT_HISTORY, READ_ONLY, TRUNCATED, Unavailable, from_os_error

MAGIC: Final = b"SQLite format 3\x00"
HEADER_SIZE: Final = 100


def check_existing_file(path: Path) -> Unavailable | None:
    """Why the file at `path` must not be opened (None when it is absent, empty or looks sound).

    Opened without blocking and checked to be a regular file before a byte is read: a FIFO in its
    place would hold every command and the app's start in open() or read() for ever. A symlink to
    a regular file is followed, as SQLite follows it.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        return from_os_error(exc, path)
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):  # a FIFO, a device or a directory: nothing SQLite can use
            return Unavailable(NOT_HISTORY, path)
        header = os.read(descriptor, HEADER_SIZE)
    except OSError as exc:
        return from_os_error(exc, path)
    finally:
        os.close(descriptor)
    size, mode = status.st_size, status.st_mode
    if size == 0:
        return None  # SQLite creates the file empty and writes its first page at the first commit
    if not mode & 0o222:
        # Made read-only on purpose; as root SQLite would still write to it, so respect the bits.
        return Unavailable(READ_ONLY, path)
    if not header.startswith(MAGIC[: len(header)]) or (len(header) >= len(MAGIC) and not header.startswith(MAGIC)):
        return Unavailable(NOT_HISTORY, path)
    if len(header) < HEADER_SIZE:
        return Unavailable(TRUNCATED, path, f"{size} bytes, shorter than the 100-byte header")
    return _check_size(path, header, size)


def _check_size(path: Path, header: bytes, size: int) -> Unavailable | None:
    (page_size,) = struct.unpack(">H", header[16:18])
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        return Unavailable(DAMAGED, path, f"page size {page_size} in the header is impossible")
    change_counter, pages = struct.unpack(">II", header[24:32])
    (valid_for,) = struct.unpack(">I", header[92:96])
    wal = path.with_name(path.name + "-wal")
    # The page count in the header is trustworthy only when it was written with the counter; a
    # write-ahead log may hold pages a checkpoint has not copied yet (SQLite recovers those).
    if pages and change_counter == valid_for and not _nonempty(wal) and size < pages * page_size:
        return Unavailable(TRUNCATED, path, f"{size} bytes, but its header counts {pages} pages of {page_size} bytes")
    return None


def _nonempty(path: Path) -> bool:
    try:
        return path.stat().st_size > 0
    except OSError:
        return False
