"""Variant keys: `id#seed` names one variant, and its seed feeds numpy's generator.

The generator's seed is a SHA-256 of `id#seed`, never Python's randomised `hash()`, so the same
key gives the same variant on every machine with the pinned numpy.
"""

from __future__ import annotations

import hashlib
import re
from typing import Final

MAX_SEED_DIGITS: Final = 18
KEY_PATTERN: Final = re.compile(rf"(?P<id>[a-z0-9][a-z0-9_-]*)(?:#(?P<seed>[0-9]{{1,{MAX_SEED_DIGITS}}}))?")


def generator_seed(question_id: str, seed: int) -> int:
    """A stable 64-bit seed for numpy's generator from the question id and the variant seed."""
    digest = hashlib.sha256(f"{question_id}#{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "little")


def parse_key(key: str) -> tuple[str, int | None]:
    """Split `softmax-jacobian-entry#4711` into id and seed (None when no seed is given)."""
    match = KEY_PATTERN.fullmatch(key.strip())
    if match is None:
        raise ValueError(f"not a question id or variant key: {key!r}")
    seed = match.group("seed")
    return match.group("id"), None if seed is None else int(seed)
