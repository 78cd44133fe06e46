"""The report of a mock interview, from sittings on the real bank and history file: what each
question gave, self-grades, the trend over earlier mocks, and the practice key."""

from __future__ import annotations

import json
import subprocess
import time
from datetime import timedelta, timezone

import numpy as np
import pytest

from mock_helpers import BANK, FakeClock, answer_rightly, plan_of, right_answer, start
from quiz.bank import Selection
from quiz.cli.main import build_parser
from quiz.history.recorder import Recorder
from quiz.mock.report import build_report
from quiz.mock.report_text import command_lines, report_json, report_json_text, report_markdown
from quiz.practice.session import PracticeSession

# Follow-ups are left out of these (see test_mock_session): none of the first three has any.
PLAN = (
    "trained-scores-unit-variance",
    "divide-by-dk-score-spread",
    "decode-step-gqa-shapes",
    "explain-scale-not-uniform",
    "causal-leak-perturbation-test",
)
MISSED = ("divide-by-dk-score-spread", "decode-step-gqa-shapes")


def sit(clock: FakeClock, *, right: bool = False, minutes: float = 6):
    """A sitting of PLAN: the first right, the second hits a named mistake, the third wrong and over
    time (unless `right`), then time runs out on the spoken question with notes typed."""
    session = start(plan_of(*PLAN, minutes=minutes), clock)
    answer_rightly(session, clock, 20)
    variant = session.current
    clock.advance(30)
    session.submit(right_answer(variant) if right else variant.misconceptions["gave_variance"])
    if right:
        answer_rightly(session, clock, 60)
    else:
        clock.advance(250)  # over its 120 s budget
        session.submit(np.asarray(right_answer(session.current)) + 1)
    while session.current is not None and session.current.question.id != "explain-scale-not-uniform":
        answer_rightly(session, clock, 10)
    clock.advance(session.interview.remaining())  # the deadline, within the spoken question's budget
    session.time_out("variance is d_k")
    return session


def test_the_report_says_how_each_question_went():
    clock = FakeClock()
    session = sit(clock)
    report = session.report()
    lines = {line.question: line for line in report.lines}
    assert [line.question for line in report.lines][:3] == list(PLAN[:3])
    assert lines["trained-scores-unit-variance"].verdict == "correct" and lines["trained-scores-unit-variance"].seconds == 20
    mistake = lines["divide-by-dk-score-spread"]
    label = "gave the variance, not the standard deviation"
    assert (mistake.verdict, mistake.misconception, mistake.misconception_label.en) == ("incorrect", "gave_variance", label)
    wrong = lines["decode-step-gqa-shapes"]
    assert wrong.over_time and wrong.seconds == 250 and wrong.budget == 120 and wrong.verdict != "correct" and wrong.answer
    assert lines["explain-scale-not-uniform"].verdict == "awaiting_self_grade"
    assert lines["causal-leak-perturbation-test"].verdict == "not_reached"
    assert report.count("not_reached") == 1 and report.over_time == 1 and not report.final
    assert report.missed == MISSED


def test_self_grading_changes_the_report_and_makes_it_final():
    clock = FakeClock()
    session = sit(clock)
    before = session.report()
    assert before.scores.topics["scaling"] == 0.5  # the true/false and the number; not the spoken one yet
    [item] = session.pending_self_grades()
    session.self_grade(item.id, ["missing"] * len(item.checklist))
    after = session.report()
    assert after.final and after.scores.topics["scaling"] == pytest.approx(1 / 3)
    assert after.scores.overall < before.scores.overall
    spoken = next(line for line in after.lines if line.question == "explain-scale-not-uniform")
    assert spoken.verdict == "incorrect" and [level for _, level in spoken.self_grades] == ["missing"] * len(item.checklist)
    assert "explain-scale-not-uniform" in after.missed
    markdown = report_markdown(BANK, after, "en")
    assert "Your self-grades:" in markdown and "- missing:" in markdown.replace("  - missing:", "- missing:")


