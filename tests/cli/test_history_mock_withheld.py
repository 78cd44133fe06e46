"""`quiz history` keeps a running mock's verdicts back, as the app does, until the mock ends (issue 33)."""

from __future__ import annotations

import json

from mock_helpers import FakeClock, answer_rightly, plan_of, start
from quiz.cli.main import main


def history(capsys, *argv: str) -> str:
    assert main(["history", *argv]) == 0
    return capsys.readouterr().out


def test_a_running_mocks_answers_are_listed_without_their_verdicts_until_it_ends(capsys):
    clock = FakeClock()
    session = start(plan_of("trained-scores-unit-variance", "decode-step-gqa-shapes", minutes=30), clock)
    answer_rightly(session, clock, 20)
    table = history(capsys)
    assert "withheld until the mock ends" in table and "Correct" not in table and "1.00" not in table
    [listed] = json.loads(history(capsys, "--json"))
    assert listed["withheld"] is True and (listed["score"], listed["verdict"], listed["misconception"]) == (None, None, None)
    assert "模擬面接の終了まで非表示" in history(capsys, "--lang", "ja")
    while session.current is not None:
        answer_rightly(session, clock, 20)
    [*_, first] = json.loads(history(capsys, "--json"))
    assert first["withheld"] is False and first["verdict"] == "correct" and first["score"] == 1.0
    assert "Correct" in history(capsys)
