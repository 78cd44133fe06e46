"""Loading benchmark: a synthetic 10,000-question bank through our safe loader and model,
against a bare `yaml.load(..., Loader=CSafeLoader)` of the same files in the same run.

Goal: our load (read, parse, convert and check every field) within 2x that floor.
Run: .venv/bin/python bench/bank_load.py
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import yaml
from _smoke import sized

from quiz.bank import load_bank
from quiz.format.checks import check_question
from quiz.format.diagnostics import Report

QUESTIONS = sized(10_000, 100)
PER_FILE = sized(250, 50)  # 40 files of about 200 KB: well under the 1 MiB limit
REPEATS = sized(5, 1)

TEMPLATE = """\
- id: synthetic-{n}
  type: {kind}
  topic: softmax
  difficulty: {difficulty}
  time: 90
  refs: [C1, C4]
  tags: [synthetic, bench]
  prompt:
    en: For scores $z = [{{{{ s }}}}, 0]$, what is $p_1 = \\operatorname{{softmax}}(z)_1$?
    ja: スコア $z = [{{{{ s }}}}, 0]$ のとき $p_1$ はいくつですか。
  hints:
    - en: Divide both exponentials by the larger one.
      ja: 大きい方の指数で分子と分母を割ります。
  explanation:
    en: $p_1 = 1 / (1 + e^{{-s}})$, which is {{{{ answer }}}}.
    ja: $p_1 = 1 / (1 + e^{{-s}})$ なので {{{{ answer }}}} です。
  params:
    s: {{decimal: [-3, 3]}}
  constraints: ["abs(s) > 0.2"]
  answer: softmax([s, 0])[0]
  tolerance: {{rtol: 1e-3, atol: 5e-4}}
  misconceptions:
    - name: wrong_axis
      answer: "0.5"
      feedback:
        en: A softmax over a single column gives one.
        ja: 一列だけの softmax は 1 になります。
"""


def write_bank(folder: Path) -> list[Path]:
    files = []
    for f in range(QUESTIONS // PER_FILE):
        entries = [
            TEMPLATE.format(n=f * PER_FILE + i, kind=("number", "number", "number")[i % 3], difficulty=1 + i % 3)
            for i in range(PER_FILE)
        ]
        path = folder / f"pack-{f:03d}.yaml"
        path.write_text("".join(entries), encoding="utf-8")
        files.append(path)
    return files


def best_of(repeats: int, work) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = write_bank(folder)
        size = sum(p.stat().st_size for p in files)

        def floor() -> None:
            for path in files:
                yaml.load(path.read_bytes(), Loader=yaml.CSafeLoader)

        def ours() -> None:
            bank = load_bank([folder])
            assert len(bank) == QUESTIONS and not bank.report.errors, bank.report.errors[:3]

        def validated() -> None:
            bank = load_bank([folder])
            report = Report()
            assert all(check_question(q, bank.claims, report) for q in bank.questions.values())

        floor_s = best_of(REPEATS, floor)
        ours_s = best_of(REPEATS, ours)
        validate_s = best_of(sized(3, 1), validated)
    print(f"{QUESTIONS} questions in {len(files)} files, {size / 1e6:.1f} MB (median of {REPEATS} runs)")
    print(f"  yaml.load CSafeLoader (floor) {floor_s * 1000:8.0f} ms")
    print(f"  load_bank (ours)              {ours_s * 1000:8.0f} ms   {ours_s / floor_s:.2f}x floor (goal <= 2x)")
    print(f"  and every expression compiled {validate_s * 1000:8.0f} ms   {validate_s / floor_s:.2f}x floor (quiz validate --seeds 0)")


if __name__ == "__main__":
    main()
