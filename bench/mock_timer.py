"""Mock interview benchmarks, in one run (headless, 80×24, the bundled bank, a fresh data directory):

1. What the clocks' ticking costs the UI. The same interview screen sits idle for a few seconds
   with the clocks' timer off (the floor) and on: the process's CPU time per second of waiting,
   and the median time of a tick with the frame it causes, beside a refresh of the whole screen.
   Also which widgets a tick marks for redrawing (only the two clocks should be).
2. Median time from submitting an answer to what follows on screen, the attempt committed to the
   history file first: with feedback after each answer, until its verdict and explanation are
   laid out (goal <= 50 ms), beside the same on the practice screen (its floor: a mock also commits the
   next question asked and draws its variant first); with feedback held, until the next
   question's answer field is there.
Run: .venv/bin/python bench/mock_timer.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

from _smoke import sized

IDLE_S = sized(4.0, 0.1)
TICKS = sized(200, 2)
ANSWERS = sized(12, 2)

SCRIPT = """
import asyncio, statistics, sys, time
from quiz.bank import Selection, load_bank
from quiz.mock.compose import MockPlan, PlannedQuestion, bank_fingerprint, variant_seed
from quiz.mock.options import MockOptions, mock_key
from quiz.base.numbers import format_array_inline
from quiz.ui.app import make_app

MODE, IDLE_S, TICKS, ANSWERS = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
bank = load_bank()
# Typed answers only, and no follow-ups (a follow-up could be of another type).
numeric = sorted(
    q.id for q in bank.questions.values() if q.type in ("number", "vector") and not q.follow_ups and bank.compiled(q.id) is not None
)[:ANSWERS]
options = MockOptions(minutes=60, seed=1, questions=len(numeric))
plan = MockPlan(mock_key(options, bank_fingerprint(bank)), options, tuple(PlannedQuestion(i, variant_seed(1, i), 60.0) for i in numeric))


def timed_frames(screen):
    # Time each frame the screen draws (its update timer's callback), with what it redrew.
    frames = []
    timer = screen._update_timer
    draw = timer._callback

    def timed():
        redrawn = "layout" if screen._layout_required else ",".join(sorted(w.id or type(w).__name__ for w in screen._dirty_widgets))
        start = time.perf_counter()
        draw()
        frames.append((time.perf_counter() - start, redrawn))

    timer._callback = timed
    return frames


async def idle(pilot):
    app = pilot.app
    while type(app.screen).__name__ != "MockScreen" or not app.screen.query("#answer-input"):
        await pilot.pause()
    await pilot.pause()
    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.sleep(IDLE_S)  # the app runs its timers meanwhile
    print("cpu_per_s", (time.process_time() - cpu) / (time.perf_counter() - wall))
    screen = app.screen
    clocks = screen.clocks
    clocks.stop()  # ticked by hand from here, so each frame is one tick's
    for field in screen.query("Input"):
        field.cursor_blink = False  # its blinking would redraw it between ticks
    frames = timed_frames(screen)
    ticks, full, tick_call, redrawn = [], [], [], set()
    for _ in range(TICKS):
        clock.now += 1.0  # a second passes: the tick redraws both clocks' digits
        frames.clear()
        start = time.perf_counter()
        clocks.tick()
        tick_call.append(time.perf_counter() - start)
        await pilot.pause()
        ticks.append(sum(f for f, _ in frames))
        redrawn.update(r for _, r in frames)
        frames.clear()
        screen.refresh(repaint=True)
        await pilot.pause()
        full.append(sum(f for f, _ in frames))
    print("tick_call_ms", statistics.median(tick_call) * 1000)
    print("tick_frame_ms", statistics.median(ticks) * 1000)
    print("full_frame_ms", statistics.median(full) * 1000)
    print("redrawn", "|".join(sorted(redrawn)) or "-")
    app.exit()


