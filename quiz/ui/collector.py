"""Python's cyclic garbage collector held back from an answer's Enter until its feedback is drawn.

Each answer leaves thousands of new objects that live on (widgets, styles, and every strip of a
frame keeps seven small caches), so on the way to the feedback the collector ran about ten
young collections (3-4 ms in all) and one of the middle generation (5-7 ms), and now and then a
full one (15 ms and more). Held, the same collections run just after the frame, while the
learner reads it. Only automatic collection pauses; nothing is skipped, and `release` is safe
to call twice. (The app's start pauses the collector its own way; a hold leaves that alone.)
"""

from __future__ import annotations

import gc


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
"""The one hold of the process (the collector is the process's too)."""
