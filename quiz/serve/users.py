"""The users file of `quiz serve --users`: one `name:hash` a line, and each user's own folders."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

from quiz.base import locations
from quiz.base.atomic import write_text_atomically
from quiz.base.bounded_read import UnreadableFile, read_bounded
from quiz.serve.passwords import PasswordHashError, check_hash

NAME: Final = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
"""A user name: it names the user's folder, so nothing that could climb out of it (no / or ..)."""
MAX_FILE_BYTES: Final = 1 << 20


class UsersFileError(Exception):
    """A users file that cannot be read or has a bad line; `str()` says where and why."""


def check_name(name: str) -> str:
    """`name` when it can be a user's name; UsersFileError says the rule otherwise."""
    if not NAME.fullmatch(name):
        raise UsersFileError(f"{name!r} cannot be a user name: 1 to 32 of a-z, 0-9, _ and -, starting with a letter or digit")
    return name


def read_users(path: Path) -> dict[str, str]:
    """The users of the file at `path`, name to password hash (blank lines and # comments skipped)."""
    try:
        text = read_bounded(path, MAX_FILE_BYTES).decode("utf-8")
    except FileNotFoundError:
        raise UsersFileError(f"{path}: no such file (make it with quiz serve adduser NAME --users {path})") from None
    except (UnreadableFile, UnicodeDecodeError) as exc:
        raise UsersFileError(f"{path}: {exc}") from None
    users: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, colon, stored = line.strip().partition(":")
        try:
            if not colon:
                raise UsersFileError("expected name:hash")
            check_name(name)
            check_hash(stored)
        except (UsersFileError, PasswordHashError) as exc:
            raise UsersFileError(f"{path}:{number}: {exc}") from None
        if name in users:
            raise UsersFileError(f"{path}:{number}: {name} is there twice")
        users[name] = stored
    return users


def add_user(path: Path, name: str, stored: str) -> bool:
    """Write `name` with the hash `stored` into the users file (made when missing, private to its
    owner); True when the name was new, False when its password was replaced."""
    users = read_users(path) if path.exists() else {}
    new = check_name(name) not in users
    users[name] = stored
    write_text_atomically(path, "".join(f"{user}:{hashed}\n" for user, hashed in users.items()))
    return new


def user_environment(name: str, root: Path | None = None) -> dict[str, str]:
    """The environment that gives user `name`'s app process its own data, config and cache
    folders (below `root`, by default `users/` of the server's data directory), made private."""
    home = (root or locations.data_dir() / "users") / check_name(name)
    folders = {"QUIZ_DATA_DIR": home / "data", "QUIZ_CONFIG_DIR": home / "config", "QUIZ_CACHE_DIR": home / "cache"}
    home.mkdir(parents=True, exist_ok=True, mode=0o700)
    home.chmod(0o700)  # the mode of mkdir is masked by the umask, and an older folder may be wider
    for folder in folders.values():
        folder.mkdir(exist_ok=True, mode=0o700)
    return {key: str(folder) for key, folder in folders.items()} | {"QUIZ_SCREENSHOTS_DIR": str(home / "data" / "screenshots")}
