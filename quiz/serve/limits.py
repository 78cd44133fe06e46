"""How many sessions may run at once, and when an idle one ends (the clock is injected)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class SessionSlots:
    """At most `limit` app processes at a time: one more browser is told the server is full."""

    limit: int
    taken: int = 0

    def take(self) -> bool:
        """Take a slot for a new session; False when all are in use."""
        if self.taken >= self.limit:
            return False
        self.taken += 1
        return True

    def give_back(self) -> None:
        self.taken -= 1

    @property
    def full(self) -> bool:
        return self.taken >= self.limit


@dataclass
class IdleTimer:
    """When a session last heard from its browser; past `timeout` seconds of silence it is over
    (its app process is ended: a tab left open on a shared machine holds nothing for long)."""

    timeout: float
    clock: Callable[[], float] = time.monotonic
    last: float = field(init=False)

    def __post_init__(self) -> None:
        self.last = self.clock()

    def touch(self) -> None:
        """The browser sent something: keys, a paste, a resize."""
        self.last = self.clock()

    def remaining(self) -> float:
        """Seconds until the session is idle for too long (0 or less: it is)."""
        return self.timeout - (self.clock() - self.last)
