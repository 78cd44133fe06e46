"""Interview time: a deadline computed from the stored start, on a clock nothing can stretch.

The clock is Linux's CLOCK_BOOTTIME where there is one (it keeps counting while a laptop is
suspended, unlike the monotonic clock) and the monotonic clock elsewhere; neither moves when the
wall clock is changed. The start is stored with the boot's id, so a mock resumed after a crash
on the same boot keeps its deadline exactly; after a reboot only the wall clock can tell how much
time passed, and that is what is used then. Every reader takes the clock as an argument, so
tests set the time instead of sleeping.

`QUIZ_MOCK_CLOCK_SPEED` (a whole number from 1 to 1000) runs the interview clock that many times
faster, so a test sits a whole interview in a fraction of its length. It can only speed the clock
up (any other value leaves it at 1), and a sped-up clock's readings belong to a boot of their own
(`boot_id`), so an interview resumed at another speed counts its time by the wall clock: no
setting gives an interview more time than it has.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final

from quiz.base.clock_speed import speed_from_environment
from quiz.base.fieldwise import Fieldwise, record

Clock = Callable[[], float]
"""Seconds on a clock that only moves forward."""

QUESTION_WARNING: Final = 0.2
"""Warn when a question has this share of its budget left."""
INTERVIEW_WARNING: Final = 60.0
"""Warn when the interview has this many seconds left."""
_BOOT_ID = Path("/proc/sys/kernel/random/boot_id")
SPEED_VARIABLE: Final = "QUIZ_MOCK_CLOCK_SPEED"


def clock_speed(environ: Mapping[str, str]) -> int:
    """The interview clock's speed-up `environ` asks for: 1 to MAX_SPEED, else 1."""
    return speed_from_environment(environ, SPEED_VARIABLE)


def interview_clock() -> float:
    """Seconds since boot, suspended time included where the system can tell (CLOCK_BOOTTIME),
    times QUIZ_MOCK_CLOCK_SPEED."""
    boottime = getattr(time, "CLOCK_BOOTTIME", None)
    seconds = time.clock_gettime(boottime) if boottime is not None else time.monotonic()
    return seconds * clock_speed(os.environ)


def boot_id() -> str:
    """This boot's id (Linux), or "" where the system has none: readings of `interview_clock`
    from different boots cannot be compared, nor those at different speeds (the id names its
    speed then)."""
    try:
        found = _BOOT_ID.read_text(encoding="ascii").strip()
    except OSError:
        return ""
    speed = clock_speed(os.environ)
    return f"{found} at {speed}x" if found and speed != 1 else found


@record
class StoredStart(Fieldwise):
    """When an interview started, as stored with it: on the interview clock and the wall clock."""

    clock: float
    wall: float
    boot: str

    @classmethod
    def now(cls, clock: Clock = interview_clock, wall: Clock = time.time, boot: str | None = None) -> StoredStart:
        return cls(clock(), wall(), boot_id() if boot is None else boot)

    def elapsed(self, clock: Clock = interview_clock, wall: Clock = time.time, boot: str | None = None) -> float:
        """Seconds since the start: on the interview clock on the same boot, else by the wall clock."""
        same_boot = (boot_id() if boot is None else boot) == self.boot and self.boot != ""
        elapsed = clock() - self.clock if same_boot else wall() - self.wall
        return max(0.0, elapsed)


@record
class Countdown(Fieldwise):
    """A length of time from a start on `clock`: what is left, and whether it is over or nearly."""

    start: float
    length: float
    clock: Clock = interview_clock

    def elapsed(self) -> float:
        return max(0.0, self.clock() - self.start)

    def remaining(self) -> float:
        return max(0.0, self.length - self.elapsed())

    def over(self) -> bool:
        return self.elapsed() >= self.length

    def warn_interview(self) -> bool:
        """The interview's last minute (or the last fifth of a shorter one)."""
        return not self.over() and self.remaining() <= min(INTERVIEW_WARNING, QUESTION_WARNING * self.length)

    def warn_question(self) -> bool:
        """A question with a fifth of its budget left, not yet over."""
        return not self.over() and self.remaining() <= QUESTION_WARNING * self.length


def clock_text(seconds: float) -> str:
    """`mm:ss` (or `h:mm:ss`), rounded up so a countdown reads 00:01 until it is truly over."""
    whole = int(-(-seconds // 1))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"
