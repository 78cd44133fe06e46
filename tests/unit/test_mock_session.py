"""A mock interview being sat, on the bundled bank and a real history file, with a clock the test
moves: answers committed as given, follow-ups as time allows, the deadline, self-grading, resume."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest

from mock_helpers import BANK, FakeClock, answer_rightly, plan_of, right_answer, start
from places import TESTS
from quiz.history.recorder import Recorder
from quiz.history.store import History, open_history
from quiz.mock.session import MockSession


def stored_history() -> History:
    history = open_history()
    assert isinstance(history, History), str(history)
    return history


def test_a_whole_mock_answered_is_committed_answer_by_answer():
    clock = FakeClock()
    plan = plan_of("trained-scores-unit-variance", "decode-step-gqa-shapes", "causal-leak-test-design", minutes=3)
    session = start(plan, clock)
    seen = []
    while session.current is not None:
        seen.append((session.position, session.current.question.id))
        answer_rightly(session, clock, 20)
        with stored_history() as history:  # on the file before the next question is asked
            assert len(history.attempts(mock=session.mock_id)) == len(seen)
    # 3 minutes leave 120 s after the third answer, under the follow-up's 240 s budget: none asked
    assert seen == [((1, 3), "trained-scores-unit-variance"), ((2, 3), "decode-step-gqa-shapes"), ((3, 3), "causal-leak-test-design")]
    assert session.finished and session.current is None
    with stored_history() as history:
        attempts = history.attempts(mock=session.mock_id)
        assert {a.verdict for a in attempts} == {"correct"} and {a.mode for a in attempts} == {"mock"}
        assert {a.duration_ms for a in attempts} == {20_000}
        assert history.running_mocks() == []
        [row] = history.mocks()
        assert (row.id, row.status, row.key, row.lang, row.feedback) == (session.mock_id, "finished", plan.key, "en", "end")
        assert history.card("decode-step-gqa-shapes") is not None  # mock attempts update the review cards


def test_a_follow_up_is_asked_next_when_the_time_left_covers_its_budget():
    clock = FakeClock()
    session = start(plan_of("logit-soft-capping", "trained-scores-unit-variance", minutes=10), clock)
    answer_rightly(session, clock, 60)
    assert session.current.question.id == "qk-norm-ignores-weight-growth"  # the first of its follow-ups
    assert session.is_follow_up and session.position == (2, 3)
    answer_rightly(session, clock, 20)
    assert session.current.question.id == "trained-scores-unit-variance" and not session.is_follow_up
    assert session.position == (3, 3)


def test_no_follow_up_when_the_time_left_is_shorter_than_its_budget():
    clock = FakeClock()
    # 4 minutes: after 200 s on the first question 40 s are left, under the follow-up's 45 s.
    session = start(plan_of("logit-soft-capping", "trained-scores-unit-variance", minutes=4), clock)
    answer_rightly(session, clock, 200)
    assert session.current.question.id == "trained-scores-unit-variance" and session.position == (2, 2)


def test_a_follow_up_already_planned_is_not_asked_twice():
    clock = FakeClock()
    session = start(plan_of("logit-soft-capping", "qk-norm-ignores-weight-growth", minutes=30), clock)
    answer_rightly(session, clock, 30)
    assert session.current.question.id == "qk-norm-ignores-weight-growth" and not session.is_follow_up
    answer_rightly(session, clock, 30)
    assert session.finished


def test_a_question_over_its_budget_stays_open_and_counts_when_answered():
    clock = FakeClock()
    session = start(plan_of("trained-scores-unit-variance", "decode-step-gqa-shapes", minutes=10), clock)
    clock.advance(37)  # 8 s of the 45 s budget left: the last fifth
    assert session.question.warn_question() and not session.question.over()
    clock.advance(30)
    assert session.question.over() and not session.check_deadline()
    assert session.current.question.id == "trained-scores-unit-variance"
    result = session.submit(right_answer(session.current))
    assert result.verdict == "correct" and session.current.question.id == "decode-step-gqa-shapes"
    with stored_history() as history:
        assert history.attempts(mock=session.mock_id)[0].duration_ms == 67_000


def test_time_out_grades_a_half_typed_answer_that_reads_and_records_the_rest_not_reached():
    clock = FakeClock()
    session = start(plan_of("trained-scores-unit-variance", "logit-soft-capping", "decode-step-gqa-shapes", minutes=1), clock)
    answer_rightly(session, clock, 20)
    clock.advance(45)
    assert session.check_deadline() and session.interview.remaining() == 0
    session.time_out("0.5")  # a number, if not the right one
    assert session.finished and session.current is None
    with stored_history() as history:
        verdicts = {a.question: (a.verdict, a.response) for a in history.attempts(mock=session.mock_id)}
    assert verdicts["trained-scores-unit-variance"][0] == "correct"
    assert verdicts["logit-soft-capping"] in {("incorrect", "0.5"), ("partial", "0.5")}
    assert verdicts["decode-step-gqa-shapes"] == ("not_reached", None)


@pytest.mark.parametrize("typed", [None, "", "   ", "0.5 +", "[1, 2"])
def test_time_out_with_nothing_that_reads_as_an_answer_is_no_answer_never_graded_empty(typed):
    clock = FakeClock()
    session = start(plan_of("logit-soft-capping", "trained-scores-unit-variance", minutes=1), clock)
    clock.advance(61)
    session.time_out(typed)
    with stored_history() as history:
        attempts = {a.question: a for a in history.attempts(mock=session.mock_id)}
    first = attempts["logit-soft-capping"]
    assert (first.verdict, first.score, first.duration_ms) == ("no_answer", 0.0, 61_000)
    assert first.response == (typed if typed and typed.strip() else None)
    assert attempts["trained-scores-unit-variance"].verdict == "not_reached"
    with stored_history() as history:
        assert history.card("trained-scores-unit-variance") is None  # never seen: not a review


def test_a_spoken_answer_waits_for_self_grades_then_becomes_an_attempt_with_their_score():
    clock = FakeClock()
    session = start(plan_of("explain-scale-not-uniform", minutes=5), clock)
    clock.advance(100)
    result = session.submit(None, "variance d_k; softmax saturates")
    assert session.finished and result.details["self_grade"]
    with stored_history() as history:
        assert history.attempts(mock=session.mock_id) == []  # not graded yet, but the notes are kept
        [kept] = history.mock(session.mock_id).spoken
        assert (kept.notes, kept.duration_ms, kept.levels) == ("variance d_k; softmax saturates", 100_000, None)
    [item] = session.pending_self_grades()
    assert item.notes == "variance d_k; softmax saturates" and item.seconds == 100.0 and len(item.checklist) >= 2
    levels = ["strong"] + ["missing"] * (len(item.checklist) - 1)
    with pytest.raises(ValueError, match="checklist points"):
        session.self_grade(item.id, ["strong"])
    with pytest.raises(ValueError, match="checklist points"):
        session.self_grade(item.id, ["perfect"] * len(item.checklist))
    session.self_grade(item.id, levels)
    assert session.pending_self_grades() == []
    with stored_history() as history:
        [attempt] = history.attempts(mock=session.mock_id)
        assert attempt.id == item.id and attempt.response == item.notes
        assert attempt.score == pytest.approx(1 / len(levels)) and attempt.verdict == "partial"
        assert history.mock(session.mock_id).spoken[0].levels == tuple(levels)
    with pytest.raises(ValueError, match="already"):
        session.self_grade(item.id, levels)


def test_spoken_notes_typed_when_time_runs_out_are_kept_for_self_grading():
    clock = FakeClock()
    session = start(plan_of("explain-scale-not-uniform", "trained-scores-unit-variance", minutes=1), clock)
    clock.advance(70)
    session.time_out("half a thought")
    [item] = session.pending_self_grades()
    assert item.notes == "half a thought"


def test_the_interview_runs_in_memory_when_the_history_file_is_damaged(tmp_path):
    damaged = tmp_path / "history.sqlite3"
    damaged.write_bytes(b"this is not a database" * 100)
    recorder = Recorder(damaged)
    clock = FakeClock()
    session = start(plan_of("trained-scores-unit-variance", "explain-scale-not-uniform", minutes=4), clock, recorder=recorder)
    answer_rightly(session, clock)
    answer_rightly(session, clock)  # 200 s left: no room for a 240 s follow-up
    [item] = session.pending_self_grades()
    session.self_grade(item.id, ["good"] * len(item.checklist))
    assert session.finished and recorder.problem is not None
    assert damaged.read_bytes() == b"this is not a database" * 100
    assert [a.verdict for a in session.stored().attempts] == ["correct", "partial"]


def test_start_refuses_an_unknown_feedback_mode():
    with pytest.raises(ValueError, match="feedback"):
        MockSession.start(BANK, plan_of("trained-scores-unit-variance"), Recorder(), lang="en", feedback="never")


# -- resume after kill -9 ------------------------------------------------------------------------

CHILD = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, {support!r})
    from mock_helpers import FakeClock, answer_rightly, plan_of, start

    clock = FakeClock(5_000.0)
    session = start(plan_of("trained-scores-unit-variance", "logit-soft-capping", "decode-step-gqa-shapes", minutes=5), clock)
    answer_rightly(session, clock, 30)
    clock.advance(10)  # 10 s into the second question when the process is killed
    print(session.mock_id, flush=True)
    sys.stdin.read()  # wait here to be killed
    """
)


