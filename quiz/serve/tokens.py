"""The secret in the printed URL and the signed cookie it is exchanged for (stdlib hmac)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

COOKIE_MAX_AGE: Final = 12 * 3600
"""How long a signed cookie is honoured (seconds): a browser left logged in for days asks again."""
TOKEN_BYTES: Final = 32


def new_token() -> str:
    """A fresh random token for the printed URL (secrets.token_urlsafe: 256 bits)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_matches(given: str | None, expected: str) -> bool:
    """Whether `given` is the token, compared in constant time (no timing leaks its prefix)."""
    return given is not None and hmac.compare_digest(given.encode("utf-8", "replace"), expected.encode("utf-8"))


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


@dataclass
class CookieSigner:
    """Signs and checks session cookies `user.issued.signature` with a key made at start-up:
    a cookie cannot be forged without the key, and none outlives the server or COOKIE_MAX_AGE."""

    clock: Callable[[], float] = time.time
    key: bytes = field(default_factory=lambda: secrets.token_bytes(TOKEN_BYTES))

    def _signature(self, payload: str) -> str:
        return _b64(hmac.new(self.key, payload.encode("utf-8"), hashlib.sha256).digest())

    def sign(self, user: str) -> str:
        """A cookie value naming `user` ("" for the one user of a token or password), issued now."""
        payload = f"{_b64(user.encode('utf-8'))}.{int(self.clock())}"
        return f"{payload}.{self._signature(payload)}"

    def user(self, cookie: str | None) -> str | None:
        """The user a cookie names, or None when it is missing, malformed, forged or too old."""
        if not cookie or cookie.count(".") != 2:
            return None
        encoded, issued, signature = cookie.split(".")
        if not hmac.compare_digest(signature.encode("ascii", "replace"), self._signature(f"{encoded}.{issued}").encode("ascii")):
            return None
        if not issued.isdigit() or not 0 <= self.clock() - int(issued) <= COOKIE_MAX_AGE:
            return None
        try:
            return base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)).decode("utf-8")
        except (ValueError, UnicodeDecodeError):
            return None
