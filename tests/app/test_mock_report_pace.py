"""The mock report on pace, through the real app: an answer the clock handed in says so, and time
over budget counts (a pace line, and over-time questions among what to practise next)."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from fixture_bank import fixture_bank
from mock_app_helpers import SetClock, mock_app, plan_of
from pilot_waits import settle
from quiz.base.numbers import format_array_inline
from quiz.ui.screens.report import ReportScreen

BANK = fixture_bank()


async def tick(pilot, clock: SetClock, seconds: float) -> None:
    clock.now += seconds
    pilot.app.screen.clocks.tick()
    await settle(pilot)


@pytest.mark.parametrize(
    ("lang", "by_clock", "pace", "slow"),
    [
        ("en", "Handed in by the clock", "Pace: 1 of 2 timed answers ran over their budget", "Right but over their time budget"),
        ("ja", "時間切れで提出", "ペース：時間を計った解答 2 問のうち 1 問が目安時間を超え", "正解でも目安時間を超えた問題です"),
    ],
)
async def test_the_report_marks_the_clocks_hand_in_and_counts_time_over_budget(lang, by_clock, pace, slow):
    clock = SetClock()
    budget = BANK.questions["fx-number"].time
    app = mock_app(BANK, plan_of(BANK, "fx-number", "fx-vector", "fx-truefalse", minutes=budget * 3 / 60), clock, lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await tick(pilot, clock, budget + 30)  # right, but 30 s over its budget
        app.screen.query_one("#answer-input", Input).value = format_array_inline(app.screen.session.current.answer)
        await pilot.press("enter")
        await settle(pilot)
        wrong = format_array_inline(app.screen.session.current.answer + 1)
        app.screen.query_one("#answer-input", Input).value = wrong  # typed, never submitted
        await tick(pilot, clock, app.screen.session.interview.remaining())  # the deadline, within its budget
        report = app.screen
        assert isinstance(report, ReportScreen)
        markdown = report.markdown
        assert markdown.count(by_clock) == 1
        assert markdown.index(by_clock) > markdown.index("fx-vector")  # on the answer the clock handed in
        assert pace in markdown
        assert slow in markdown and "`fx-number`" in markdown.split(slow)[1].split("\n")[0]
        assert "quiz practice --ids fx-vector,fx-number" in markdown
        assert report.missed == ("fx-vector", "fx-number")  # F5 practises both
