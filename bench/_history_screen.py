"""The statistics screen's timing for bench/history.py (item 5), run by it in a fresh process:
.venv/bin/python bench/_history_screen.py NOW_MS OPENS (QUIZ_DATA_DIR names the store).

A file of its own rather than a `python -c` string: Textual resolves a screen's CSS_PATH relative
to the file that defines its class, and a class defined in `-c` code has none, so the screen
could not even be built (OSError: source code not available) and the bench waited 30 s for it.
The screen is not subclassed either: its `_fill_tables` is wrapped in place, so the screen that
opens is the app's own, with its own styles.

Prints the median seconds to open it, the median of the statistics alone, and the slowest open.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time

from textual.pilot import Pilot

from quiz.history.scheduling import at_datetime
from quiz.history.stats import catalogue
from quiz.ui.app import make_app
from quiz.ui.messages import OpenStatistics
from quiz.ui.screens.stats import StatisticsScreen

LAYOUT_FRAMES = 50
opened: list[float] = []
floor: list[float] = []
shown = asyncio.Event()
fill_tables = StatisticsScreen._fill_tables


def told_when_filled(self: StatisticsScreen) -> None:
    """The screen's own `_fill_tables`, then, once the tables are filled, `shown` set after the
    frame that draws them: the harness waits on an event rather than polling, which would take
    the GIL from the worker computing the figures."""
    fill_tables(self)
    if self.statistics is not None and self.query("#stats-mistakes"):
        self.call_after_refresh(shown.set)


StatisticsScreen._fill_tables = told_when_filled


async def measure(pilot: Pilot[None], opens: int) -> None:
    app = pilot.app
    await app.workers.wait_for_complete()
    bank_catalogue = catalogue(app.bank.questions.values())
    for _ in range(opens):
        await pilot.pause()
        shown.clear()
        start = time.perf_counter()
        app.post_message(OpenStatistics())
        await asyncio.wait_for(shown.wait(), 30)
        table = app.screen.query_one("#stats-mistakes")
        for _ in range(LAYOUT_FRAMES):  # on a loaded machine the filled table may be laid out a frame later
            if table.row_count and table.size.height:
                break
            await pilot.pause()
        opened.append(time.perf_counter() - start)  # opened means drawn with its tables laid out
        assert table.row_count and table.size.height, "the tables were not laid out"
        await pilot.press("escape")
        await app.workers.wait_for_complete()
        start = time.perf_counter()
        app.history.statistics(bank_catalogue)
        floor.append(time.perf_counter() - start)
    app.exit()


def main() -> None:
    now_ms, opens = int(sys.argv[1]), int(sys.argv[2])
    now = at_datetime(now_ms).astimezone()

    async def auto_pilot(pilot: Pilot[None]) -> None:
        await measure(pilot, opens)

    make_app(seed=1, now=lambda: now).run(headless=True, size=(100, 30), auto_pilot=auto_pilot)
    print(statistics.median(opened), statistics.median(floor), max(opened))


if __name__ == "__main__":
    main()
