"""Snapshots of the mock interview on the fixture pack: the running clocks, their warnings, the
self-grading screen and the report, in English and Japanese at 80×24, and the interview at 120×40.

Each SVG was looked at (as a PNG) before it was accepted. The interview's clocks read a clock set
by the test and their timer is off, so each picture shows the time the test set; the app's own
clock (`NOW`) is fixed as in tests/snapshots/test_snapshots.py.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from fixture_bank import fixture_bank
from history_seed import NOW
from mock_app_helpers import SetClock, mock_app, plan_of
from pilot_waits import steady

BANK = fixture_bank()
LANGS = ["en", "ja"]
SMALL = (80, 24)


def app_for(lang: str, clock: SetClock, *question_ids: str, minutes: float = 10.0):
    return mock_app(BANK, plan_of(BANK, *question_ids, minutes=minutes), clock, lang, now=lambda: NOW)


def after(clock: SetClock, seconds: float):
    """Run before the picture: the time moves on by `seconds` and the clocks look at it."""

    async def run(pilot: Pilot) -> None:
        await steady(pilot)
        clock.now += seconds
        pilot.app.screen.clocks.tick()
        await steady(pilot)

    return run


@pytest.mark.parametrize("lang", LANGS)
def test_mock_running_clocks(snap_compare, lang):
    """Under way: the interview's time left and the question's against its budget; only Ctrl+S,
    Esc (end) and F1 in the footer."""
    clock = SetClock()
    assert snap_compare(app_for(lang, clock, "fx-vector", "fx-number"), terminal_size=SMALL, run_before=after(clock, 25))


@pytest.mark.parametrize("lang", LANGS)
def test_mock_warnings(snap_compare, lang):
    """The last minute of the interview and the question past its budget, in colour and in words."""
    clock = SetClock()
    assert snap_compare(app_for(lang, clock, "fx-vector", "fx-number", minutes=2.5), terminal_size=SMALL, run_before=after(clock, 100))


@pytest.mark.parametrize("lang", LANGS)
def test_mock_self_grading(snap_compare, lang):
    """A spoken answer's notes, the model answer, and a level for each checklist point."""
    clock = SetClock()

    async def answered(pilot: Pilot) -> None:
        await steady(pilot)
        clock.now += 140
        pilot.app.screen.query_one("#notes", TextArea).text = "Var(q·k) = d_k; divide by √d_k"
        await pilot.press("ctrl+s")
        await steady(pilot)
        await pilot.press("3", "4")
        await steady(pilot)

    assert snap_compare(app_for(lang, clock, "fx-explain"), terminal_size=SMALL, run_before=answered)


@pytest.mark.parametrize("lang", LANGS)
def test_mock_report(snap_compare, lang):
    """The report after a right answer and a time-out with nothing typed."""
    clock = SetClock()

    async def to_the_report(pilot: Pilot) -> None:
        await steady(pilot)
        clock.now += 30
        pilot.app.screen.query_one("#answer-input", Input).value = "1.25"
        await pilot.press("enter")
        await steady(pilot)
        clock.now += 100
        pilot.app.screen.clocks.tick()
        await steady(pilot)

    assert snap_compare(app_for(lang, clock, "fx-number", "fx-vector", minutes=2), terminal_size=SMALL, run_before=to_the_report)


def test_mock_wide(snap_compare):
    """At 120×40: the clocks at either end of their bar, the question below."""
    clock = SetClock()
    assert snap_compare(app_for("en", clock, "fx-matrix", "fx-number"), terminal_size=(120, 40), run_before=after(clock, 250))