def test_the_stored_report_is_the_one_shown_at_the_end():
    clock = FakeClock()
    session = sit(clock)
    stored = Recorder().stored_mock(session.mock_id)
    assert report_json(BANK, build_report(BANK, stored), "en") == report_json(BANK, session.report(), "en")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_markdown_report_in_each_language_writes_maths_as_unicode(lang):
    clock = FakeClock()
    session = sit(clock)
    markdown = report_markdown(BANK, session.report(), lang)
    title = {"en": "# Mock interview", "ja": "# 模擬面接"}[lang]
    assert markdown.startswith(title) and "$" not in markdown and "\\sqrt" not in markdown
    assert "√dₖ" in markdown
    # 68 characters on one line: written in two, to fit an 80-column screen
    assert "    quiz practice \\\n        --ids divide-by-dk-score-spread,decode-step-gqa-shapes\n" in markdown
    if lang == "ja":
        assert "未到達" in markdown and "自己採点待ち" in markdown and "時間超過" in markdown
        assert "誤り：" in markdown and "gave the variance" not in markdown  # the Japanese label
    else:
        assert "Not reached" in markdown and "Mistake: gave the variance, not the standard deviation" in markdown
    assert "gave_variance" not in markdown  # never the internal name


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_json_report_has_stable_keys(lang):
    clock = FakeClock()
    data = json.loads(report_json_text(BANK, sit(clock).report(), lang))
    assert list(data) == [
        "format", "mock", "key", "lang", "status", "final", "started", "finished", "overall", "counts", "topics",
        "claims", "questions", "trend", "change", "practise_next", "missed", "slow", "practice_command",
    ]  # fmt: skip
    assert data["format"] == 1 and data["lang"] == lang and data["status"] == "finished"
    assert data["counts"] == {"questions": 5, "no_answer": 0, "not_reached": 1, "over_time": 1, "awaiting_self_grade": 1}
    question = data["questions"][1]
    assert set(question) == {
        "position", "question", "key", "topic", "claims", "follow_up_of", "depth", "answer", "answer_key", "verdict", "score",
        "misconception", "seconds", "budget", "over_time", "by_clock", "self_grades", "pushback",
    }  # fmt: skip
    assert question["misconception"]["name"] == "gave_variance" and question["seconds"] == 30.0 and question["budget"] == 90.0


def test_the_trend_compares_with_earlier_finished_mocks():
    clock = FakeClock()
    first = sit(clock)
    for item in first.pending_self_grades():
        first.self_grade(item.id, ["weak"] * len(item.checklist))
    clock.advance(86_400)
    second = sit(clock, right=True)
    report = second.report()
    assert [point.mock for point in report.trend] == [first.mock_id]
    overall, topics = report.change
    assert overall == pytest.approx(report.scores.overall - first.report().scores.overall) and overall > 0
    assert topics["attention"] == pytest.approx(1.0)  # 0 → 1: answered right this time
    data = report_json(BANK, report, "en")
    assert data["trend"][0]["mock"] == first.mock_id and data["change"]["overall"] == pytest.approx(overall)
    assert data["change"]["mock"] == first.mock_id
    points = f"{round(overall * 100):+d}"
    assert f"{points} pp" in report_markdown(BANK, report, "en") and f"{points} ポイント" in report_markdown(BANK, report, "ja")
    assert "| +100 pp |" in report_markdown(BANK, report, "en")  # attention, 0 → 1, in percentage points
    assert first.report().trend == ()  # nothing before the first one


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_change_compares_like_with_like_only(lang):
    clock = FakeClock()
    six = sit(clock, minutes=6)  # (finished: time ran out on the spoken question)
    clock.advance(3_600)
    eight = sit(clock, minutes=8, right=True)  # another length: another kind of mock
    clock.advance(3_600)
    again = sit(clock, minutes=6, right=True)
    first_report, eight_report, report = six.report(), eight.report(), again.report()
    assert [p.mock for p in report.trend] == [six.mock_id, eight.mock_id]
    assert report.compared is not None and report.compared.mock == six.mock_id  # not the 8-minute one just before
    assert report.change[0] == pytest.approx(report.scores.overall - first_report.scores.overall)
    assert eight_report.trend and eight_report.compared is None and eight_report.change == (None, {})
    no_alike = {"en": "None of your earlier mocks was of the same kind", "ja": "変化は表示できません"}[lang]
    assert no_alike in report_markdown(BANK, eight_report, lang) and no_alike not in report_markdown(BANK, report, lang)
    assert report_json(BANK, eight_report, lang)["change"] == {"overall": None, "topics": {}, "mock": None}


