"""App benchmarks, in one run:

1. Time from process start until the first question of `quiz practice --id KEY` is on screen
   (headless, started through the command's own code), beside a bare Textual app showing one line and the widgets floor (numpy, yaml and
   the question screen's widgets), started the same way (goal <= 1.25x the widgets floor): with
   the bank cache warm (written by an earlier start) and without one (a fresh cache folder for
   every start, as on the first start after installing or changing the quiz).
   Each app reads the system's monotonic clock once its screen is shown and prints it; the time
   the process then takes to exit is not part of the figure.
2. The same start with a history of 100,000 attempts over 500 questions (bench/history.py's) beside
   an empty history file: the history opens in a worker, off the first question's path (goal:
   within 5 %), as medians and as the median ratio of back-to-back pairs. Also when the file was
   open, from the same process start (its worker starts once the first screen is drawn; "shown"
   is seen between frames, so it may be noted a little after).
3. Median time from submitting an answer until its verdict and explanation are laid out, the
   attempt committed to the history file first (goal <= 50 ms).
4. Peak memory (max RSS) of a process that starts the app and answers 30 questions (goal <= 150 MB).
Every app process gets its own data directory (QUIZ_DATA_DIR) and cache (QUIZ_CACHE_DIR), never
the user's.
Run: .venv/bin/python bench/app_startup.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from _smoke import SMOKE, sized
from history import build_large_store, opened

KEY = "causal-weights-3x3#3"
REPEATS = sized(11, 1)
ANSWERS = sized(30, 2)  # of the session in 3 and 4

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

# Started as the `quiz` command starts it (its entry point is quiz.cli.entry.main): the command loads the
# bank and checks the selection, then `practice.launch` runs the app, here headless with a pilot.
QUIZ = f"""
import sys, time
from quiz.cli import entry
from quiz.base.collector import STARTING
STARTING.hold()  # what entry.main does first: the harness's own import of practice is held as the command's is
from quiz.cli import practice

async def until_shown(pilot):  # by class name: the harness imports nothing the app would not
    while type(pilot.app.screen).__name__ != "QuestionScreen" or not pilot.app.screen.query("#answer-input"):
        await pilot.pause()
    say(f"shown {{time.monotonic()}}")
    while not pilot.app.history.opened:  # its worker starts after the first frame: wait until it has
        await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    pilot.app.exit()

def say(line):  # one write per line: the worker thread and the app print at about the same time
    sys.stdout.write(line + "\\n")
    sys.stdout.flush()

def launch(args, selection, bank=None, mode="practice"):  # practice.launch's app, run headless
    app = practice.open_app(args, selection, bank, mode)
    opening = app.history.open

    def timed_open():  # in the app's worker thread: when the history file is open, on the same clock
        opening()
        say(f"history {{time.monotonic()}} {{app.history.problem is None}}")

    app.history.open = timed_open
    app.run(headless=True, size=(100, 30), auto_pilot=until_shown)
    return 0

practice.launch = launch
sys.exit(entry.main(["practice", "--id", {KEY!r}]))
"""

SESSION = """
import asyncio, resource, statistics, sys, time
from quiz.bank import Selection
from quiz.ui.app import make_app

latencies = []

def laid_out(widgets):
    return bool(widgets) and all(w.region.height for w in widgets)

async def answer_thirty(pilot):
    app = pilot.app
    for _ in range(int(sys.argv[1])):
        await pilot.pause()
        while not app.screen.query("#answer-input"):  # the bank loads, or the new variant mounts
            await pilot.pause()
        field = app.screen.query_one("#answer-input")
        field.value = "1 0 0; 0.5 0.5 0; 0.3 0.3 0.4"
        await pilot.pause()
        # From the Enter key reaching the answer field until the verdict and the explanation are
        # laid out on screen (the worked values may follow): the pilot's own waiting for idle and
        # animations is left out. The feedback's area is held, as bench/submit.py holds it: a
        # query of the whole screen every 0.5 ms took CPU time from the app it measures.
        area = app.screen.query_one("#feedback-area")
        start = time.perf_counter()
        app.simulate_key("enter")
        while not (area.children and all(laid_out(area.children[0].query(part)) for part in ("#verdict", "#explanation"))):
            if time.perf_counter() - start > 10:
                raise SystemExit("no feedback after 10 s")
            await asyncio.sleep(0.0005)
        latencies.append(time.perf_counter() - start)
        await pilot.press("f5")
    app.exit()

