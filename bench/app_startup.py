"""App benchmarks, in one run:

1. Time from process start until the first question of `quiz practice --id KEY` is on screen
   (headless), beside a bare Textual app showing one line, started the same way (goal <= 1.5x).
   Each app reads the system's monotonic clock once its screen is shown and prints it; the time
   the process then takes to exit is not part of the figure.
2. Median time from submitting an answer to its feedback on screen (goal <= 50 ms).
3. Peak memory (max RSS) of a process that starts the app and answers 30 questions (goal <= 150 MB).
Run: .venv/bin/python bench/app_startup.py
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

KEY = "causal-weights-3x3#3"
REPEATS = 11

BARE = """
import time
from textual.app import App
from textual.widgets import Static

class Bare(App):
    def compose(self):
        yield Static("one line")

async def until_shown(pilot):
    await pilot.pause()
    print("shown", time.monotonic())
    pilot.app.exit()

Bare().run(headless=True, size=(100, 30), auto_pilot=until_shown)
"""

# What the question screen cannot do without: numpy for the variant, yaml for the bank, and the
# widgets it shows (Markdown prompt, an input, header and footer). Not a goal of the issue: it
# shows how much of the gap to the bare app these alone account for.
WIDGETS = """
import time
import numpy, yaml
from textual.app import App
from textual.widgets import Footer, Header, Input, Markdown, Static

class Widgets(App):
    def compose(self):
        yield Header()
        yield Static("progress")
        yield Markdown("A head has $d_k = 4$ and **two** keys.")
        yield Input()
        yield Footer()

async def until_shown(pilot):
    await pilot.pause()
    print("shown", time.monotonic())
    pilot.app.exit()

Widgets().run(headless=True, size=(100, 30), auto_pilot=until_shown)
"""

QUIZ = f"""
import time
from quiz.bank import Selection
from quiz.ui.app import make_app

async def until_shown(pilot):  # by class name: the harness imports nothing the app would not
    while type(pilot.app.screen).__name__ != "QuestionScreen" or not pilot.app.screen.query("#answer-input"):
        await pilot.pause()
    print("shown", time.monotonic())
    pilot.app.exit()

make_app(start=Selection(key={KEY!r}), seed=1).run(headless=True, size=(100, 30), auto_pilot=until_shown)
"""

SESSION = """
import asyncio, resource, statistics, time
from quiz.bank import Selection
from quiz.ui.app import make_app
from quiz.ui.widgets.feedback import FeedbackView

latencies = []

async def answer_thirty(pilot):
    app = pilot.app
    for _ in range(30):
        await pilot.pause()
        field = app.screen.query_one("#answer-input")
        field.value = "1 0 0; 0.5 0.5 0; 0.3 0.3 0.4"
        await pilot.pause()
        # From the Enter key reaching the answer field until the feedback panel is laid out
        # on screen: the pilot's own waiting for idle and animations is left out.
        start = time.perf_counter()
        app.simulate_key("enter")
        while not (app.screen.query(FeedbackView) and app.screen.query_one(FeedbackView).region.height):
            if time.perf_counter() - start > 10:
                raise SystemExit("no feedback after 10 s")
            await asyncio.sleep(0.0005)
        latencies.append(time.perf_counter() - start)
        await pilot.press("f5")
    app.exit()

make_app(start=Selection(key="causal-weights-3x3#3"), seed=1).run(headless=True, size=(100, 30), auto_pilot=answer_thirty)
print(statistics.median(latencies) * 1000, max(latencies) * 1000, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def time_process(code: str) -> float:
    """Seconds from starting a Python process on `code` until it prints that its screen is shown."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as script:
        script.write(textwrap.dedent(code))
    start = time.monotonic()  # the same system clock the child reads
    out = subprocess.run([sys.executable, script.name], check=True, capture_output=True, text=True).stdout
    [shown] = [float(line.split()[1]) for line in out.splitlines() if line.startswith("shown ")]
    return shown - start


def main() -> None:
    bare, widgets, quiz = [], [], []
    time_process(BARE), time_process(WIDGETS), time_process(QUIZ)  # warm the file cache and bytecode
    for _ in range(REPEATS):  # alternate, so all see the same machine load
        bare.append(time_process(BARE))
        widgets.append(time_process(WIDGETS))
        quiz.append(time_process(QUIZ))
    bare_s, widgets_s, quiz_s = (statistics.median(t) for t in (bare, widgets, quiz))
    print(f"first screen, median of {REPEATS} process starts (headless):")
    print(f"  bare Textual app, one line                  {bare_s * 1000:5.0f} ms")
    print(f"  the same with numpy, yaml and the question  {widgets_s * 1000:5.0f} ms   {widgets_s / bare_s:.2f}x the bare app")
    print("    screen's widgets (Markdown, Input, header, footer)")
    print(f"  quiz practice --id {KEY}     {quiz_s * 1000:5.0f} ms   {quiz_s / bare_s:.2f}x the bare app (goal <= 1.5x),")
    print(f"{'':59}{quiz_s / widgets_s:.2f}x the widgets floor")
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as script:
        script.write(textwrap.dedent(SESSION))
    out = subprocess.run([sys.executable, script.name], check=True, capture_output=True, text=True).stdout.split()
    median_ms, worst_ms, peak_mb = (float(x) for x in out[-3:])
    print(f"submit to feedback on screen, 30 answers: median {median_ms:.1f} ms, worst {worst_ms:.1f} ms (goal <= 50 ms)")
    print(f"peak memory of that process (max RSS): {peak_mb:.0f} MB (goal <= 150 MB)")


if __name__ == "__main__":
    main()
