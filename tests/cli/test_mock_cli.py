"""`quiz mock` on the command line: the sheet, the report of a stored mock, replay by key,
--adaptive, and every bad input stopped with a message and an exit code, never a traceback."""

from __future__ import annotations

import json

import pytest

from history_records import START_MS, attempt, open_store
from mock_helpers import BANK, FakeClock, answer_rightly, plan_of, start
from quiz.cli.main import main
from quiz.history.store import history_path
from quiz.mock.adaptive import weakness
from quiz.mock.compose import bank_fingerprint, compose
from quiz.mock.options import MockOptions, mock_key

pytestmark = pytest.mark.slow  # mock interviews through the `quiz` command


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["mock", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_sheet_is_the_same_bytes_each_time_and_names_the_key(capsys):
    code, first, _ = run(capsys, "--seed", "3", "--minutes", "20", "--interviewer")
    assert code == 0
    assert run(capsys, "--seed", "3", "--minutes", "20", "--interviewer")[1] == first
    key = compose(BANK, MockOptions(minutes=20, seed=3)).key
    assert first.startswith(f"# Mock interview {key}: interviewer's sheet")
    assert run(capsys, "--key", key, "--interviewer")[1] == first  # the key replays the same interview
    assert run(capsys, "--key", key, "--interviewer", "--lang", "ja")[1].startswith(f"# 模擬面接 {key}")


def test_the_sheet_goes_to_a_new_file_and_never_overwrites_one(capsys, tmp_path):
    target = tmp_path / "sheet.md"
    assert run(capsys, "--seed", "1", "--interviewer", "-o", str(target))[0] == 0
    written = target.read_text(encoding="utf-8")
    code, _, err = run(capsys, "--seed", "2", "--interviewer", "-o", str(target))
    assert code == 1 and "already exists" in err and target.read_text(encoding="utf-8") == written


def test_decimal_minutes_and_topics_compose(capsys):
    code, out, _ = run(capsys, "--minutes", "0.25", "--questions", "1", "--topic", "Softmax", "--seed", "4", "--interviewer")
    assert code == 0 and "mock-4-0.25m-1q-softmax-" in out


@pytest.mark.parametrize(
    ("argv", "code", "says"),
    [
        (["--minutes", "0"], 2, "above 0"),
        (["--minutes", "-3"], 2, "above 0"),
        (["--minutes", "nan"], 2, "a number such as 30"),
        (["--minutes", "inf"], 2, "a number such as 30"),
        (["--minutes", "1e400"], 2, "at most 240"),
        (["--questions", "0"], 2, "questions must be between 1 and 40"),
        (["--topic", "softmx"], 1, "unknown topic 'softmx'; the topics are: attention"),
        (["--key", "mock-nonsense"], 2, "is not a mock interview key"),
        (["--key", "mock-3-30m-0000"], 1, "made from a different set of questions"),
        (["--key", "mock-3-30m-0000", "--seed", "2"], 2, "--key already fixes the interview; leave out --seed"),
        (["--seed", "3", "-o", "x.md"], 2, "-o/--output goes with --interviewer or --report"),
        (["--report", "mock-3-30m-0000"], 1, "no mock interview is stored yet"),
    ],
)
def test_bad_input_is_stopped_with_a_message(capsys, argv, code, says):
    if "--interviewer" not in argv and "--report" not in argv and "-o" not in argv:
        argv = [*argv, "--interviewer"]  # the app is never opened by these tests
    try:
        got = main(["mock", *argv])
    except SystemExit as exc:  # argparse's own usage errors
        got = exc.code
    out, err = capsys.readouterr()
    assert got == code and says in err and "Traceback" not in err and out == ""


def test_a_key_made_from_a_different_bank_is_refused(capsys):
    options = MockOptions(seed=3)
    key = mock_key(options, "0" * 16)  # another bank's fingerprint
    assert key != mock_key(options, bank_fingerprint(BANK))
    code, _, err = run(capsys, "--key", key, "--interviewer")
    assert code == 1 and f"the key {key} was made from a different set of questions" in err


def sat_mock() -> str:
    clock = FakeClock()
    session = start(plan_of("trained-scores-unit-variance", "decode-step-gqa-shapes", minutes=1), clock)
    answer_rightly(session, clock, 20)
    clock.advance(60)
    session.time_out("")
    return session.mock_id


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_report_of_the_last_mock_in_markdown(capsys, lang):
    sat_mock()
    code, out, err = run(capsys, "--report", "--lang", lang)
    assert code == 0 and err == ""
    assert out.startswith("# Mock interview" if lang == "en" else "# 模擬面接")
    assert ("No answer in time" if lang == "en" else "時間内に解答なし") in out


def test_the_report_by_key_or_id_as_json_to_a_file(capsys, tmp_path):
    mock_id = sat_mock()
    key = plan_of("trained-scores-unit-variance", "decode-step-gqa-shapes", minutes=1).key
    target = tmp_path / "report.json"
    assert run(capsys, "--report", key, "--format", "json", "-o", str(target))[0] == 0
    data = json.loads(target.read_text(encoding="utf-8"))
    assert data["mock"] == mock_id and data["counts"]["no_answer"] == 1 and data["missed"] == ["decode-step-gqa-shapes"]
    code, out, _ = run(capsys, "--report", mock_id, "--format", "json")
    assert code == 0 and json.loads(out) == data
    code, _, err = run(capsys, "--report", "mock-9-9m-abcd")
    assert code == 1 and "no stored mock interview 'mock-9-9m-abcd'" in err and key in err


def test_a_damaged_history_stops_the_report_with_the_reason(capsys):
    path = history_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"not a database" * 200)
    code, _, err = run(capsys, "--report")
    assert code == 4 and str(path) in err and path.read_bytes() == b"not a database" * 200


