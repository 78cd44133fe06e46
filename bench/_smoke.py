"""Smoke mode of the benchmarks, shared by every script in bench/ (not a benchmark itself: `make
bench` skips bench/_*.py).

With QUIZ_BENCH_SMOKE=1 in the environment each script runs on tiny inputs with one repeat, so
that it goes through every step to its last figure in a few seconds; those figures then measure
nothing. tests/cli/test_bench_smoke.py runs every script so, to keep them all running to their end.
"""

from __future__ import annotations

import os
from typing import TypeVar

T = TypeVar("T")

SMOKE = os.environ.get("QUIZ_BENCH_SMOKE", "") not in ("", "0")


def sized(full: T, smoke: T) -> T:
    """`full` for a real run, `smoke` in smoke mode."""
    return smoke if SMOKE else full
