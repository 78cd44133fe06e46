"""Reading a file someone else put in place: a regular file only, and never more than a limit.

A path may name a FIFO (opening it would wait forever), a device such as /dev/zero (reading it
never ends) or a symlink to either. Opening without blocking and checking the opened file,
not the path, leaves no gap for the file to be swapped in between.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class UnreadableFile(Exception):
    """The file is not a regular file, is too large, or could not be read; `str()` says which."""


def read_bounded(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at `path` (symlinks followed), refused beyond `limit` bytes.

    FileNotFoundError passes through, so callers can treat a missing file as no file.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise UnreadableFile(f"cannot open it: {exc.strerror or exc}") from None
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise UnreadableFile("it is not a regular file (a folder, device, FIFO or socket)")
        if status.st_size > limit:
            raise UnreadableFile(f"it is {status.st_size:,} bytes; the limit is {limit:,}")
        chunks, size = [], 0
        # Read to the limit and one byte more: a file that grew since fstat is still refused.
        while size <= limit:
            chunk = os.read(descriptor, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise UnreadableFile(f"cannot read it: {exc.strerror or exc}") from None
    finally:
        os.close(descriptor)
    if size > limit:
        raise UnreadableFile(f"it is over {limit:,} bytes, the limit")
    return b"".join(chunks)
