"""Variant and grading throughput, and the time to self-test the bundled bank.

1. Variants generated and graded per second for a question on 4x4 matrices (goal >= 2,000/s on
   one core): each iteration draws Q, K, V, computes the causal attention weights through the
   engine, and grades the key as a learner's answer.
2. The time `quiz validate --seeds 20` spends self-testing the bundled bank.
Run: .venv/bin/python bench/variants_grading.py (it pins BLAS to one thread: the goal is per core)
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy loads: measure one core

import tempfile
import time
from pathlib import Path

from _smoke import sized

from quiz.authoring.selftest import self_test
from quiz.bank import load_bank
from quiz.format.checks import check_question
from quiz.format.diagnostics import Report
from quiz.types.draw import make_variant
from quiz.types.grade import grade

MATRIX_QUESTION = """\
id: bench-causal-4x4
type: matrix
topic: implementation
prompt: "Causal attention weights for Q = {{ Q }}, K = {{ K }}?"
params:
  Q: {normal: [4, 4], decimals: 1}
  K: {normal: [4, 4], decimals: 1}
  V: {normal: [4, 4], decimals: 1}
answer: attention(Q, K, V, is_causal=True).weights
misconceptions:
  - name: mask_ignored
    answer: attention(Q, K, V).weights
    feedback: The future leaked.
"""
SECONDS = sized(3.0, 0.1)
SEEDS = sized(20, 1)


def compiled_matrix_question():
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.yaml"
        path.write_text(MATRIX_QUESTION, encoding="utf-8")
        bank = load_bank([path])
    compiled = check_question(bank.questions["bench-causal-4x4"], bank.claims, Report())
    assert compiled is not None
    return compiled


def throughput() -> tuple[int, float]:
    compiled = compiled_matrix_question()
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < SECONDS:
        variant = make_variant(compiled, count)
        assert grade(variant, variant.answer).score == 1.0
        count += 1
    return count, time.perf_counter() - start


def self_test_bank(seeds: int = SEEDS) -> tuple[int, float]:
    start = time.perf_counter()
    bank = load_bank()
    for question in bank.questions.values():
        compiled = check_question(question, bank.claims, Report())
        assert compiled is not None and self_test(compiled, seeds) == []
    return len(bank), time.perf_counter() - start


def main() -> None:
    count, elapsed = throughput()
    print(f"4x4 causal-attention variants generated and graded: {count / elapsed:,.0f}/s (goal >= 2,000/s)")
    questions, elapsed = self_test_bank()
    print(f"self-test of the bundled bank ({questions} questions, {SEEDS} seeds): {elapsed:.2f} s")


if __name__ == "__main__":
    main()
