"""Submit → feedback, with history recording, in one run:

The app (headless, 100x30) answers 30 numeric questions (2 in smoke mode: bench/_smoke.py); each answer is committed to a fresh
history file (synchronous=FULL: the commit waits for an fsync) before its feedback is drawn, as
the issue asks. Printed: the median and 90th percentile from the Enter key reaching the answer
field until the feedback the learner needs is laid out: the verdict line and the explanation both
have a region on screen (goal: median <= 50 ms); the CPU time the process spent in it; the median
until the layout that first gives both a region has been drawn (Textual's public
`screen_layout_refresh_signal`, called as it is published: after that layout's redraw of what
changed, before the repaint of the whole screen that the focus change adds in the same tick,
about 5 ms); the poll above sees them only once the callbacks and messages queued behind
that frame have run; the median
until the worked values (heatmap and tensors, which may follow a frame later) are laid out too;
and the part spent committing the attempt with its card update, beside the floor of that commit:
appending 4 KiB to a file in the same folder and fsyncing it.
Run: .venv/bin/python bench/submit.py (PYTHONPATH=<a worktree> to measure that tree's quiz; the
session is started with -P, so the current folder does not shadow it, and prints which it measured)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from _smoke import sized

ANSWERS = sized(30, 2)

SESSION = """
import asyncio, os, statistics, sys, time
from quiz.bank import Selection
from quiz.history.recorder import Recorder
from quiz.ui.app import make_app
from quiz.ui.widgets.feedback import FeedbackView

ANSWERS = int(sys.argv[1])
latencies, cpu, worked, commits, fsyncs, drawn = [], [], [], [], [], []
watching = {}
record = Recorder.record

def timed_record(self, attempt):  # the commit, as the app makes it on the way to the feedback
    start = time.perf_counter()
    saved = record(self, attempt)
    commits.append(time.perf_counter() - start)
    return saved

Recorder.record = timed_record

def fsync_floor():
    with open(os.path.join(os.environ["QUIZ_DATA_DIR"], "fsync.bin"), "ab") as raw:
        start = time.perf_counter()
        raw.write(b"x" * 4096)
        raw.flush()
        os.fsync(raw.fileno())
        fsyncs.append(time.perf_counter() - start)

def laid_out(widgets):
    return bool(widgets) and all(w.region.height for w in widgets)

def layout_drawn(screen):  # at the end of each layout's frame, while an answer is on its way
    area = watching.get("area")  # held, as the poll holds it: no query of the whole screen
    if area is not None and area.children and "feedback" not in watching:
        feedback = area.children[0]
        if all(laid_out(feedback.query(selector)) for selector in ("#verdict", "#explanation")):
            watching["feedback"] = time.perf_counter() - watching["start"]

async def answer_thirty(pilot):
    app = pilot.app
    await app.workers.wait_for_complete()  # the history file is open
    app.screen.screen_layout_refresh_signal.subscribe(app.screen, layout_drawn, immediate=True)
    for _ in range(ANSWERS):
        await pilot.pause()
        app.screen.query_one("#answer-input").value = "1 0 0; 0.5 0.5 0; 0.3 0.3 0.4"
        await pilot.pause()
        fsync_floor()  # alternately with the answers, so both see the same disk load
        # Held, so polling costs little: a query of the whole screen every 0.5 ms took CPU
        # time from the app it measures.
        area = app.screen.query_one("#feedback-area")
        start, start_cpu = time.perf_counter(), time.process_time()
        watching.clear()
        watching.update(start=start, area=area)
        app.simulate_key("enter")
        while not area.children:
            await asyncio.sleep(0.0005)
        feedback = area.query_one(FeedbackView)
        while not all(laid_out(feedback.query(selector)) for selector in ("#verdict", "#explanation")):
            await asyncio.sleep(0.0005)
        latencies.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        drawn.append(watching["feedback"])  # a KeyError here: no layout signal saw them
        area = feedback.query_one("#worked")
        while not laid_out(area.children):
            await asyncio.sleep(0.0005)
        worked.append(time.perf_counter() - start)
        await pilot.press("f5")
    app.exit()

make_app(start=Selection(key="causal-weights-3x3#3"), seed=1).run(headless=True, size=(100, 30), auto_pilot=answer_thirty)
assert len(commits) == ANSWERS, commits
latencies.sort()
median = statistics.median
p90 = latencies[(len(latencies) * 9 + 9) // 10 - 1]  # nearest rank: the 27th of 30
figures = (median(latencies), p90, median(cpu), median(drawn), median(worked), median(commits), median(fsyncs))
print("quiz:", os.path.dirname(os.path.dirname(__import__("quiz").__file__)))
print(*(x * 1000 for x in figures))
"""


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "QUIZ_DATA_DIR": str(Path(tmp))}
        # -P: `-c` would put the current folder first on sys.path, and a checkout there would be
        # measured instead of the one PYTHONPATH names.
        command = [sys.executable, "-P", "-c", textwrap.dedent(SESSION), str(ANSWERS)]
        session = subprocess.run(command, check=True, capture_output=True, text=True, env=env)
        out = session.stdout
    measured = next(line for line in out.splitlines() if line.startswith("quiz: "))
    median, p90, cpu, drawn, worked, commit, fsync = (float(x) for x in out.split()[-7:])
    print(f"submit to the verdict and explanation laid out, {ANSWERS} answers saved to history ({measured}):")
    print(f"{'':4}median {median:.1f} ms, p90 {p90:.1f} ms (goal: median <= 50 ms);")
    print(f"{'':4}CPU time of the process in it: median {cpu:.1f} ms")
    print(f"{'':4}until the frame that lays them out is drawn (no polling): median {drawn:.1f} ms")
    print(f"{'':4}until the worked values are laid out too: median {worked:.1f} ms")
    print(f"{'':4}of which committing the attempt and its card: median {commit:.1f} ms,")
    print(f"{'':4}floor, append 4 KiB and fsync in the same folder: median {fsync:.1f} ms")
    print(f"load average while measuring (1, 5, 15 min): {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
