"""Password hashes with scrypt (stdlib hashlib.scrypt, memory-hard): `scrypt$n$r$p$salt$hash`."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Final

SCRYPT_N: Final = 2**15
SCRYPT_R: Final = 8
SCRYPT_P: Final = 1
"""32 MiB and some 0.1 s a guess on a laptop core: OWASP's minimum for scrypt is N=2^17 at r=8 with
p=1 or N=2^15 with more memory; this keeps a login quick on a 2-core server while every guess costs."""
_MAX_N: Final = 2**20
_KEY_BYTES: Final = 32
_PREFIX: Final = "scrypt"


class PasswordHashError(ValueError):
    """A stored hash that is not one `hash_password` writes."""


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    # maxmem: OpenSSL's default (32 MiB) is just under what N=2^15, r=8 needs (128·N·r bytes and some).
    return hashlib.scrypt(password.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=256 * n * r + 2**20, dklen=_KEY_BYTES)


def hash_password(password: str, salt: bytes | None = None, n: int = SCRYPT_N) -> str:
    """The stored form of `password`, with a fresh random salt unless one is given; tests give a
    smaller cost `n` where the cost is not what they test."""
    salt = secrets.token_bytes(16) if salt is None else salt
    digest = _scrypt(password, salt, n, SCRYPT_R, SCRYPT_P)
    encode = base64.b64encode
    return f"{_PREFIX}${n}${SCRYPT_R}${SCRYPT_P}${encode(salt).decode()}${encode(digest).decode()}"


def check_hash(stored: str) -> tuple[int, int, int, bytes, bytes]:
    """The parameters, salt and digest of a stored hash; PasswordHashError says what is wrong."""
    parts = stored.strip().split("$")
    if len(parts) != 6 or parts[0] != _PREFIX or not all(part.isdigit() for part in parts[1:4]):
        raise PasswordHashError("not a password hash as `quiz serve adduser` or `quiz serve set-password` writes it (scrypt$N$r$p$salt$hash)")
    n, r, p = (int(part) for part in parts[1:4])
    if not (2 <= n <= _MAX_N and n & (n - 1) == 0 and 1 <= r <= 32 and 1 <= p <= 16):
        raise PasswordHashError(f"scrypt parameters out of range: N={n}, r={r}, p={p}")
    try:
        salt, digest = base64.b64decode(parts[4], validate=True), base64.b64decode(parts[5], validate=True)
    except ValueError:
        raise PasswordHashError("the salt or the hash is not base64") from None
    return n, r, p, salt, digest


def verify_password(password: str, stored: str) -> bool:
    """Whether `password` is the one `stored` was made from (compared in constant time)."""
    n, r, p, salt, digest = check_hash(stored)
    return hmac.compare_digest(_scrypt(password, salt, n, r, p), digest)