def sit_and_kill() -> str:
    """Start a mock in a real process, answer one question, kill -9 it; the mock's id."""
    code = CHILD.format(support=str(TESTS / "support"))
    child = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=os.environ.copy(), text=True)
    mock_id = child.stdout.readline().strip()
    assert mock_id, "the child did not start the mock"
    os.kill(child.pid, signal.SIGKILL)
    assert child.wait(timeout=30) == -signal.SIGKILL
    child.stdin.close()
    child.stdout.close()
    return mock_id


@pytest.mark.slow
def test_after_kill_9_the_mock_resumes_with_its_clock_running_from_the_stored_start():
    mock_id = sit_and_kill()
    recorder = Recorder()
    assert [m.id for m in recorder.running_mocks()] == [mock_id]
    clock = FakeClock(5_000.0)
    clock.advance(100)  # 100 s after the start on the same boot
    session = MockSession.resume(BANK, recorder, mock_id, clock=clock, wall=clock.wall)
    assert session is not None and not session.finished
    assert session.current.question.id == "logit-soft-capping" and session.position == (2, 3)
    assert session.interview.remaining() == pytest.approx(200)
    assert session.question.elapsed() == pytest.approx(70)  # shown 30 s in, on the stored clock
    assert [a.verdict for a in session.stored().attempts] == ["correct"]  # nothing answered was lost
    while session.current is not None:
        answer_rightly(session, clock, 10)
    assert session.finished and recorder.running_mocks() == []
    with stored_history() as history:
        answered = [a.question for a in reversed(history.attempts(mock=mock_id))]
    assert answered == ["trained-scores-unit-variance", "logit-soft-capping", "qk-norm-ignores-weight-growth", "decode-step-gqa-shapes"]


