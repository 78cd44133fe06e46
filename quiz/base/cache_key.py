"""A random key of this user's, kept in the data directory (outside the cache folder), with which the
quiz seals what it caches: a cache file whose keyed hash does not match was not written by this
quiz for this user, or was changed since (by a program that can write the cache folder but not
read this key), and is rebuilt from its sources instead of trusted.

The key is 32 random bytes in `cache.key`, made on first use with mode 0600, and read only as a
regular file of this user's that no one else can read (quiz.base.own_file).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path
from typing import Final

from quiz.base import locations
from quiz.base.own_file import NotOwnFile, read_own_file, this_user

KEY_FILE: Final = "cache.key"
KEY_BYTES: Final = 32


def key_path() -> Path:
    return locations.data_dir() / KEY_FILE


def cache_key(*, create: bool) -> bytes | None:
    """This user's key; made first when `create` and there is none. None when there is none to be
    had: absent (and not `create`), not one to trust, or not writable where it belongs."""
    path = key_path()
    try:
        key = read_own_file(path, this_user(), KEY_BYTES)
    except FileNotFoundError:
        return _create(path) if create else None
    except NotOwnFile:
        return None
    return key if len(key) == KEY_BYTES else None


def seal(data: bytes, key: bytes) -> str:
    """The keyed hash of `data` (HMAC-SHA-256), as hex."""
    return hmac.new(key, data, hashlib.sha256).hexdigest()


def _create(path: Path) -> bytes | None:
    key = secrets.token_bytes(KEY_BYTES)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        descriptor = os.open(path, flags, 0o600)  # FileExistsError: another process made one meanwhile
    except OSError:
        return None
    with os.fdopen(descriptor, "wb") as file:
        file.write(key)
    return key
