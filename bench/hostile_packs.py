"""Hostile packs, measured in one run (issue 14), each figure beside its goal:

1. Peak memory of `quiz show` on a pack drawing three sets of 64^4 normals (goal <= 150 MB; before,
   855 MB for one, 2.5 GB for three).
2. `quiz show` on the issue's CPU pack with an unsatisfiable constraint: wall time and the CPU it
   took, beside the CPU of showing a bundled question with that pack loaded (the start-up floor)
   (goal: CPU <= the 1 s budget + start-up; before, it never ended).
3. Quitting the app (Ctrl+Q in a real pseudo-terminal) while twelve 1 MiB packs load (goal <= 1 s;
   before, the process waited for the whole load).
4. The app's home screen with the issue's packs in the packs folder (goal <= 2 s from start).
5. Loading a 1 MiB pack of 100,000 unknown fields (goal <= 2 s; before, 6-10 s and 100,000
   lines on stderr), and how many messages it lists.
Run: .venv/bin/python bench/hostile_packs.py
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy loads, here and in every child

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))
from _smoke import sized

from hostile_flood import unknown_field_flood
from terminal_session import CTRL_Q, TerminalSession

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "hostile"
CPU_PACK = CORPUS / "c1-float16-products-unsatisfiable.yaml"
MEMORY_PACK = CORPUS / "c2-three-huge-parameters.yaml"
DEEP_PACK = CORPUS / "c2-answer-nested-500.yaml"
FLOOD = unknown_field_flood()
FLOOD_PACKS = sized(12, 2)  # loading while Ctrl+Q is pressed


def row(what: str, figure: str, goal: str) -> None:
    print(f"  {what:<58} {figure:>12}   goal {goal}")


def environment(home: Path) -> dict[str, str]:
    return {"QUIZ_DATA_DIR": str(home / "data"), "QUIZ_CONFIG_DIR": str(home / "config")}


def quit_while_loading(home: Path) -> float:
    packs = home / "data" / "packs"
    packs.mkdir(parents=True)
    for i in range(FLOOD_PACKS):
        (packs / f"flood-{i}.yaml").write_text(FLOOD, encoding="utf-8")
    with TerminalSession([], environment(home)) as app:
        app.read_until(lambda out: b"Loading the questions" in out, timeout=30)
        app.press(CTRL_Q)
        return app.seconds_to_exit(timeout=60)


def home_with_hostile_packs(home: Path) -> float:
    packs = home / "data" / "packs"
    packs.mkdir(parents=True)
    for pack in (CPU_PACK, MEMORY_PACK, DEEP_PACK):
        (packs / pack.name).write_bytes(pack.read_bytes())
    start = time.monotonic()
    with TerminalSession([], environment(home)) as app:
        app.read_until(lambda out: b"Pick how to practise" in out, timeout=30)
        shown = time.monotonic() - start
        app.press(CTRL_Q)
        app.seconds_to_exit(timeout=30)
    return shown


def measured_quiz(*args: str) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds and peak RSS in MB (of all children so far) of `python -m quiz ARGS`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    subprocess.run([sys.executable, "-m", "quiz", *args], capture_output=True, check=False)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, cpu, after.ru_maxrss // 1024


def main() -> None:
    print(__doc__.split("\n")[0])
    with tempfile.TemporaryDirectory() as folder:
        # First: the peak RSS of children is the largest of all so far.
        _, _, peak = measured_quiz("show", "c2-three-params", "--bank", str(MEMORY_PACK))
        row("1. quiz show on 3 x 64^4 normals: peak RSS (MB)", f"{peak}", "<= 150")
        wall, cpu, _ = measured_quiz("show", "c1-products-false", "--bank", str(CPU_PACK))
        _, start_up, _ = measured_quiz("show", "causal-weights-3x3", "--bank", str(CPU_PACK))  # same pack loaded
        row("2. quiz show on the CPU pack: wall (s)", f"{wall:.2f}", "<= 10")
        row("   ... its CPU time, start-up included (s)", f"{cpu:.2f}", f"<= 1 + start-up ({start_up:.2f})")
        row(f"3. Ctrl+Q while {FLOOD_PACKS} MiB of packs load (s)", f"{quit_while_loading(Path(folder) / 'a'):.2f}", "<= 1")
        row("4. home screen beside the issue's packs (s)", f"{home_with_hostile_packs(Path(folder) / 'b'):.2f}", "<= 2")
        flood = Path(folder) / "flood.yaml"
        flood.write_text(FLOOD, encoding="utf-8")
        from quiz.bank import load_bank

        start = time.perf_counter()
        bank = load_bank([flood])
        row("5. loading a 1 MiB flood of unknown fields (s)", f"{time.perf_counter() - start:.2f}", "<= 2")
        row("   ... messages listed for it", f"{len(bank.report.diagnostics)}", "<= 21")


if __name__ == "__main__":
    main()