def test_adaptive_weighs_the_weakest_topics_and_mistakes_from_history(capsys):
    with open_store(history_path()) as store:
        for n in range(6):
            store.record(attempt("softmax-jacobian-matrix", at_ms=START_MS + n, score=0.0, verdict="incorrect"))
            store.record(attempt("trained-scores-unit-variance", at_ms=START_MS + n, score=1.0, verdict="correct"))
    with open_store(history_path()) as store:
        weights = weakness(BANK, store.attempts())
    softmax = [w for q, w in weights.items() if BANK.questions[q].topic == "softmax"]
    assert softmax and min(softmax) >= 1.0  # the softmax topic's whole shortfall
    assert weights.get("trained-scores-unit-variance", 0.0) == 0.0
    code, out, _ = run(capsys, "--adaptive", "--seed", "5", "--minutes", "10", "--interviewer")
    assert code == 0 and "mock-5-10m-a-" in out


def test_a_mock_travels_with_export_and_import_and_reports_the_same(capsys, tmp_path, monkeypatch):
    clock = FakeClock()
    session = start(plan_of("trained-scores-unit-variance", "explain-scale-not-uniform", minutes=4), clock)
    answer_rightly(session, clock, 20)
    answer_rightly(session, clock, 30)  # spoken: 190 s left, no room for a 240 s follow-up
    [item] = session.pending_self_grades()
    session.self_grade(item.id, ["good"] * len(item.checklist))
    report = run(capsys, "--report", "--format", "json")[1]
    exported = tmp_path / "history.jsonl"
    assert main(["export", "-o", str(exported)]) == 0
    lines = exported.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[-1])["record"] == "mock" and len(lines) == 3
    monkeypatch.setenv("QUIZ_DATA_DIR", str(tmp_path / "elsewhere"))
    assert main(["import", str(exported)]) == 0
    capsys.readouterr()
    assert run(capsys, "--report", "--format", "json")[1] == report
    assert main(["import", str(exported)]) == 0  # twice: nothing added, nothing changed
    capsys.readouterr()
    assert run(capsys, "--report", "--format", "json")[1] == report


def test_a_bad_mock_record_stops_the_import_with_its_line_and_adds_nothing(capsys, tmp_path):
    sat_mock()
    exported = tmp_path / "history.jsonl"
    assert main(["export", "-o", str(exported)]) == 0
    lines = exported.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[-1])
    record["spoken"] = [{"id": "not-a-uuid"}]
    record["id"] = "another-mock"
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([*lines[:-1], json.dumps(record)]) + "\n", encoding="utf-8")
    with open_store(history_path()) as store:
        before = (store.attempt_count(), [m.id for m in store.mocks()])
    code = main(["import", str(bad)])
    err = capsys.readouterr().err
    assert code == 1 and f"{bad}:{len(lines)}:" in err and "a spoken answer: missing" in err
    with open_store(history_path()) as store:
        assert (store.attempt_count(), [m.id for m in store.mocks()]) == before


def test_adaptive_weighs_the_questions_that_catch_the_mistakes_made_most():
    attempts = [attempt("trained-scores-unit-variance", at_ms=START_MS + n, misconception="gave_variance") for n in range(3)]
    weights = weakness(BANK, attempts)  # full scores: only the mistake weighs
    catching = {q.id for q in BANK.questions.values() if "gave_variance" in {m.name for m in getattr(q, "misconceptions", ())}}
    assert "divide-by-dk-score-spread" in catching
    assert weights == dict.fromkeys(catching, 1.0)
