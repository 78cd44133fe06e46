"""Waiting, in pilot tests, for what the app shows a frame or two after a key (worked solutions,
Markdown, footer keys): until the screen stops changing, never a guessed number of frames."""

from __future__ import annotations

from textual.pilot import Pilot


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