make_app(start=Selection(key="causal-weights-3x3#3"), seed=1).run(headless=True, size=(100, 30), auto_pilot=answer_thirty)
print(statistics.median(latencies) * 1000, max(latencies) * 1000, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def run_script(code: str, data_dir: Path, cache_dir: Path | None = None, *args: str) -> tuple[float, str]:
    """Start a Python process on `code` with `data_dir` as its data directory and `cache_dir` (a
    fresh one unless given) as its cache, and `args` as its arguments; the monotonic time it started at,
    and what it printed."""
    fresh_cache = tempfile.mkdtemp(prefix="cache-", dir=data_dir) if cache_dir is None else str(cache_dir)
    env = {**os.environ, "QUIZ_DATA_DIR": str(data_dir), "QUIZ_CACHE_DIR": fresh_cache}
    # A folder of its own, removed after the run: the script's folder is first on its sys.path.
    with tempfile.TemporaryDirectory(prefix="script-") as folder:
        script = Path(folder) / "script.py"
        script.write_text(textwrap.dedent(code))
        start = time.monotonic()  # the same system clock the child reads
        out = subprocess.run([sys.executable, script, *args], check=True, capture_output=True, text=True, env=env).stdout
    return start, out


def printed_at(out: str, label: str) -> float:
    [moment] = [float(line.split()[1]) for line in out.splitlines() if line.startswith(label + " ")]
    return moment


def time_process(code: str, data_dir: Path) -> float:
    """Seconds from starting a Python process on `code` until it prints that its screen is shown."""
    start, out = run_script(code, data_dir)
    return printed_at(out, "shown") - start


def time_quiz(data_dir: Path, cache_dir: Path | None) -> tuple[float, float]:
    """Seconds until the first question is shown, and until the history file is open; with the
    bank cache in `cache_dir`, or a fresh (cold) one when None."""
    start, out = run_script(QUIZ, data_dir, cache_dir)
    assert "history" in out and "False" not in out, f"the history file was not opened: {out}"
    return printed_at(out, "shown") - start, printed_at(out, "history") - start


def histories(folder: Path) -> tuple[Path, Path]:
    """Data directories holding an empty history file and one of 100,000 attempts (history.ATTEMPTS)."""
    empty, large = folder / "empty", folder / "large"
    empty.mkdir()
    opened(empty / "history.sqlite3").close()
    large.mkdir()
    build_large_store(large / "history.sqlite3")
    return empty, large


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        measure(*histories(Path(tmp)), Path(tmp))


def measure(empty: Path, large: Path, folder: Path) -> None:
    bare, widgets, quiz, quiz_cold, quiz_large, history_large = [], [], [], [], [], []
    cache = folder / "cache"  # the warm cache: written by the first start below, read by the rest
    if not SMOKE:  # warm the file cache and bytecode (in smoke mode the first start below writes the cache)
        time_process(BARE, empty), time_process(WIDGETS, empty), time_quiz(empty, cache), time_quiz(large, cache)
    for _ in range(REPEATS):  # alternate, so all see the same machine load
        bare.append(time_process(BARE, empty))
        widgets.append(time_process(WIDGETS, empty))
        quiz.append(time_quiz(empty, cache)[0])
        quiz_cold.append(time_quiz(empty, None)[0])
        shown, history_open = time_quiz(large, cache)
        quiz_large.append(shown)
        history_large.append(history_open)
    bare_s, widgets_s, quiz_s, cold_s = (statistics.median(t) for t in (bare, widgets, quiz, quiz_cold))
    warm_pairs, cold_pairs = (statistics.median(q / w for q, w in zip(runs, widgets)) for runs in (quiz, quiz_cold))
    print(f"first screen, median of {REPEATS} process starts (headless):")
    print(f"  bare Textual app, one line                  {bare_s * 1000:5.0f} ms")
    print(f"  the same with numpy, yaml and the question  {widgets_s * 1000:5.0f} ms   {widgets_s / bare_s:.2f}x the bare app")
    print("    screen's widgets (Markdown, Input, header, footer)")
    print(f"  quiz practice --id {KEY}     {quiz_s * 1000:5.0f} ms   {quiz_s / bare_s:.2f}x the bare app,")
    print(f"    bank cache warm{'':40}{quiz_s / widgets_s:.2f}x the widgets floor (goal <= 1.25x),")
    print(f"{'':59}{warm_pairs:.2f}x as the median of back-to-back pairs")
    print(f"  the same without a cache (cold start)       {cold_s * 1000:5.0f} ms   {cold_s / bare_s:.2f}x the bare app,")
    print(f"{'':59}{cold_s / widgets_s:.2f}x the widgets floor,")
    print(f"{'':59}{cold_pairs:.2f}x as the median of back-to-back pairs")
    large_s, history_s = statistics.median(quiz_large), statistics.median(history_large)
    paired = statistics.median(large / empty for large, empty in zip(quiz_large, quiz))  # each pair ran back to back
    print(f"  the same with 100,000 attempts in history    {large_s * 1000:5.0f} ms   {large_s / quiz_s:.3f}x the empty history (goal <= 1.05x),")
    print(f"{'':59}{paired:.3f}x as the median of back-to-back pairs;")
    print(f"{'':4}its history file open {history_s * 1000:.0f} ms after the process started (a worker started once the first screen is drawn)")
    session_dir = folder / "session"
    session_dir.mkdir()
    out = run_script(SESSION, session_dir, cache, str(ANSWERS))[1].split()
    median_ms, worst_ms, peak_mb = (float(x) for x in out[-3:])
    print(f"submit to verdict and explanation on screen, {ANSWERS} answers saved to history:")
    print(f"{'':4}median {median_ms:.1f} ms, worst {worst_ms:.1f} ms (goal <= 50 ms)")
    print(f"peak memory of that process (max RSS): {peak_mb:.0f} MB (goal <= 150 MB)")
    print(f"load average while measuring (1, 5, 15 min): {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
