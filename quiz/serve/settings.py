"""What `quiz serve` was asked for, checked: where it listens, its public URL, how people log in."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from quiz.serve.guard import is_loopback

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8000
DEFAULT_MAX_SESSIONS: Final = 20
DEFAULT_IDLE_MINUTES: Final = 30.0


class Auth(Enum):
    """How a browser gets its cookie: the printed token, a password, a user's password, or not at all."""

    TOKEN = "token"
    PASSWORD = "password"
    USERS = "users"
    NONE = "none"


class SettingsError(ValueError):
    """Options that do not go together; `str()` says what to give instead."""


@dataclass(frozen=True)
class ServeSettings:
    """The server's options. `password_hash` with PASSWORD; `users` (name to hash) with USERS."""

    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    base_url: str | None = None
    auth: Auth = Auth.TOKEN
    password_hash: str | None = None
    users: dict[str, str] | None = None
    max_sessions: int = DEFAULT_MAX_SESSIONS
    idle_timeout: float = DEFAULT_IDLE_MINUTES * 60
    lang: str = "en"

    def __post_init__(self) -> None:
        if not is_loopback(self.host) and self.auth is Auth.TOKEN:
            raise SettingsError(
                f"--host {self.host} listens beyond this machine: give --password-file FILE or --users FILE "
                "(anyone who can reach the port could otherwise try the token's URL), or --no-auth-i-know"
            )
        if not 0 <= self.port <= 65535:
            raise SettingsError(f"--port must be from 0 to 65535, got {self.port}")
        if self.max_sessions < 1:
            raise SettingsError(f"--max-sessions must be 1 or more, got {self.max_sessions}")
        if self.idle_timeout <= 0:
            raise SettingsError("--idle-timeout must be more than 0 minutes")
        if self.base_url is not None:
            parts = urlsplit(self.base_url)
            if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
                raise SettingsError(f"--base-url must be an http or https URL without ? or #, like https://example.org/quiz/, got {self.base_url!r}")

    def public_url(self, port: int | None = None) -> str:
        """The page's URL as browsers reach it, ending in /: `base_url`, else this host and `port`."""
        if self.base_url is not None:
            return self.base_url if self.base_url.endswith("/") else self.base_url + "/"
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{self.port if port is None else port}/"

    @property
    def cookie_path(self) -> str:
        """The path the session cookie is sent on: the page's, behind a proxy's prefix too."""
        return urlsplit(self.public_url()).path or "/"

    @property
    def secure(self) -> bool:
        """Whether browsers reach the server over TLS (then the cookie is Secure)."""
        return self.public_url().startswith("https:")


def read_password_file(path: Path) -> str:
    """The scrypt hash in a --password-file (its first line)."""
    from quiz.base.bounded_read import UnreadableFile, read_bounded
    from quiz.serve.passwords import PasswordHashError, check_hash

    try:
        stored = read_bounded(path, 4096).decode("utf-8").strip()
        check_hash(stored)
    except FileNotFoundError:
        raise SettingsError(f"{path}: no such file (make it with quiz serve set-password {path})") from None
    except (UnreadableFile, UnicodeDecodeError, PasswordHashError) as exc:
        raise SettingsError(f"{path}: {exc}") from None
    return stored
