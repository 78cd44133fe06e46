"""The history commands, run in-process on a real history file in the test's data directory:
grade --record, history, stats, review (--list), export and import, with their exit codes. That
`quiz review` opens the app on the due questions is tested in a pseudo-terminal (test_app_history)."""

from __future__ import annotations

import json

import pytest

from history_records import DAY_MS, attempt
from quiz.cli.main import main
from quiz.history.records import now_ms
from quiz.history.store import History, history_path, open_history

KEY = "causal-weights-3x3#3"
RIGHT = "1 0 0; 0.7311 0.2689 0; 0.2741 0.2741 0.4519"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def history_json(capsys, *extra: str) -> list[dict]:
    code, out, err = run(capsys, "history", "--json", *extra)
    assert code == 0, err
    return json.loads(out)


def stored():
    history = open_history()
    assert isinstance(history, History), str(history)
    return history


def test_grade_record_saves_the_attempt_as_typed(capsys):
    code, out, err = run(capsys, "grade", KEY, "--answer", RIGHT + "  ", "--record", "--seconds", "42.5", "--lang", "ja")
    assert code == 0 and out.startswith("正解") and err == ""
    [saved] = history_json(capsys)
    assert saved["key"] == KEY and saved["question"] == "causal-weights-3x3" and saved["response"] == RIGHT + "  "
    assert (saved["verdict"], saved["score"], saved["mode"], saved["lang"], saved["seconds"]) == ("correct", 1.0, "practice", "ja", 42.5)
    assert saved["at"].endswith("Z") and saved["hints"] == 0 and saved["revealed"] is False and len(saved["id"]) == 36


def test_grade_record_json_names_the_attempt_and_caps_the_time(capsys):
    answer = "1 0 0; 0.5 0.5 0; 0.3 0.3 0.4"
    code, out, _ = run(capsys, "grade", KEY, "--answer", answer, "--record", "--mode", "review", "--seconds", "100000", "--json")
    graded = json.loads(out)
    [saved] = history_json(capsys)
    assert code == 0 and graded["attempt_id"] == saved["id"] and graded["not_saved"] is None
    assert saved["mode"] == "review" and saved["verdict"] == "incorrect"
    budget = json.loads(run(capsys, "show", KEY, "--json")[1])["time"]
    assert saved["seconds"] == 3 * budget < 100_000  # three times the question's time budget


def test_an_answer_that_cannot_be_read_is_not_recorded(capsys):
    code, _, _ = run(capsys, "grade", KEY, "--answer", "1 0 0; 0.5", "--record")
    assert code == 3
    assert history_json(capsys) == []


@pytest.mark.parametrize("extra", [["--mode", "mock"], ["--seconds", "3"]])
def test_mode_and_seconds_need_record(capsys, extra):
    code, _, err = run(capsys, "grade", KEY, "--answer", RIGHT, *extra)
    assert code == 2 and "--record" in err


def test_a_damaged_history_never_stops_grading(capsys):
    path = history_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x00garbage" * 100)
    code, out, err = run(capsys, "grade", KEY, "--answer", RIGHT, "--record", "--lang", "ja")
    assert code == 4
    assert out.startswith("正解") and "正解：" in out  # the grade and the answer are printed all the same
    assert "保存されませんでした" in err and str(path) in err
    code, out, _ = run(capsys, "grade", KEY, "--answer", RIGHT, "--record", "--json")
    assert code == 4 and json.loads(out)["score"] == 1.0 and "not a quiz history file" in json.loads(out)["not_saved"]
    assert path.read_bytes() == b"\x00garbage" * 100


@pytest.mark.parametrize("command", [["history"], ["stats"], ["review", "--list"], ["export"], ["optimize"]])
def test_every_history_command_says_why_the_file_cannot_be_used(capsys, command):
    path = history_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"not sqlite")
    code, _, err = run(capsys, *command)
    assert code == 4 and "not a quiz history file" in err and err.startswith("quiz: ")
    assert path.read_bytes() == b"not sqlite"


