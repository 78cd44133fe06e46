"""Waiting, in pilot tests, for what the app shows a frame or two after a key (worked solutions,
Markdown, footer keys): until the screen stops changing, never a guessed number of frames."""

from __future__ import annotations

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


async def history_open(pilot: Pilot) -> None:
    """Wait until the app has opened the history file (in a worker started once the first screen
    is drawn, or by HISTORY_AT_LATEST) and shown what it read: home's due count, today's count on
    the status line."""
    for _ in range(1000):  # up to 5 s: the latest start is a timer's
        if pilot.app.history.opened:
            await pilot.app.workers.wait_for_complete()  # its handler has run when the worker ends
            return
        await pilot.pause(0.005)
    raise AssertionError("the history file was never opened")


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
    for _ in range(1000):
        if getattr(pilot.app.screen, "computed", False):
            await settle(pilot)
            return
        await pilot.pause()
    raise AssertionError("the statistics never came")
