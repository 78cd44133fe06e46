"""Grading a code answer end to end, beside the floor of starting Python with numpy, in one run.

Grading = drawing the inputs, starting the sandboxed child (python -I with numpy), running the
candidate's function on every check's inputs, judging, and fault matching. It is timed for a
typical right answer to implement-sdpa (all seven checks) and for a wrong one, which also goes
through fault matching. The floor is `python -I -c "import numpy"`, started as the sandbox starts
its child (same interpreter, same environment: one BLAS thread).
Goal: grading ≤ 1.5 s. Prints medians of several runs, the three measured in alternation.
Run: .venv/bin/python bench/code_grading.py
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

from _smoke import sized

from quiz.code import run_checks
from quiz.code.run import plan
from quiz.code.sandbox import CHILD_ENV

REPEATS = sized(11, 1)
GOAL_SECONDS = 1.5

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


def bare_numpy() -> None:
    subprocess.run([sys.executable, "-I", "-c", "import numpy"], check=True, env=CHILD_ENV)


def timed(run) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main() -> None:
    seeds = iter(range(10**6))
    cases = {
        "python -I -c 'import numpy' (floor)": bare_numpy,
        "grade a right answer (7 checks)": lambda: run_checks("attention", RIGHT, seed=next(seeds)),
        "grade a wrong answer (+ fault matching)": lambda: run_checks("attention", WRONG, seed=next(seeds)),
        "  of which drawing the inputs": lambda: plan("attention", seed=next(seeds)),
    }
    assert run_checks("attention", WRONG, seed=0).misconception == "missing_scale"
    for run in sized(list(cases.values()), []):  # warm the file cache and bytecode
        run()
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(REPEATS):  # alternate, so all see the same machine load
        for name, run in cases.items():
            samples[name].append(timed(run))
    floor = statistics.median(samples["python -I -c 'import numpy' (floor)"])
    print(f"implement-sdpa, median of {REPEATS} runs each (goal: grading <= {GOAL_SECONDS} s)")
    for name, times in samples.items():
        median = statistics.median(times)
        verdict = ""
        if name.startswith("grade"):
            verdict = f"  {median / floor:4.1f}x the floor  {'ok' if median <= GOAL_SECONDS else 'over'}"
        print(f"  {name:<42}{median * 1000:7.0f} ms{verdict}")


if __name__ == "__main__":
    main()