@pytest.mark.parametrize(("lang", "shown"), [("en", "2025-06-16 00:0"), ("ja", "2025年6月16日 00:0")])
def test_dates_in_the_trend_are_local_and_readable(lang, shown, monkeypatch):
    clock = FakeClock()  # the wall clock starts at 2025-06-15T15:06:40Z
    sit(clock)
    clock.advance(600)
    report = sit(clock).report()
    tokyo = report_markdown(BANK, report, lang, tz=timezone(timedelta(hours=9)))
    assert tokyo.count(shown) == 2 and "T15:" not in tokyo and "Z |" not in tokyo
    monkeypatch.setenv("TZ", "Asia/Tokyo")  # the computer's own zone, when none is given
    time.tzset()
    try:
        assert report_markdown(BANK, report, lang) == tokyo
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
    assert report_json(BANK, report, lang)["trend"][0]["started"].endswith("Z")  # tools keep UTC


def test_a_long_practice_command_is_written_in_lines_a_shell_runs_as_one():
    ids = [f"question-with-a-rather-long-id-{n}" for n in range(7)]
    lines = command_lines(ids)
    assert len(lines) > 2 and all(len(line) <= 64 for line in lines)
    assert all(line.endswith(" \\") for line in lines[:-1]) and not lines[-1].endswith("\\")
    # pasted into a real shell as the report shows it (indented, as a Markdown code block is)
    script = "quiz() { printf '%s\\n' \"$@\"; }\n" + "\n".join(f"    {line}" for line in lines)
    words = subprocess.run(["bash", "-c", script], capture_output=True, text=True, check=True).stdout.splitlines()
    args = build_parser().parse_args(words)
    assert args.ids == tuple(ids)
    assert command_lines(ids[:1]) == [f"quiz practice --ids {ids[0]}"]  # short enough: one line


def test_three_topics_to_practise_next_weakest_first():
    clock = FakeClock()
    report = sit(clock).report()
    assert len(report.practise_next) <= 3
    scores = [report.scores.topics[t] for t in report.practise_next]
    assert scores == sorted(scores) and all(s < 1 for s in scores)
    assert report.practise_next[0] == "attention"  # 0 %, before scaling's 50 %


def test_the_practice_key_selects_exactly_the_missed_questions_in_order():
    clock = FakeClock()
    report = sit(clock).report()
    command = report.practice_command
    assert command is not None and command.startswith("quiz practice --ids ")
    args = build_parser().parse_args(command.split()[1:])
    selection = Selection(topic=args.topic, claim=args.claim, difficulty=args.difficulty, key=args.key, ids=args.ids)
    assert BANK.select(selection) == list(report.missed)
    practice = PracticeSession(BANK, selection)
    asked = []
    while (variant := practice.next_question()) is not None:
        asked.append(variant.question.id)
    assert asked == list(report.missed)


def test_a_mock_with_nothing_missed_has_no_practice_key():
    clock = FakeClock()
    session = start(plan_of("trained-scores-unit-variance", minutes=2), clock)
    answer_rightly(session, clock)
    report = session.report()
    assert report.final and report.missed == () and report.practice_command is None and report.practise_next == ()
    assert "Nothing missed" in report_markdown(BANK, report, "en")
