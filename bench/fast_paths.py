"""Each fast path the code keeps, timed beside the plain path it stands in for, in one run.

The rule (bench/README.md, "Fast paths and their figures"): a fast path stays only with a figure
here or in another bench script and an equivalence test. Printed here:
1. The engine's weights: `attention_weights_fast` (one buffer, no-op steps skipped) beside
   `attention_weights` (the traced reference, one array per step), at the sizes of
   bench/engine_attention.py and at the self-test's tiny ones.
2. `score_variance` remembered by its arguments beside the same call unremembered, through the
   expression evaluator, and what remembering saves of a self-test of the bundled bank.
3. The evaluator's shortcuts for common values (`check_broadcast`, `shape_of`) beside the plain
   rule each stands in for, a call at a time.
4. The code self-test (`grade_engine` of every task): with the work a call's reference and
   mistakes share done once (`quiz.code.shared`) beside every mistake computing alone, and with
   the gaps between outputs measured as one table (`compare.excess_table`) beside pair by pair.
Medians of several batches, the fast and the plain path timed in alternation (CPU time for the
self-test, one BLAS thread).
Run: .venv/bin/python bench/fast_paths.py
"""

from __future__ import annotations

import contextlib
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy loads: measure one core

import math
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
from _smoke import sized
from engine_attention import paired_medians

from engine.attention import attention_weights, attention_weights_fast, prepare_call
from quiz.authoring.validation import validate_packs
from quiz.base import locations
from quiz.code import drawing
from quiz.code.run import grade_engine
from quiz.code.tasks import TASKS
from quiz.expressions import compile_expression
from quiz.expressions.callables import Function
from quiz.expressions.functions import FUNCTIONS
from quiz.expressions.limits import check_elements
from quiz.expressions.shapes import check_broadcast, numeric, shape_of

LARGE = sized((16, 256, 256, 64), (2, 16, 16, 8))  # heads, L, S, E: bench/engine_attention.py's
REPEATS = sized(21, 1)
SEEDS = sized(20, 1)
SCORE_VARIANCE = "score_variance(d_k, 4000, 7, 1 / sqrt(d_k))"  # as questions/scaling.yaml calls it


def row(name: str, fast_s: float, plain_s: float, unit: str = "µs") -> None:
    """One line: the fast path, the plain one, and how much of the plain one the fast path saves."""
    scale = 1e6 if unit == "µs" else 1e3
    saved = 1 - fast_s / plain_s
    print(f"  {name:<46}{fast_s * scale:>10.1f}{plain_s * scale:>10.1f} {unit}  saves {saved:6.1%}")


def weights_cases() -> list[tuple[str, Callable[[], object], Callable[[], object], int]]:
    """(name, fast, plain, calls per timed batch) for the weights on seeded inputs."""
    rng = np.random.default_rng(0)
    cases = []
    heads, L, S, E = LARGE
    for dtype in (np.float32, np.float64):
        q, k, v = (rng.standard_normal((heads, n, E)).astype(dtype) for n in (L, S, S))
        call = prepare_call(q, k, v, None, 0.0, True, None, False, "zero", None)
        name = f"{heads}x{L}x{S}x{E} {np.dtype(dtype).name} causal"
        cases.append((name, lambda c=call: attention_weights_fast(c), lambda c=call: attention_weights(c)[-1], 1))
    q, k, v = rng.standard_normal((3, 4)), rng.standard_normal((5, 4)), rng.standard_normal((5, 2))
    small = prepare_call(q, k, v, None, 0.0, False, None, False, "zero", None)
    cases.append(("3x4 by 5x4 float64", lambda: attention_weights_fast(small), lambda: attention_weights(small)[-1], sized(200, 2)))
    return cases


