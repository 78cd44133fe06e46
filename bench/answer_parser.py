"""Times `parse_answer` on typical answers and on hostile input, which must be rejected quickly.

The parser runs on every keystroke for the live "read as: ..." preview, so a typical answer
should take well under a millisecond, and no input, however hostile, more than a few.
Prints the median time per call of each case, in microseconds.
Run: .venv/bin/python bench/answer_parser.py
"""

from __future__ import annotations

import statistics
import time

from _smoke import sized

from quiz.answer_text import MAX_LENGTH, parse_answer

REPEATS = sized(21, 1)

TYPICAL = {
    "decimal": ("0.881", ()),
    "expression": ("e^2/(1+e^2)", ()),
    "full-width": ("ｅ＾２／（１＋ｅ＾２）", ()),
    "vector of 8": ("[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]", (8,)),
    "4×4 matrix": ("1 2 3 4; 5 6 7 8; 9 10 11 12; 13 14 15 16", (4, 4)),
}
HOSTILE = {
    "9^9^9^9": ("9^9^9^9", ()),
    "1 MB of digits": ("1" * 1_000_000, ()),
    "10,000 nested parentheses": ("(" * 10_000 + "1" + ")" * 10_000, ()),
    "longest legal sign run": ("-" * (MAX_LENGTH - 1) + "1", ()),
    "longest legal root run": ("√" * (MAX_LENGTH - 2) + "16", ()),
    "longest vector": (" ".join(["1"] * (MAX_LENGTH // 2)), (MAX_LENGTH // 2,)),
    "longest emoji run": ("😀" * MAX_LENGTH, ()),
}


def median_us(text: str, shape: tuple[int, ...]) -> float:
    """Median wall time of one `parse_answer(text, shape)` in microseconds, after a warm-up."""
    parse_answer(text, shape)
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        parse_answer(text, shape)
        times.append(time.perf_counter() - start)
    return 1e6 * statistics.median(times)


def main() -> None:
    for title, cases in (("typical answers", TYPICAL), ("hostile input", HOSTILE)):
        print(title)
        for name, (text, shape) in cases.items():
            print(f"  {name:<28} {median_us(text, shape):>10.1f} µs")


if __name__ == "__main__":
    main()