async def answers(pilot):
    app = pilot.app
    latencies = []
    for _ in range(ANSWERS):
        while type(app.screen).__name__ not in ("MockScreen", "QuestionScreen") or not app.screen.query("#answer-input"):
            await pilot.pause()
        await pilot.pause()
        screen = app.screen
        field = screen.query_one("#answer-input")
        field.value = format_array_inline(screen.variant.answer)
        await pilot.pause()
        area = screen.query_one("#feedback-area")  # held: polling it costs little, unlike a query of the screen
        start = time.perf_counter()
        app.simulate_key("enter")
        if MODE in ("each", "practice"):
            def shown():  # the verdict and the explanation laid out (worked values may follow)
                parts = [area.query(f"FeedbackView {selector}") for selector in ("#verdict", "#explanation")]
                return all(part and all(w.region.height for w in part) for part in parts)
        else:
            first = field
            answer_area = screen.query_one("#answer-area")  # held too, for the same reason
            def shown():
                found = answer_area.query("#answer-input")
                return type(app.screen).__name__ != "MockScreen" or (found and found.first() is not first and found.first().region.height)
        while not shown():
            if time.perf_counter() - start > 10:
                raise SystemExit("nothing after 10 s")
            await asyncio.sleep(0.0005)
        latencies.append(time.perf_counter() - start)
        if MODE in ("each", "practice"):
            await pilot.press("f6")
        if MODE != "practice" and (type(app.screen).__name__ != "MockScreen" or app.screen.session.finished):
            break
    print("submit_ms", statistics.median(latencies) * 1000, max(latencies) * 1000, len(latencies))
    app.exit()


class Clock:
    # The interview clock: real time, plus what the benchmark moves it on by.
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return time.monotonic() + self.now


clock = Clock()
feedback = "each" if MODE == "each" else "end"
if MODE == "practice":  # the floor: the same questions on the practice screen
    app = make_app(bank=bank, start=Selection(ids=tuple(numeric)), seed=1)
else:
    app = make_app(bank=bank, mock=plan, mock_feedback=feedback, mock_ticking=MODE != "still", mock_clock=clock)
app.run(headless=True, size=(80, 24), auto_pilot=idle if MODE in ("still", "ticking") else answers)
"""


def run(mode: str) -> dict[str, list[str]]:
    """The script in a fresh process with its own data directory; what it printed, by label."""
    with tempfile.TemporaryDirectory() as data, tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as script:
        script.write(textwrap.dedent(SCRIPT))
        script.close()
        env = {**os.environ, "QUIZ_DATA_DIR": str(Path(data) / "data"), "QUIZ_CONFIG_DIR": str(Path(data) / "config")}
        args = [sys.executable, script.name, mode, str(IDLE_S), str(TICKS), str(ANSWERS)]
        out = subprocess.run(args, check=True, capture_output=True, text=True, env=env).stdout
        os.unlink(script.name)
    return {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.strip()}


def main() -> None:
    still, ticking = run("still"), run("ticking")
    floor_cpu, tick_cpu = float(still["cpu_per_s"][0]), float(ticking["cpu_per_s"][0])
    print(f"the mock interview screen idle for {IDLE_S:g} s, headless at 80×24:")
    print(f"  CPU per second, clocks' timer off (floor)   {floor_cpu * 1000:6.1f} ms")
    print(f"  CPU per second, clocks ticking 4 times a s  {tick_cpu * 1000:6.1f} ms   {(tick_cpu - floor_cpu) * 1000:+.1f} ms over the floor")
    call_ms, tick_ms, full_ms = (float(ticking[label][0]) for label in ("tick_call_ms", "tick_frame_ms", "full_frame_ms"))
    print(f"  a tick that changes both clocks: {call_ms:.3f} ms to update them, then {tick_ms:.2f} ms to draw its frame (medians of {TICKS});")
    print(f"{'':4}a frame redrawing the whole screen: {full_ms:.2f} ms (the cost a screen refresh per tick would have)")
    print(f"  what a tick's frames redrew: {ticking['redrawn'][0]}")
    practice, each, held = run("practice"), run("each"), run("end")
    median, worst, count = (float(x) for x in practice["submit_ms"])
    print("submit to the verdict and explanation on screen, answers saved to history first:")
    print(f"  on the practice screen (the floor), {count:.0f} answers: median {median:.1f} ms, worst {worst:.1f} ms")
    median, worst, count = (float(x) for x in each["submit_ms"])
    print(f"  in a mock (feedback each), {count:.0f} answers: median {median:.1f} ms, worst {worst:.1f} ms (goal <= 50 ms)")
    median, worst, count = (float(x) for x in held["submit_ms"])
    print(f"submit to the next question on screen (feedback held), {count:.0f} answers: median {median:.1f} ms, worst {worst:.1f} ms")
    print(f"load average while measuring (1, 5, 15 min): {', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
