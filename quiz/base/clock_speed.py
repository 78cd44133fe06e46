"""Reading a clock's speed-up from the environment (`QUIZ_CPU_CLOCK_SPEED`, `QUIZ_MOCK_CLOCK_SPEED`):
tests run budgets and interviews out of time on any machine by speeding a clock up, never down."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

MAX_SPEED: Final = 1000


def speed_from_environment(environ: Mapping[str, str], variable: str) -> int:
    """The speed-up `environ[variable]` asks for: a whole number from 1 to MAX_SPEED, else 1 (so no
    value, however written, slows a clock down and gives a pack or an interview more time)."""
    text = environ.get(variable, "").strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 4):  # no sign, no fraction
        return 1
    speed = int(text)
    return speed if 1 <= speed <= MAX_SPEED else 1