@pytest.mark.slow
def test_after_kill_9_past_the_deadline_the_mock_is_closed_as_over_time():
    mock_id = sit_and_kill()
    recorder = Recorder()
    clock = FakeClock(5_000.0)
    clock.advance(3_600)  # an hour later: the 5 minutes are long over
    session = MockSession.resume(BANK, recorder, mock_id, clock=clock, wall=clock.wall)
    assert session.finished and session.current is None
    with stored_history() as history:
        verdicts = {a.question: a.verdict for a in history.attempts(mock=mock_id)}
        assert history.running_mocks() == []
    assert verdicts == {"trained-scores-unit-variance": "correct", "logit-soft-capping": "no_answer", "decode-step-gqa-shapes": "not_reached"}


def test_resume_of_an_unknown_mock_is_none():
    assert MockSession.resume(BANK, Recorder(), "no-such-mock") is None


def test_an_answer_submitted_after_the_deadline_counts_and_ends_the_interview():
    clock = FakeClock()
    session = start(plan_of("logit-soft-capping", "trained-scores-unit-variance", minutes=1), clock)
    clock.advance(61)  # the app's last tick had not yet noticed
    result = session.submit(right_answer(session.current))
    assert result.verdict == "correct" and session.finished and session.current is None
    verdicts = {a.question: a.verdict for a in session.stored().attempts}
    assert verdicts == {"logit-soft-capping": "correct", "trained-scores-unit-variance": "not_reached"}


def test_after_a_reboot_the_time_elapsed_is_taken_from_the_wall_clock():
    clock = FakeClock()
    plan = plan_of("trained-scores-unit-variance", "decode-step-gqa-shapes", minutes=5)
    first = MockSession.start(BANK, plan, Recorder(), lang="en", clock=clock, wall=clock.wall, boot="boot-1")
    answer_rightly(first, clock, 20)
    rebooted = FakeClock(start=12.0)  # the interview clock starts again from zero after a reboot
    rebooted.wall_offset = clock.wall() + 40 - rebooted.now  # 40 s after the answer, by the wall clock
    session = MockSession.resume(BANK, Recorder(), first.mock_id, clock=rebooted, wall=rebooted.wall, boot="boot-2")
    assert session.interview.elapsed() == pytest.approx(60) and session.current.question.id == "decode-step-gqa-shapes"


def test_a_finished_mock_comes_back_with_its_spoken_answers_to_self_grade():
    clock = FakeClock()
    session = start(plan_of("explain-scale-not-uniform", minutes=1), clock)
    clock.advance(60)
    session.time_out("notes")
    again = MockSession.resume(BANK, Recorder(), session.mock_id, clock=clock, wall=clock.wall)
    assert again.finished and again.current is None
    [item] = again.pending_self_grades()
    again.self_grade(item.id, ["strong"] * len(item.checklist))
    with stored_history() as history:
        assert [a.score for a in history.attempts(mock=session.mock_id)] == [1.0]


def test_time_out_after_the_end_changes_nothing():
    clock = FakeClock()
    session = start(plan_of("trained-scores-unit-variance", minutes=1), clock)
    answer_rightly(session, clock)
    before = session.stored()
    clock.advance(100)
    session.time_out("true")
    assert session.stored() == before