def test_history_lists_newest_first_and_filters(capsys):
    for answer in ("1 0 0; 0.5 0.5 0; 0.3 0.3 0.4", RIGHT):
        run(capsys, "grade", KEY, "--answer", answer, "--record")
    run(capsys, "grade", "attention-pipeline-order", "--answer", "1 2 3 4 5 6 7 8", "--record")
    listed = history_json(capsys)
    assert [a["question"] for a in listed] == ["attention-pipeline-order", "causal-weights-3x3", "causal-weights-3x3"]
    assert [a["verdict"] for a in listed[1:]] == ["correct", "incorrect"]
    assert len(history_json(capsys, "--limit", "1")) == 1
    assert [a["verdict"] for a in history_json(capsys, "--question", "causal-weights-3x3")] == ["correct", "incorrect"]
    code, out, _ = run(capsys, "history", "--lang", "ja")
    assert code == 0 and out.splitlines()[0].split()[:3] == ["日時", "問題", "モード"] and len(out.splitlines()) == 4


def test_history_of_an_unknown_question_is_an_error_and_of_an_unanswered_one_is_empty(capsys):
    code, _, err = run(capsys, "history", "--question", "causal-weights-3x4")
    assert code == 1 and "causal-weights-3x3" in err
    code, out, _ = run(capsys, "history", "--question", "causal-weights-3x3")
    assert code == 0 and out.strip() == "No attempts yet."


def test_stats_json_holds_topics_claims_misconceptions_due_and_streak(capsys):
    run(capsys, "grade", KEY, "--answer", RIGHT, "--record")
    run(capsys, "grade", "attention-pipeline-order", "--answer", "1 2 3 4 5 6 7 8", "--record", "--hints", "1")
    code, out, _ = run(capsys, "stats", "--json")
    result = json.loads(out)
    assert code == 0
    assert result["topics"]["implementation"]["attempts"] == 2
    graded = [a["score"] for a in history_json(capsys)]
    assert result["topics"]["implementation"]["mean_score"] == pytest.approx(sum(graded) / 2)
    assert result["claims"]["E2"]["attempts"] == 2  # both questions cite E2
    assert result["streak_days"] == 1 and result["today"]["attempts"] == 2
    assert isinstance(result["misconceptions"], dict) and isinstance(result["due_now"], int)
    code, out, _ = run(capsys, "stats")
    assert code == 0 and out.startswith("Today: 2 answered")


def test_review_list_shows_the_due_cards(capsys):
    with stored() as history:
        history.record(attempt("causal-weights-3x3", at_ms=now_ms() - 2 * DAY_MS, score=0.0, verdict="incorrect"))
        history.record(attempt("attention-pipeline-order", at_ms=now_ms() - 1000))
    code, out, _ = run(capsys, "review", "--list", "--json")
    [due] = json.loads(out)
    assert code == 0 and due["question"] == "causal-weights-3x3" and due["due"].endswith("Z")
    assert due["stability"] > 0 and 1 <= due["difficulty"] <= 10 and 0 < due["retrievability"] < 1
    code, out, _ = run(capsys, "review", "--list", "--lang", "ja")
    assert code == 0 and "causal-weights-3x3" in out and out.startswith("問題")


def test_review_without_list_says_when_nothing_is_due_and_json_needs_list(capsys):
    with stored() as history:  # answered right a minute ago: not due for days
        history.record(attempt("attention-pipeline-order", at_ms=now_ms() - 60_000))
    code, out, _ = run(capsys, "review", "--lang", "ja")
    assert code == 0 and out.strip() == "復習の期限が来ている問題はありません。"
    code, _, err = run(capsys, "review", "--json")
    assert code == 2 and "--list" in err


def test_export_to_a_new_file_then_import_elsewhere_twice(capsys, tmp_path, monkeypatch):
    run(capsys, "grade", KEY, "--answer", RIGHT, "--record", "--lang", "ja")
    run(capsys, "grade", "attention-pipeline-order", "--answer", "2 1 3 4 5 6 7 8", "--record")
    target = tmp_path / "mine.csv"
    code, _, err = run(capsys, "export", "-o", str(target))
    assert code == 0 and "Attempts exported to " in err and ": 2." in err and target.read_bytes().startswith(b"\xef\xbb\xbf")
    code, _, err = run(capsys, "export", "-o", str(target), "--format", "jsonl")
    assert code == 1 and "already exists" in err and target.read_bytes().startswith(b"\xef\xbb\xbf")
    code, out, _ = run(capsys, "export")
    assert code == 0 and [json.loads(line)["format"] for line in out.splitlines()] == [1, 1]
    monkeypatch.setenv("QUIZ_DATA_DIR", str(tmp_path / "elsewhere"))
    code, out, _ = run(capsys, "import", str(target))
    assert code == 0 and out.startswith("Attempts imported: 2; already in your history: 0.")
    code, out, _ = run(capsys, "import", str(target), "--json")
    assert code == 0 and json.loads(out) == {"added": 0, "already_present": 2}
    assert [a["question"] for a in history_json(capsys)] == ["attention-pipeline-order", "causal-weights-3x3"]


