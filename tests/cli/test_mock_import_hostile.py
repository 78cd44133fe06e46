"""Issue 34: a mock interview whose stored options or plan were changed ("minutes": "five", -5, a
budget that is text) is refused at import by the mock options' own rules, at its line, adding
nothing; one already in the history file is ended with a message when the learner would resume
it, instead of crashing the app and being offered again at every start."""

from __future__ import annotations

import json
import sqlite3

import pytest

from history_records import open_store
from mock_helpers import BANK, FakeClock, answer_rightly, plan_of, start
from quiz.cli.main import main
from quiz.history.recorder import Recorder
from quiz.history.store import history_path
from quiz.mock.session import CannotResume, MockSession

TAMPERED = {
    "minutes-text": ("options", "minutes", "five", "minutes must be a number, got 'five'"),
    "minutes-negative": ("options", "minutes", -5, "minutes must be above 0 and at most 240, got -5"),
    "questions-text": ("options", "questions", "x", "seed, questions and difficulty must be whole numbers"),
    "difficulty-seven": ("options", "difficulty", 7, "difficulty must be 1, 2 or 3, got 7"),
    "topics-number": ("options", "topics", 3, "topics must be a list of topic names"),
    "budget-negative": ("plan", "budget", -3, "needs a whole seed and a budget of 0 seconds or more"),
    "budget-text": ("plan", "budget", "long", "needs a whole seed and a budget of 0 seconds or more"),
}
AT_IMPORT = [case for case in TAMPERED if case != "budget-text"]  # a text budget is the mock record's own check


def running_mock() -> str:
    """A mock interview left running (as a crash leaves it), one question answered."""
    clock = FakeClock()
    session = start(plan_of("trained-scores-unit-variance", "decode-step-gqa-shapes", minutes=30), clock)
    answer_rightly(session, clock, 20)
    return session.mock_id


def tampered_line(line: str, where: str, name: str, value: object) -> str:
    record = json.loads(line)
    if where == "options":
        record["options"][name] = value
    else:
        record["plan"][0][name] = value
    return json.dumps(record)


@pytest.mark.parametrize("case", AT_IMPORT, ids=AT_IMPORT)
def test_an_import_with_a_tampered_mock_is_a_located_problem_and_adds_nothing(capsys, tmp_path, monkeypatch, case):
    where, name, value, reason = TAMPERED[case]
    running_mock()
    exported = tmp_path / "history.jsonl"
    assert main(["export", "-o", str(exported)]) == 0
    lines = exported.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[-1])["record"] == "mock"
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([*lines[:-1], tampered_line(lines[-1], where, name, value)]) + "\n", encoding="utf-8")
    monkeypatch.setenv("QUIZ_DATA_DIR", str(tmp_path / "elsewhere"))
    capsys.readouterr()
    code = main(["import", str(bad)])
    err = capsys.readouterr().err
    assert code == 1 and f"{bad}:{len(lines)}:" in err and "cannot be resumed or reported" in err and reason in err
    assert "Traceback" not in err and "internal error" not in err
    with open_store(history_path()) as store:
        assert (store.attempt_count(), store.mocks()) == (0, [])


def test_the_untouched_export_still_imports(capsys, tmp_path, monkeypatch):
    running_mock()
    exported = tmp_path / "history.jsonl"
    assert main(["export", "-o", str(exported)]) == 0
    monkeypatch.setenv("QUIZ_DATA_DIR", str(tmp_path / "elsewhere"))
    assert main(["import", str(exported)]) == 0


@pytest.mark.parametrize("case", ["minutes-text", "minutes-negative", "budget-text"])
def test_a_stored_mock_that_cannot_be_resumed_is_ended_and_not_offered_again(case):
    where, name, value, reason = TAMPERED[case]
    mock_id = running_mock()
    path = json.dumps(f"$[0].{name}" if where == "plan" else f"$.{name}")
    with sqlite3.connect(history_path()) as connection:  # as someone else's program would change it
        connection.execute(f"UPDATE mocks SET {where} = json_set({where}, {path}, json(?)) WHERE id = ?", (json.dumps(value), mock_id))
    recorder = Recorder()
    assert [m.id for m in recorder.running_mocks()] == [mock_id]
    with pytest.raises(CannotResume, match=reason):
        MockSession.resume(BANK, recorder, mock_id)
    assert Recorder().running_mocks() == []  # ended as it stands: no offer at the next start
    with open_store(history_path()) as store:
        assert [a.verdict for a in store.attempts(mock=mock_id)] == ["correct"]  # the answer given is kept
