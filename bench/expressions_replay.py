"""CPU time of the expression evaluations the bank's self-test makes, replayed without the rest.

The self-test (`quiz validate --strict --seeds N` of the bundled bank) is run once with every
evaluation recorded: the expression and a copy of its namespace. The recording is then replayed
(on a budget that cannot run out), so the figure is the evaluator and the functions it calls
alone. Printed beside its floor measured in the same run: the same sources run by Python's
`eval` calling the same functions unchecked, which no checking evaluator can beat.
Run: .venv/bin/python bench/expressions_replay.py [--runs N] [--seeds N]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy loads: measure one core

import argparse
import math
import statistics
import time
from collections.abc import Callable, Mapping

import numpy as np
from _smoke import sized

from quiz.authoring.validation import validate_packs
from quiz.base import locations
from quiz.expressions import Expression, ExpressionError
from quiz.expressions.budget import Budget
from quiz.expressions.functions import CONSTANTS, FUNCTIONS

Recording = list[tuple[Expression, dict[str, object]]]


def record(seeds: int) -> Recording:
    """Every evaluation one self-test of the bundled bank makes, in order."""
    recording: Recording = []
    methods = {name: getattr(Expression, name) for name in ("evaluate", "evaluate_within") if hasattr(Expression, name)}

    def recorded(method: Callable[..., object]) -> Callable[..., object]:
        def wrapper(self: Expression, namespace: Mapping[str, object], *args: object, **kwargs: object) -> object:
            recording.append((self, dict(namespace)))
            return method(self, namespace, *args, **kwargs)

        return wrapper

    for name, method in methods.items():
        setattr(Expression, name, recorded(method))
    try:
        validate_packs([locations.bundled_bank_dir()], seeds=seeds, workers=1)  # in this process, recorded
    finally:
        for name, method in methods.items():
            setattr(Expression, name, method)
    return recording


def replay(recording: Recording) -> int:
    """Evaluate every recorded expression again, on one budget that cannot run out (the
    self-test's variants each have theirs, running while they draw); the failures."""
    budget = Budget(elements=2**62, seconds=math.inf)
    failures = 0
    with budget.running():
        for expression, namespace in recording:
            budget.new_draw()
            try:
                expression.evaluate(namespace, budget)
            except ExpressionError:
                failures += 1
    return failures


def unchecked(recording: Recording) -> Callable[[], int]:
    """The floor: the same sources run by Python's own `eval`, calling the same functions with
    no checks, metering or budget; the failures."""
    builtins = {"__builtins__": {}, **CONSTANTS, **{name: f.implementation for name, f in FUNCTIONS.items()}}
    code = {expression.source: compile(expression.source.strip(), "<expression>", "eval") for expression, _ in recording}
    runs = [(code[expression.source], {**builtins, **namespace}) for expression, namespace in recording]

    def run() -> int:
        failures = 0
        for compiled, namespace in runs:
            try:
                with np.errstate(all="ignore"):
                    eval(compiled, namespace)
            except Exception:  # the evaluator's failures, and any it would have refused
                failures += 1
        return failures

    return run


def median_cpu(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=sized(3, 1), help="replays (median shown)")
    parser.add_argument("--seeds", type=int, default=sized(10, 1), help="seeds of the recorded self-test")
    arguments = parser.parse_args()
    recording = record(arguments.seeds)
    failures = replay(recording)  # warm caches, as the self-test had them
    cpu = median_cpu(arguments.runs, lambda: replay(recording))
    least = median_cpu(arguments.runs, unchecked(recording))
    print(f"{len(recording):,} evaluations of a self-test with --seeds {arguments.seeds} ({failures:,} fail, as recorded); "
          f"median of {arguments.runs} replays; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"  replayed (CPU)             {cpu:6.2f} s   {cpu / len(recording) * 1e6:5.1f} µs an evaluation")
    print(f"  floor: Python's eval       {least:6.2f} s   {least / len(recording) * 1e6:5.1f} µs an evaluation (no checks, same functions)")


if __name__ == "__main__":
    main()
