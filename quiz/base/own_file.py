"""Reading a file this quiz wrote for itself (a cache): trusted only if no one else could have written it.

A regular file (never a symlink, FIFO or device), owned by the given user, that no one else may
read or write, and no larger than a limit; anything else is refused with the reason.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class NotOwnFile(Exception):
    """Why the file is not one to trust; `str()` says it."""


def read_own_file(path: Path, owner: int | None, limit: int) -> bytes:
    """The bytes of `path` if it is a regular file of `owner`'s (where the system has owners) that
    no one else can read or write, of at most `limit` bytes; FileNotFoundError when there is none."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        descriptor = os.open(path, flags)
    except FileNotFoundError:
        raise
    except OSError as exc:  # a symlink (ELOOP), no permission, ...
        raise NotOwnFile(f"cannot open it: {exc.strerror or exc}") from None
    status = os.fstat(descriptor)
    if not stat.S_ISREG(status.st_mode):  # a directory opens too, but no file object takes it
        os.close(descriptor)
        raise NotOwnFile("not a regular file")
    with os.fdopen(descriptor, "rb") as file:
        if owner is not None and status.st_uid != owner:
            raise NotOwnFile("owned by another user")
        if status.st_mode & 0o077:
            raise NotOwnFile(f"others may read or write it (mode {stat.filemode(status.st_mode)})")
        if status.st_size > limit:
            raise NotOwnFile(f"{status.st_size:,} bytes; the limit is {limit:,}")
        data = file.read(limit + 1)
    if len(data) > limit:
        raise NotOwnFile(f"over {limit:,} bytes")
    return data


def this_user() -> int | None:
    """The user this process runs as, who owns the files it writes (None where files have no owners)."""
    geteuid = getattr(os, "geteuid", None)
    return geteuid() if geteuid is not None else None
