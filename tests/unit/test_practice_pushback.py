"""Pushback in practice: the challenge put once the answer is graded, held or revised, graded on
the answer that stands and committed to the real history file (the test's data directory),
linked to the attempt; exported as a record of its own and imported again."""

from __future__ import annotations

import io
import json

from mock_helpers import BANK, right_answer
from quiz.bank import Selection
from quiz.history.recorder import Recorder
from quiz.history.store import History, open_history
from quiz.history.transfer import export, import_file
from quiz.practice.session import PracticeSession

QUESTION = "prefill-compute-decode-bandwidth"


def stored_history() -> History:
    history = open_history()
    assert isinstance(history, History), str(history)
    return history


def session_on(question_id: str, recorder: Recorder) -> PracticeSession:
    now = [100.0]
    session = PracticeSession(BANK, Selection(key=question_id), sink=recorder, clock=lambda: now[0], wall_clock=lambda: 1_750_000_000_000)
    session.next_question()
    return session


def test_a_right_answer_held_under_pushback_is_recorded_linked_to_its_attempt_and_travels_in_exports(tmp_path):
    recorder = Recorder()
    session = session_on(QUESTION, recorder)
    result = session.submit(right_answer(session.variant))
    assert str(result.verdict) == "correct" and session.challenge is not None and session.challenge.pushback.after == "right"
    met = session.hold()
    assert (met.choice, met.verdict, met.score, met.mock) == ("hold", "correct", 1.0, None) and session.challenge is None
    with stored_history() as history:
        [attempt] = history.attempts()
        assert history.practice_pushbacks() == [met] and met.attempt == attempt.id
        out = io.StringIO()
        export(history, out, "jsonl")
    [record] = [json.loads(line) for line in out.getvalue().splitlines() if '"record": "pushback"' in line]
    assert (record["question"], record["choice"], record["attempt"]) == (QUESTION, "hold", attempt.id)
    path = tmp_path / "export.jsonl"
    path.write_text(out.getvalue(), encoding="utf-8")
    (tmp_path / "other").mkdir()
    other = open_history(tmp_path / "other" / "history.sqlite3")
    assert isinstance(other, History)
    with other:
        import_file(other, path)
        assert other.practice_pushbacks() == [met]


def test_a_question_without_a_pushback_puts_none_and_giving_up_is_never_challenged():
    recorder = Recorder()
    plain = session_on("trained-scores-unit-variance", recorder)
    plain.submit(right_answer(plain.variant))
    assert plain.challenge is None
    given_up = session_on(QUESTION, recorder)
    given_up.reveal()
    assert given_up.challenge is None
