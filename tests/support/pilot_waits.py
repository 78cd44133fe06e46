"""Waiting, in pilot tests, for what the app shows a frame or two after a key (worked solutions,
Markdown, footer keys): until the screen stops changing, never a guessed number of frames; and
for what the app does by itself (a thread's save, a worker's figures): until it has happened,
however long this machine takes, up to a guard only a hang reaches."""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.message import Message
from textual.notifications import Notify
from textual.pilot import Pilot
from textual.widgets import Input, TextArea


class Heard:
    """Every notice the app was asked to show, in order, from Textual's public `Notify` messages:
    pass one as `run_test(message_hook=...)` (a toast on screen may have timed out already)."""

    def __init__(self) -> None:
        self.notices: list[str] = []
        self.titles: list[str] = []

    def __call__(self, message: Message) -> None:
        if isinstance(message, Notify):
            self.notices.append(str(message.notification.message))
            self.titles.append(message.notification.title)


async def settle(pilot: Pilot) -> None:
    """Wait until nothing more is mounted or laid out: what is shown stays the same over a pause."""

    def layout() -> list[tuple[str, object]]:
        return [(type(widget).__name__, widget.region) for widget in pilot.app.screen.walk_children()]

    before = layout()
    for _ in range(100):
        await pilot.pause()
        now = layout()
        if now == before:
            return
        before = now
    raise AssertionError("the screen kept changing")


HANG_GUARD_SECONDS = 60.0
"""Longest wait for something the app does by itself: only a hang takes that long."""


async def until(pilot: Pilot, done: Callable[[], bool], what: str, delay: float | None = None) -> None:
    """Pause (for `delay` seconds, or a frame) until `done()`; AssertionError naming `what` after
    HANG_GUARD_SECONDS of wall time."""
    deadline = time.monotonic() + HANG_GUARD_SECONDS
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not after {HANG_GUARD_SECONDS:g} s")
        await pilot.pause(delay)


async def history_open(pilot: Pilot) -> None:
    """Wait until the app has opened the history file (in a worker started once the first screen
    is drawn, or by HISTORY_AT_LATEST) and shown what it read: home's due count, today's count on
    the status line."""
    await until(pilot, lambda: pilot.app.history.opened, "the history file was opened", delay=0.005)
    await pilot.app.workers.wait_for_complete()  # its handler has run when the worker ends


async def steady(pilot: Pilot) -> None:
    """Ready for a still picture: history read, no blinking cursor, nothing still being laid out."""
    await history_open(pilot)
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    for area in pilot.app.screen.query(TextArea):
        area.cursor_blink = False
    await settle(pilot)


async def statistics_shown(pilot: Pilot) -> None:
    """Wait until the statistics screen has its figures (its worker starts once it is drawn)."""
    await until(pilot, lambda: getattr(pilot.app.screen, "computed", False), "the statistics came")
    await settle(pilot)


async def load_shown(pilot: Pilot) -> None:
    """Wait until Settings shows the expected daily load at the retention picked (a worker simulates it)."""
    await until(pilot, lambda: getattr(pilot.app.screen, "simulated", False), "the daily load came")
    await settle(pilot)
