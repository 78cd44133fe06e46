"""What one variant may spend in all: elements created, parameter values drawn, and CPU time.

The caps in `limits` bound each step; a budget bounds their sum, so many steps that each pass
cannot together exhaust memory or time. A variant's draw, its derived values, constraints,
answer, misconceptions and every text filled in later share one budget. Time is the process's
CPU time while the budget is running (numpy's worker threads included), less the garbage
collector's (`cpu_clock`), so a loaded machine, a slow reader of the screen or a heap that
others filled does not use it up; it is checked before every step of an evaluation. Drawing
happens on one thread at a time (the command, or the app's event loop once the packs have
loaded). The app's other threads are counted too, but do little beside it: writing history,
or saving the bank cache once after a cold start (60 ms of CPU for the bundled bank).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

from quiz.expressions.cpu_clock import cpu_time_outside_collections
from quiz.expressions.limits import LimitExceeded

MAX_VARIANT_ELEMENTS: Final = 2**23
"""Most elements one draw of a variant may create in all: parameters, derived values and every
intermediate of every expression (what engine functions allocate on the way included)."""

MAX_PARAM_ELEMENTS: Final = 16_384
"""Most parameter values one draw holds in all: a few dozen for numbers a person works by hand,
4,099 for the largest bundled one (inputs of an engine run a diagnosis question inspects)."""

CPU_SECONDS: Final = 1.0
"""CPU time for drawing, filling in and grading one variant, redraws included."""

CHECK_INTERVAL: Final = 0.005
"""Wall-clock seconds between two readings of the (costlier) CPU clock in `check_time`."""

Clock = Callable[[], float]


class BudgetExceeded(LimitExceeded):
    """One of a variant's budgets ran out; `budget` names which."""

    def __init__(self, budget: str, message: str) -> None:
        super().__init__(message)
        self.budget = budget


class Budget:
    """Elements and parameter values for one draw, CPU seconds for the whole variant."""

    def __init__(
        self,
        elements: int = MAX_VARIANT_ELEMENTS,
        seconds: float = CPU_SECONDS,
        clock: Clock = cpu_time_outside_collections,
        check_interval: float = CHECK_INTERVAL,
    ) -> None:
        self._elements = elements
        self._seconds = seconds
        self._clock = clock
        self._check_interval = check_interval
        self._spent = 0
        self._drawn = 0
        self._used = 0.0  # CPU seconds spent in finished runs
        self._started: float | None = None  # the clock when the outermost run began
        self._depth = 0
        self._next_check = 0.0  # perf_counter() reading before which the CPU clock is not read

    def new_draw(self) -> None:
        """Start a fresh draw (after constraints rejected one): its values replace the last's."""
        self._spent = 0
        self._drawn = 0

    def spend(self, count: int) -> None:
        """Add `count` elements created to this draw's total, refusing past the budget."""
        self._spent += count
        if self._spent > self._elements:
            raise BudgetExceeded(
                "elements",
                f"the variant would create more than {self._elements:,} elements in all (its element budget)",
            )

    def draw(self, count: int) -> None:
        """Add `count` parameter values before they are drawn, refusing past the budget."""
        if self._drawn + count > MAX_PARAM_ELEMENTS:
            raise BudgetExceeded(
                "parameters",
                f"the parameters would hold {self._drawn + count:,} values; "
                f"a variant draws at most {MAX_PARAM_ELEMENTS:,} (its parameter budget)",
            )
        self._drawn += count
        self.spend(count)

    def running(self) -> Budget:
        """Count the CPU time spent inside `with budget.running():` against the budget.

        Nested blocks count once: only the outermost reads the CPU clock, so the many short
        runs inside a variant's draw or a self-test cost a counter, not a system call.
        """
        return self

    def __enter__(self) -> None:
        if self._depth == 0:
            self._started = self._clock()
        self._depth += 1

    def __exit__(self, *exc_info: object) -> None:
        self._depth -= 1
        if self._depth == 0 and self._started is not None:
            self._used += self._clock() - self._started
            self._started = None

    def check_time(self) -> None:
        """Refuse to go on once the CPU time used, this run included, exceeds the budget.

        Called before every step, so it must be cheap: the CPU clock is read only
        when the wall clock (far cheaper to read) has moved on by CHECK_INTERVAL, since each
        thread's CPU time passes no faster than wall time. A budget may so be overrun by that
        much for every thread at work (numpy's included).
        """
        now = time.perf_counter()
        if now < self._next_check:
            return
        self._next_check = now + self._check_interval
        used = self._used
        if self._started is not None:
            used += self._clock() - self._started
        if used > self._seconds:
            raise BudgetExceeded(
                "time",
                f"the variant used up its CPU-time budget of {self._seconds:g} s",
            )

    def out_of_time(self) -> bool:
        """True once the CPU time used exceeds the budget."""
        return self.seconds_used > self._seconds

    @property
    def elements_spent(self) -> int:
        """Elements created so far in this draw (for benchmarks and tests)."""
        return self._spent

    @property
    def seconds_used(self) -> float:
        """CPU seconds used so far, the current run included."""
        return self._used + (self._clock() - self._started if self._started is not None else 0.0)
