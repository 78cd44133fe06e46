"""Python's cyclic garbage collector held back while many long-lived objects are built.

The bank cache decodes the bank under a hold, a start holds it from the command's first step
(loading the bank, importing the app) until the first screen is up, and each answer holds it
from Enter until its feedback is drawn. Each answer leaves thousands of new objects that live on
(widgets, styles, and every strip of a frame keeps seven small caches), so on the way to the
feedback the collector ran about ten young collections (3-4 ms in all) and one of the middle
generation (5-7 ms), and now and then a full one (15 ms and more). Held, the same collections
run just after the frame, while the learner reads it. Only automatic collection pauses; nothing
is skipped, and `release` is safe to call twice. A hold taken while another holds leaves the
collector to that one.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


class CollectorHold:
    """Pauses automatic collection between `hold` and `release`, if it was running."""

    def __init__(self) -> None:
        self.holding = False

    def hold(self) -> None:
        """Pause automatic collection (a collector someone else disabled stays as it was)."""
        if not self.holding and gc.isenabled():
            gc.disable()
            self.holding = True

    def release(self) -> None:
        """Resume automatic collection paused by `hold`; nothing if none is held."""
        if self.holding:
            self.holding = False
            gc.enable()


COLLECTOR = CollectorHold()
"""The hold of the answer on its way to feedback."""

STARTING = CollectorHold()
"""The hold of a start: taken by the command that opens the app, before it loads the bank and
imports the app, or by the app as it loads; the app releases it a moment after its first screen
is drawn and the history file is open, or when it ends."""


@contextmanager
def collector_held() -> Iterator[None]:
    """A hold for the length of a block: building objects none of which is garbage yet."""
    hold = CollectorHold()
    hold.hold()
    try:
        yield
    finally:
        hold.release()
