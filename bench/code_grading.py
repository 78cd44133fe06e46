"""Grading a code answer end to end, with and without bubblewrap's confinement, beside the floors of
starting Python with numpy bare and under bwrap, in one run.

Grading = drawing the inputs, starting the sandboxed child (python -I with numpy), running the
candidate's function on every check's inputs, judging, and fault matching. It is timed for a
typical right answer to implement-sdpa (all seven checks) and for a wrong one, which also goes
through fault matching, once under bubblewrap (the sandbox's choice where bwrap runs) and once
without (as on a machine without it). The floors are `python -I -c "import numpy"` started as the
sandbox starts its child (same interpreter, same environment: one BLAS thread), bare and under
bwrap with the sandbox's namespaces and mounts (quiz.code.bubblewrap.start).
Goal: grading <= 1.5 s, and confined grading <= 2.5x the confined floor. Prints medians of several
runs, all measured in alternation.
Run: .venv/bin/python bench/code_grading.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from _smoke import sized

from quiz.code import bubblewrap, run_checks
from quiz.code.run import plan
from quiz.code.sandbox import CHILD_ENV, HARNESS

REPEATS = sized(11, 1)
GOAL_SECONDS = 1.5
GOAL_FACTOR = 2.5

RIGHT = """
import numpy as np


def attention(q, k, v, mask=None):
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, scores, -np.inf) if mask.dtype == bool else scores + mask
    top = np.max(scores, axis=-1, keepdims=True)
    weights = np.exp(scores - np.where(np.isfinite(top), top, 0.0))
    total = weights.sum(axis=-1, keepdims=True)
    return weights / np.where(total == 0, 1.0, total) @ v
"""
WRONG = RIGHT.replace(" / np.sqrt(q.shape[-1])", "")  # the missing 1/√d_k
BARE_FLOOR = "python -I -c 'import numpy' (floor)"
BOX_FLOOR = "bwrap ... python -I -c 'import numpy' (floor)"


def bare_numpy() -> None:
    subprocess.run([sys.executable, "-I", "-c", "import numpy"], check=True, env=CHILD_ENV)


def boxed_numpy(bwrap: str) -> None:
    with tempfile.TemporaryDirectory(prefix="quiz-bench-") as folder:
        for name in bubblewrap.RESULT_FILES:
            (Path(folder) / name).write_bytes(b"")
        with open(os.devnull, "wb") as null:
            argv = [sys.executable, "-I", "-c", "import numpy"]
            box = bubblewrap.start(bwrap, Path(folder), HARNESS, argv, rlimits=(), stdio=null.fileno(), env=CHILD_ENV)
            try:
                assert box.process.wait() == 0
            finally:
                box.end()


def unconfined(run: Callable[[], object]) -> Callable[[], object]:
    """`run` as on a machine without bubblewrap: the sandbox's probe says there is none meanwhile."""
    probe = bubblewrap.probe

    def without() -> object:
        bubblewrap.probe = lambda: (None, "turned off for the bench")  # type: ignore[assignment]
        try:
            return run()
        finally:
            bubblewrap.probe = probe

    return without


def timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main() -> None:
    bwrap, why = bubblewrap.probe()
    seeds = iter(range(10**6))

    def right() -> object:
        return run_checks("attention", RIGHT, seed=next(seeds))

    def wrong() -> object:
        return run_checks("attention", WRONG, seed=next(seeds))

    cases: dict[str, Callable[[], object]] = {BARE_FLOOR: bare_numpy}
    if bwrap is not None:
        cases[BOX_FLOOR] = lambda: boxed_numpy(bwrap)
        cases["grade a right answer (7 checks), under bwrap"] = right
        cases["grade a wrong answer (+ fault matching), under bwrap"] = wrong
    cases["grade a right answer (7 checks), unconfined"] = unconfined(right)
    cases["grade a wrong answer (+ fault matching), unconfined"] = unconfined(wrong)
    cases["  of which drawing the inputs"] = lambda: plan("attention", seed=next(seeds))
    assert run_checks("attention", WRONG, seed=0).misconception == "missing_scale"
    for run in sized(list(cases.values()), []):  # warm the file cache and bytecode
        run()
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(REPEATS):  # alternate, so all see the same machine load
        for name, run in cases.items():
            samples[name].append(timed(run))
    medians = {name: statistics.median(times) for name, times in samples.items()}
    print(f"implement-sdpa, median of {REPEATS} runs each (goal: grading <= {GOAL_SECONDS} s, <= {GOAL_FACTOR}x the confined floor)")
    if bwrap is None:
        print(f"  no bubblewrap here ({why}): unconfined figures only")
    for name, median in medians.items():
        verdict = ""
        if name.startswith("grade"):
            floor = medians[BOX_FLOOR] if name.endswith("under bwrap") else medians[BARE_FLOOR]
            factor = median / floor
            ok = median <= GOAL_SECONDS and (factor <= GOAL_FACTOR or not name.endswith("under bwrap"))
            verdict = f"  {factor:4.1f}x its floor  {'ok' if ok else 'over'}"
        print(f"  {name:<54}{median * 1000:7.0f} ms{verdict}")


if __name__ == "__main__":
    main()
