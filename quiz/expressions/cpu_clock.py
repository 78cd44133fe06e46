"""The process's CPU time less what the cyclic garbage collector has spent: what budgets read.

A collection runs when an allocation tips a generation over its threshold, wherever that
allocation happens, and a full one walks every container object in the process. In the test
process, holding some 400,000 of them, one took 1.2 s of CPU inside a variant as small as
`softmax(z)` of four numbers. That cost is the size of the whole heap, not of what the variant
did, so budgets leave it out; what a pack's expressions allocate is bounded by their elements.

`QUIZ_CPU_CLOCK_SPEED` (a whole number from 1 to 1000, read when this module is imported) makes
the clock run that many times faster, so every budget runs out after that fraction of the work:
tests use it to run packs out of time on any machine. It can only speed the clock up: anything
else (0, a negative or fractional number, more than 1000, text) leaves it at 1, so no setting
gives a pack more time than the budgets allow.
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Callable, Mapping
from typing import Final

from quiz.base.clock_speed import MAX_SPEED, speed_from_environment

SPEED_VARIABLE: Final = "QUIZ_CPU_CLOCK_SPEED"

ProcessClock = Callable[[], float]


def clock_speed(environ: Mapping[str, str]) -> int:
    """The clock's speed-up `environ` asks for with QUIZ_CPU_CLOCK_SPEED: 1 to MAX_SPEED, else 1."""
    return speed_from_environment(environ, SPEED_VARIABLE)


class _Collections:
    """CPU seconds the collector has spent, kept up to date by its start and stop callbacks.

    Collections never overlap (the collector does not re-enter itself), whichever thread
    triggers them, so one start time serves.
    """

    def __init__(self, process_time: ProcessClock) -> None:
        self.seconds = 0.0
        self._process_time = process_time
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = self._process_time()
        else:
            self.seconds += self._process_time() - self._started


class CpuClock:
    """CPU seconds on `process_time` less the collector's, times `speed`: a budget's clock.

    The collector is timed while the clock is installed (`install`, or `with CpuClock(...)`):
    the process's own clock is, from import on; tests make their own on a clock they drive.
    """

    def __init__(self, process_time: ProcessClock = time.process_time, speed: int = 1) -> None:
        if not 1 <= speed <= MAX_SPEED:
            raise ValueError(f"a CPU clock runs 1 to {MAX_SPEED} times as fast, not {speed}")
        self.speed = speed
        self._process_time = process_time
        self._collections = _Collections(process_time)

    @property
    def collecting_seconds(self) -> float:
        """Seconds on `process_time` the collector has spent while the clock was installed."""
        return self._collections.seconds

    def install(self) -> None:
        """Start timing the collector (its callbacks run for every collection in the process)."""
        gc.callbacks.append(self._collections)

    def uninstall(self) -> None:
        gc.callbacks.remove(self._collections)

    def __enter__(self) -> CpuClock:
        self.install()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.uninstall()

    def __call__(self) -> float:
        return (self._process_time() - self._collections.seconds) * self.speed


PROCESS_CPU_CLOCK: Final = CpuClock(speed=clock_speed(os.environ))
PROCESS_CPU_CLOCK.install()


def cpu_time_outside_collections() -> float:
    """The process's CPU time in seconds (numpy's worker threads included), less the time
    spent collecting garbage since this module was imported (times QUIZ_CPU_CLOCK_SPEED)."""
    return PROCESS_CPU_CLOCK()