def self_test_cpu(runs: int) -> float:
    """Median CPU seconds of `quiz validate --strict --seeds SEEDS` of the bundled bank, in this process."""
    bank = [locations.bundled_bank_dir()]
    times = []
    for _ in range(runs):
        start = time.process_time()
        validate_packs(bank, seeds=SEEDS, workers=1)
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    """Print the weights' rows, then score_variance's call and self-test rows."""
    print(f"median of {REPEATS} batches; fast and plain timed in alternation; one BLAS thread")
    print(f"  {'attention weights':<46}{'fast':>10}{'plain':>10}")
    for name, fast, plain, batch in weights_cases():
        row(name, *paired_medians(fast, plain, REPEATS, batch))

    function = FUNCTIONS["score_variance"]
    namespace = {"d_k": 64}
    expression = compile_expression(SCORE_VARIANCE, namespace)
    print(f"  {'score_variance remembered':<46}{'fast':>10}{'plain':>10}")
    fast_s = paired_medians(lambda: expression.evaluate(namespace), lambda: None, REPEATS)[0]
    with unremembered(function):
        plain_s = paired_medians(lambda: expression.evaluate(namespace), lambda: None, REPEATS)[0]
    row(SCORE_VARIANCE, fast_s, plain_s)
    runs = sized(3, 1)
    validate_packs([locations.bundled_bank_dir()], seeds=1, workers=1)  # warm imports and caches
    remembered_cpu = self_test_cpu(runs)
    with unremembered(function):
        plain_cpu = self_test_cpu(runs)
    row(f"validate --strict --seeds {SEEDS}, CPU", remembered_cpu, plain_cpu, unit="ms")

    print(f"  {'expression shortcuts, a call':<46}{'fast':>10}{'plain':>10}")
    for name, fast, plain in shortcut_cases():
        row(name, *paired_medians(fast, plain, REPEATS, sized(2000, 2)))

    print(f"  {'code self-test, every task, CPU':<46}{'fast':>10}{'plain':>10}")
    code_seeds = range(sized(10, 1))
    for task_id in TASKS:
        grade_engine(task_id, seed=len(code_seeds))  # warm what is imported lazily
    fast_cpu = code_selftest_cpu(code_seeds)
    with setting(drawing, "one_call", contextlib.nullcontext):
        alone_cpu = code_selftest_cpu(code_seeds)
    row(f"work shared within a call ({len(code_seeds)} seeds)", fast_cpu, alone_cpu, unit="ms")
    with setting(drawing, "TOGETHER", math.inf):
        pairwise_cpu = code_selftest_cpu(code_seeds)
    row(f"gaps measured as one table ({len(code_seeds)} seeds)", fast_cpu, pairwise_cpu, unit="ms")


def plain_broadcast(*values: object) -> None:
    """The rule `check_broadcast` stands in for, written plainly."""
    check_elements(math.prod(np.broadcast_shapes(*(numeric(value).shape for value in values))))


def shortcut_cases() -> list[tuple[str, Callable[[], object], Callable[[], object]]]:
    """(name, fast, plain) for the values the evaluator meets most: numbers, and arrays beside them."""
    array = np.ones((4, 4))
    return [
        ("check_broadcast(number, number)", lambda: check_broadcast(1.5, 2.0), lambda: plain_broadcast(1.5, 2.0)),
        ("check_broadcast(array, number)", lambda: check_broadcast(array, 2.0), lambda: plain_broadcast(array, 2.0)),
        ("check_broadcast(array, same-shape array)", lambda: check_broadcast(array, array), lambda: plain_broadcast(array, array)),
        ("shape_of(number)", lambda: shape_of(1.5), lambda: numeric(1.5).shape),
    ]


def code_selftest_cpu(seeds: range) -> float:
    """Best of a few rounds: CPU seconds of `grade_engine` for every task and seed."""
    times = []
    for _ in range(sized(3, 1)):
        start = time.process_time()
        for task_id in TASKS:
            for seed in seeds:
                grade_engine(task_id, seed=seed)
        times.append(time.process_time() - start)
    return min(times)


@contextmanager
def setting(module: object, name: str, value: object) -> Iterator[None]:
    """`module.name` set to `value` while the block lasts."""
    before = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, before)


@contextmanager
def unremembered(function: Function) -> Iterator[None]:
    """`function` called afresh every time while the block lasts, even by expressions compiled before.

    Compiled calls read the function's memo when they run, so clearing it in place (a frozen
    record: set as its own __post_init__ sets it) reaches every expression the bank compiled.
    """
    memo = function._remembered
    object.__setattr__(function, "_remembered", None)
    try:
        yield
    finally:
        object.__setattr__(function, "_remembered", memo)

if __name__ == "__main__":
    main()
