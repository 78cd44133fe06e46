"""Self-test time of the bundled bank: `quiz validate --strict --seeds 50`, in process.

Goal: under 5 s for the whole bank (issue 13). Printed beside two floors measured in the same
run: loading the bank (read, parse, convert), and checking it without self-tests (`--seeds 0`:
every expression compiled). What lies above the second floor is the self-tests: 50 variants of
every parametric question, each text rendered in both languages, every key and misconception
graded. `quiz validate` tests files in one worker process per core; the run in one process is
printed too, and so is `quiz validate --strict` at its default seeds. The CPU time of a run
includes its workers'.
Run: .venv/bin/python bench/bank_selftest.py [--runs N]   (median of N runs, default 3)
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy loads: measure one core

import argparse
import resource
import statistics
import time
from collections.abc import Callable

from _smoke import SMOKE, sized

from quiz.authoring.selftest import DEFAULT_SEEDS
from quiz.authoring.validation import usable_cores, validate_packs
from quiz.bank import load_bank
from quiz.base import locations

GOAL_SECONDS = 5.0
SEEDS = sized(50, 0)  # smoke: the checks without self-tests


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the self-test's workers)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def median_seconds(runs: int, work: Callable[[], object]) -> tuple[float, float]:
    """Median wall time and median CPU time of `runs` runs of `work`.

    On a shared machine the wall time includes waiting for a core; the CPU time does not, so
    both are printed.
    """
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), cpu_seconds()
        work()
        wall.append(time.perf_counter() - start)
        cpu.append(cpu_seconds() - start_cpu)
    return statistics.median(wall), statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=sized(3, 1), help="runs of each measurement (median shown)")
    runs = parser.parse_args().runs
    bank_dir = [locations.bundled_bank_dir()]

    def self_test(workers: int | None, seeds: int = SEEDS) -> Callable[[], None]:
        def run() -> None:
            result = validate_packs(bank_dir, seeds=seeds, workers=workers)
            assert not result.failed(strict=True), result.summary()

        return run

    if not SMOKE:
        validate_packs(bank_dir, seeds=1)  # warm imports and caches, as a second `quiz validate` would have them
    load = median_seconds(runs, lambda: load_bank(bank_dir))
    check = median_seconds(runs, lambda: validate_packs(bank_dir, seeds=0))
    single = median_seconds(runs, self_test(1))
    full = median_seconds(runs, self_test(None))
    default_seeds = sized(DEFAULT_SEEDS, 0)
    default = median_seconds(runs, self_test(None, default_seeds))
    questions = len(load_bank(bank_dir))
    print(f"bundled bank: {questions} questions; median of {runs} runs; one BLAS thread; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {usable_cores()} workers")
    print("                                          wall      CPU")
    print(f"  load_bank (floor)                     {load[0]:6.2f} s  {load[1]:6.2f} s")
    print(f"  validate --seeds 0 (floor)            {check[0]:6.2f} s  {check[1]:6.2f} s")
    print(f"  --strict --seeds {SEEDS}, one process      {single[0]:6.2f} s  {single[1]:6.2f} s   "
          f"self-tests alone {single[1] - check[1]:.2f} s CPU, {single[1] / check[1]:.1f}x the --seeds 0 floor")
    print(f"  validate --strict --seeds {SEEDS}          {full[0]:6.2f} s  {full[1]:6.2f} s   goal < {GOAL_SECONDS:.0f} s: "
          f"{'met' if full[0] < GOAL_SECONDS else 'NOT met'} on wall time, {'met' if full[1] < GOAL_SECONDS else 'not met'} on CPU time")
    print(f"  validate --strict (default, {default_seeds} seeds)  {default[0]:6.2f} s  {default[1]:6.2f} s   "
          f"what `quiz validate --strict` runs; the goal above is for {SEEDS} seeds")

if __name__ == "__main__":
    main()