def test_import_names_the_bad_line_and_adds_nothing(capsys, tmp_path):
    run(capsys, "grade", KEY, "--answer", RIGHT, "--record")
    code, out, _ = run(capsys, "export")
    good = out.splitlines()[0]
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({**json.loads(good), "id": "6f1c4a8e-1d2b-4c3d-9e8f-0a1b2c3d4e5f"}) + "\n{oops\n", encoding="utf-8")
    code, _, err = run(capsys, "import", str(other), "--lang", "ja")
    assert code == 1 and f"{other}:2:" in err and "何も取り込んでいません" in err
    assert len(history_json(capsys)) == 1
    code, _, err = run(capsys, "import", str(tmp_path / "missing.jsonl"))
    assert code == 1 and "There is no file" in err


HOSTILE_TEXT = "\x1b]52;c;cGF3bmVk\x07\x1b[2J\x9b31mcleared"


def test_control_characters_in_an_imported_attempt_never_reach_the_terminal(capsys, tmp_path):
    """An export from someone else may carry ESC, OSC and C1 sequences in its texts: they are stored
    as written, and every command that prints them strips them on the way out."""
    run(capsys, "grade", KEY, "--answer", RIGHT, "--record")
    _, out, _ = run(capsys, "export")
    record = json.loads(out.splitlines()[0])
    record |= {"id": "6f1c4a8e-1d2b-4c3d-9e8f-0a1b2c3d4e5f", "question": "\x1b]0;title\x07" + record["question"], "response": HOSTILE_TEXT}
    hostile = tmp_path / "hostile.jsonl"
    hostile.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    code, _, err = run(capsys, "import", str(hostile))
    assert code == 0, err
    assert any(a.response == HOSTILE_TEXT for a in stored().attempts())  # kept as written
    for argv in (("history",), ("history", "--json"), ("stats",), ("review", "--list")):
        code, out, err = run(capsys, *argv)
        assert code == 0, (argv, err)
        assert not any(ch in out + err for ch in "\x1b\x07\x9b"), argv
    assert "cleared" in run(capsys, "history", "--json")[1]


def test_stats_without_bank_still_place_a_packs_attempts_under_the_topic_and_claims_they_were_recorded_with(capsys, tmp_path):
    """Issue 32: an attempt at a pack's question vanished from the topic and claim tables once the
    pack was not loaded; the history now records the question's topic and claims with it."""
    pack = tmp_path / "pack.yaml"
    pack.write_text(
        """\
id: pack-only-weights
type: number
topic: implementation
refs: [C2, B4]
prompt: {en: "p_1 for scores [2, 0]?", ja: "スコア [2, 0] の p_1 は？"}
explanation: {en: "It is {{ answer }}.", ja: "{{ answer }} です。"}
answer: softmax([2, 0])[0]
""",
        encoding="utf-8",
    )
    code, _, err = run(capsys, "grade", "pack-only-weights", "--answer", "0.8808", "--record", "--bank", str(pack))
    assert code == 0, err
    with_pack = json.loads(run(capsys, "stats", "--json", "--bank", str(pack))[1])
    without = json.loads(run(capsys, "stats", "--json")[1])
    assert without["topics"] == with_pack["topics"] and without["claims"] == with_pack["claims"]
    assert without["topics"]["implementation"]["attempts"] == 1 and without["topics"]["implementation"]["mean_score"] == 1.0
    assert set(without["claims"]) == {"C2", "B4"}
    [saved] = [a for a in stored().attempts() if a.question == "pack-only-weights"]
    assert (saved.topic, saved.claims) == ("implementation", ("C2", "B4"))
