"""The process's CPU time less what the cyclic garbage collector has spent: what budgets read.

A collection runs when an allocation tips a generation over its threshold, wherever that
allocation happens, and a full one walks every container object in the process. In the test
process, holding some 400,000 of them, one took 1.2 s of CPU inside a variant as small as
`softmax(z)` of four numbers. That cost is the size of the whole heap, not of what the variant
did, so budgets leave it out; what a pack's expressions allocate is bounded by their elements.
"""

from __future__ import annotations

import gc
import time


class _Collections:
    """CPU seconds the collector has spent, kept up to date by its start and stop callbacks.

    Collections never overlap (the collector does not re-enter itself), whichever thread
    triggers them, so one start time serves.
    """

    def __init__(self) -> None:
        self.seconds = 0.0
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.process_time()
        else:
            self.seconds += time.process_time() - self._started


_COLLECTIONS = _Collections()
gc.callbacks.append(_COLLECTIONS)


def cpu_time_outside_collections() -> float:
    """The process's CPU time in seconds (numpy's worker threads included), less the time
    spent collecting garbage since this module was imported."""
    return time.process_time() - _COLLECTIONS.seconds
