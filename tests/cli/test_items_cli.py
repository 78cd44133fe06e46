"""`quiz items` on two learners' histories: real SQLite files, exported as JSON Lines and CSV by the
real export, read back by the command; every figure checked against a hand computation."""

from __future__ import annotations

import json
from math import sqrt

import pytest

from history_records import DAY_MS, START_MS, attempt, open_store
from quiz.cli.main import main
from quiz.history.store import history_path
from quiz.history.transfer import export
from quiz.learning.items import ItemInfo, item_statistics, pearson

Q = "fold-scale-into-wq"  # 240 s suggested; names factor_lost and scaled_twice
SHAPES = "cross-attention-shapes"  # 90 s
CAP = "logit-soft-capping"  # 210 s


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def at(day: int, minute: int) -> int:
    return START_MS + day * DAY_MS + minute * 60_000  # the same UTC day for every minute used


def graded(question: str, day: int, minute: int, score: float, seconds: int, **changes: object):
    verdict = "correct" if score == 1 else "partial" if score > 0 else "incorrect"
    return attempt(question, at(day, minute), **{"score": score, "verdict": verdict, "duration_ms": seconds * 1000, **changes})


LEARNER_1 = [
    graded(Q, 0, 0, 1.0, 200),
    graded(SHAPES, 0, 5, 1.0, 60),
    graded(CAP, 0, 10, 0.5, 100),
    graded(Q, 1, 0, 0.0, 300, misconception="factor_lost"),
    graded(SHAPES, 1, 5, 0.0, 60),
    graded(CAP, 1, 10, 0.5, 100),
]
LEARNER_2 = [
    graded(Q, 0, 0, 0.5, 250, hints=1),
    graded(SHAPES, 0, 5, 1.0, 80),
    graded(Q, 1, 0, 0.0, 260, revealed=True, verdict="revealed"),
    graded(SHAPES, 1, 5, 0.0, 80),
    graded(Q, 2, 0, 1.0, 100),  # alone in its sitting: left out of the discrimination
]


@pytest.fixture
def exports(tmp_path):
    """The two learners' histories recorded into SQLite files and exported, one as JSON Lines, one as CSV."""
    paths = []
    for n, (records, fmt) in enumerate(((LEARNER_1, "jsonl"), (LEARNER_2, "csv"))):
        with open_store(tmp_path / f"h{n}.sqlite3") as history:
            for record in records:
                history.record(record)
            path = tmp_path / f"learner-{n}.{fmt}"
            with path.open("w", encoding="utf-8", newline="") as out:
                export(history, out, fmt)
        paths.append(path)
    return paths


def test_the_figures_of_one_question_match_a_hand_computation(capsys, exports):
    code, out, err = run(capsys, "items", "--history", str(exports[0]), "--history", str(exports[1]), "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["learners"] == [{"label": "learner 1", "attempts": 6}, {"label": "learner 2", "attempts": 5}]
    items = {item["question"]: item for item in result["items"]}
    assert list(items) == sorted([Q, SHAPES, CAP])
    q = items[Q]
    assert (q["attempts"], q["learners"]) == (5, 2)
    assert q["facility"] == pytest.approx((1 + 0 + 0.5 + 0 + 1) / 5)
    assert q["misconceptions"] == {"factor_lost": pytest.approx(1 / 5), "scaled_twice": 0}
    assert q["hinted"] == pytest.approx(1 / 5) and q["gave_up"] == pytest.approx(1 / 5)
    assert q["median_seconds"] == 250 and q["suggested_seconds"] == 240
    assert q["over_time"] == pytest.approx(3 / 5)  # 300, 250, 260 of 200, 300, 250, 260, 100
    # the sittings holding Q with others: (item, mean of the rest)
    #   learner 1 day 0: (1, 0.75)  day 1: (0, 0.25); learner 2 day 0: (0.5, 1)  day 1: (0, 0)
    # means 0.375 and 0.5; Σdx·dy = 0.5, Σdx² = 0.6875, Σdy² = 0.625
    assert q["discrimination"] == pytest.approx(0.5 / sqrt(0.6875 * 0.625))
    assert q["flags"] == ["unused_misconception", "over_time"]
    # CAP: two sittings only, both 0.5: no discrimination; too few attempts to flag
    cap = items[CAP]
    assert cap["discrimination"] is None and cap["facility"] == 0.5 and cap["flags"] == [] and cap["median_seconds"] == 100


def test_the_table_names_the_flags_in_both_languages(capsys, exports):
    code, out, _ = run(capsys, "items", "--history", str(exports[0]), "--history", str(exports[1]))
    assert code == 0
    assert out.splitlines()[0] == "Item analysis: 3 questions attempted by 2 learners, 11 attempts."
    [row] = [line for line in out.splitlines() if line.startswith(Q)]
    assert "0.50" in row and "+0.76" in row and "250 / 240 s" in row
    assert "a misconception nobody makes" in row and "most take longer than suggested" in row
    assert f"{Q}: factor_lost 20%, scaled_twice 0%" in out
    code, out, _ = run(capsys, "items", "--history", str(exports[0]), "--lang", "ja")
    assert code == 0 and "問題分析：1 人が 3 問に解答" in out and "識別力" in out


def test_without_histories_it_reads_your_own(capsys):
    with open_store(history_path()) as history:
        for record in LEARNER_1:
            history.record(record)
    code, out, _ = run(capsys, "items", "--json")
    result = json.loads(out)
    assert code == 0 and result["learners"] == [{"label": "learner 1", "attempts": 6}]
    assert {i["question"]: i["attempts"] for i in result["items"]} == {Q: 2, SHAPES: 2, CAP: 2}


def test_an_export_it_cannot_read_is_named_with_its_line(capsys, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": 1}\nnot json\n', encoding="utf-8")
    code, out, err = run(capsys, "items", "--history", str(bad))
    assert code == 1 and out == "" and f"{bad}: line 1:" in err and "Traceback" not in err
    code, _, err = run(capsys, "items", "--history", str(tmp_path / "missing.jsonl"))
    assert code == 1 and "There is no file" in err


def test_a_question_the_stronger_do_worse_on_is_flagged():
    """Five one-day sittings: the item is passed exactly where the rest is failed."""
    records = []
    for day in range(5):
        passed = day % 2 == 0
        records += [graded(Q, day, 0, 1.0 if passed else 0.0, 100), graded(SHAPES, day, 5, 0.0 if passed else 1.0, 60)]
    [q, _] = item_statistics({"learner 1": records}, {Q: ItemInfo(240)})
    assert q.discrimination == pytest.approx(-1.0) and "negative_discrimination" in q.flags


def test_pearson_on_a_textbook_pair():
    # x = 1..5, y = 2, 4, 5, 4, 5: Σdx·dy = 6, Σdx² = 10, Σdy² = 6 (mean 4)
    assert pearson([1, 2, 3, 4, 5], [2, 4, 5, 4, 5]) == pytest.approx(6 / sqrt(10 * 6))
    assert pearson([1, 1, 1], [1, 2, 3]) is None
