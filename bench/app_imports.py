"""Where the app's start-up goes before its first frame: the import cost of each layer, in the
order the app loads them (each row only what the rows above did not already load).

Shows how much of the gap between `quiz practice` and a bare Textual app is Textual itself,
numpy, the question screen's widgets, and our own modules. Median of 7 fresh processes.
Run: .venv/bin/python bench/app_imports.py
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys

from _smoke import sized

PROCESSES = sized(7, 1)

LAYERS = [
    ("Textual's app (a bare app imports this too)", ["textual.app", "textual.widgets._static"]),
    (
        "Textual's Markdown, Input, Header, Footer",
        ["textual.widgets._markdown", "textual.widgets._input", "textual.widgets._header", "textual.widgets._footer"],
    ),
    ("numpy", ["numpy"]),
    ("PyYAML", ["yaml"]),
    ("engine", ["engine"]),
    ("question format, expressions, bank", ["quiz.format.model", "quiz.expressions", "quiz.format.checks", "quiz.bank"]),
    ("variants, grading, practice, answers, maths", ["quiz.practice.session", "quiz.answer_text", "quiz.render.mathtext"]),
    ("our app, screens and widgets", ["quiz.ui.app"]),
]

CHILD = """
import json, sys, time
times = []
for modules in json.loads(sys.argv[1]):
    start = time.perf_counter()
    for module in modules:
        __import__(module)
    times.append(time.perf_counter() - start)
print(json.dumps(times))
"""


def main() -> None:
    arg = json.dumps([modules for _, modules in LAYERS])
    command = [sys.executable, "-c", CHILD, arg]
    runs = [json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout) for _ in range(PROCESSES)]
    total = 0.0
    print(f"import cost before the first frame, median of {PROCESSES} processes:")
    for n, (name, _) in enumerate(LAYERS):
        ms = statistics.median(run[n] for run in runs) * 1000
        total += ms
        print(f"  {ms:6.1f} ms  {name}")
    print(f"  {total:6.1f} ms  in all")


if __name__ == "__main__":
    main()
