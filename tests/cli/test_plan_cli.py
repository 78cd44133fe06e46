"""`quiz plan`, run in-process on a real history file in the test's data directory: setting the
interview date (kept in the file), the table and the chart, --json, --clear, and the clear
messages for dates it cannot use."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from quiz.cli.main import main
from quiz.history.records import local_now
from quiz.history.store import History, history_path, open_history
from quiz.learning.plan_store import PlanSettings, load_plan_settings


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def in_days(days: int) -> str:
    return (local_now().date() + timedelta(days=days)).isoformat()


def stored_settings() -> PlanSettings | None:
    history = open_history(history_path())
    assert isinstance(history, History)
    with history:
        return load_plan_settings(history)


def test_the_plan_is_set_kept_and_printed_day_by_day(capsys):
    code, out, err = run(capsys, "plan", "--interview", in_days(12), "--minutes-per-day", "25")
    assert code == 0, err
    assert stored_settings() == PlanSettings(local_now().date() + timedelta(days=12), 25)
    lines = out.splitlines()
    assert lines[0] == f"The plan to your interview on {in_days(12)}: 12 days left, 25 minutes a day."
    days = [line for line in lines if line[:10] in {in_days(n) for n in range(12)}]
    assert len(days) == 12 and "mock interview" in days[-1] and "learning" in days[0]
    assert all(int(line.split()[-1]) <= 25 for line in days)
    assert "Expected recall on the interview day, by topic" in out and "Softmax and its gradient" in out and "█" in out
    # without options it prints the kept plan again; --json has every day's questions
    code, out, _ = run(capsys, "plan", "--json")
    plan = json.loads(out)
    assert code == 0 and plan["interview"] == in_days(12) and plan["minutes_per_day"] == 25 and len(plan["days"]) == 12
    assert all(day["minutes"] <= 25 for day in plan["days"])
    assert plan["days"][0]["items"][0]["kind"] == "new" and plan["unreached_claims"] == []
    # the minutes alone change; the date stays
    assert run(capsys, "plan", "--minutes-per-day", "40", "--json")[0] == 0
    assert stored_settings() == PlanSettings(local_now().date() + timedelta(days=12), 40)


def test_the_plan_prints_in_japanese(capsys):
    code, out, _ = run(capsys, "plan", "--interview", in_days(1), "--lang", "ja")
    assert code == 0 and "面接までの学習計画：残り 1 日" in out and "直前対策（弱い順）" in out


@pytest.mark.parametrize(
    ("date", "message"),
    [
        (in_days(-1), "has passed"),
        (in_days(0), "is today"),
        ("2026-02-30", "is not a date: write it as YYYY-MM-DD"),
        ("tomorrow", "is not a date"),
        (in_days(500), "within a year"),
    ],
)
def test_a_date_it_cannot_use_is_refused_with_a_message(capsys, date, message):
    code, out, err = run(capsys, "plan", "--interview", date)
    assert code == 2 and out == "" and message in err and "Traceback" not in err
    assert stored_settings() is None


def test_minutes_out_of_range_are_refused(capsys):
    code, _, err = run(capsys, "plan", "--interview", in_days(5), "--minutes-per-day", "0")
    assert code == 2 and "from 5 to 480" in err


def test_no_plan_and_clearing(capsys):
    code, _, err = run(capsys, "plan")
    assert code == 1 and "No plan is set" in err
    assert run(capsys, "plan", "--interview", in_days(3))[0] == 0
    code, out, _ = run(capsys, "plan", "--clear")
    assert code == 0 and out == "The plan is cleared.\n" and stored_settings() is None
    assert run(capsys, "plan", "--clear", "--interview", in_days(3))[0] == 2
