"""Every benchmark script in bench/ (not its helpers, bench/_*.py) runs to its end in smoke mode
(QUIZ_BENCH_SMOKE=1: tiny inputs, one repeat) and prints its figures, so `make bench` is not
stopped by one that broke. Nothing here depends on how fast the machine is: the figures of a
smoke run measure nothing, only that they are printed."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from places import ROOT

pytestmark = pytest.mark.slow  # every bench script in a process of its own

BENCH = ROOT / "bench"
SCRIPTS = sorted(path for path in BENCH.glob("*.py") if not path.name.startswith("_"))

# A figure each script prints last or near its end: a number where the script has got to.
NUMBER = r"-?\d[\d,]*(\.\d+)?"
FIGURES = {
    "answer_parser": rf"longest emoji run\s+{NUMBER} µs",
    "app_imports": rf"{NUMBER} ms  in all",
    "app_startup": rf"{NUMBER}x the widgets floor \(goal <= 1\.25x\)[\s\S]*peak memory of that process \(max RSS\): {NUMBER} MB",
    "bank_load": rf"and every expression compiled\s+{NUMBER} ms\s+{NUMBER}x floor",
    "bank_selftest": rf"validate --strict \(default, {NUMBER} seeds\)\s+{NUMBER} s",
    "code_grading": rf"grade a wrong answer \(\+ fault matching\), unconfined\s+{NUMBER} ms",
    "code_selftest": rf"every task, one seed each\s+{NUMBER} ms",
    "engine_attention": rf"forward\s+float32\s+{NUMBER}\s+{NUMBER}\s+{NUMBER}[\s\S]*backward\s+float64\s+{NUMBER}",
    "engine_calls": rf"head_stats 2x3x4\s+{NUMBER}\s+{NUMBER}",
    "engine_modern_ops": rf"linear state\s+{NUMBER}\s+{NUMBER}\s+{NUMBER}",
    "fast_paths": rf"validate --strict --seeds {NUMBER}, CPU\s+{NUMBER}\s+{NUMBER} ms  saves\s+{NUMBER}%",
    "expressions_replay": rf"floor: Python's eval\s+{NUMBER} s",
    "fsrs_fit": rf"100 questions [\s\S]*refit: load, fit, rebuild every card\s+{NUMBER} ms",
    "history": rf"statistics screen on that store: opens in {NUMBER} ms[\s\S]*the statistics alone in that process: {NUMBER} ms",
    "hostile_packs": rf"messages listed for it\s+{NUMBER}",
    "mock_core": rf"report of a 10-question mock .* median {NUMBER} ms",
    "mock_timer": rf"submit to the next question on screen .* median {NUMBER} ms",
    "plan_items": rf"make the plan at 120 min a day\s+{NUMBER} ms[\s\S]*analyse every question\s+{NUMBER} ms",
    "serve_sessions": rf"{NUMBER} concurrent sessions: median {NUMBER} s .*slowest {NUMBER} s",
    "submit": rf"floor, append 4 KiB and fsync in the same folder: median {NUMBER} ms",
    "variants_grading": rf"self-test of the bundled bank \({NUMBER} questions, {NUMBER} seeds\): {NUMBER} s",
}


def test_every_script_has_its_figure_named_here():
    assert sorted(FIGURES) == [script.stem for script in SCRIPTS]


@pytest.mark.parametrize("script", SCRIPTS, ids=[script.stem for script in SCRIPTS])
def test_the_script_runs_to_its_end_in_smoke_mode(script):
    # The data, config and cache directories are the test's own (tests/conftest.py sets them).
    env = {**os.environ, "QUIZ_BENCH_SMOKE": "1", "OPENBLAS_NUM_THREADS": "1"}
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=300, check=False)
    assert run.returncode == 0, f"{script.name} exited {run.returncode}:\n{run.stderr[-3000:]}"
    assert re.search(FIGURES[script.stem], run.stdout), f"{script.name} did not print its figure:\n{run.stdout}"
