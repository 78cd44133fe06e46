"""Personal FSRS in the real app, through Textual's pilot, on a real history file in the test's
data directory: the statistics screen's figures, the refit after answers (in a worker), and the
desired retention in Settings with its expected daily load shown before it is saved."""

from __future__ import annotations

from datetime import timedelta

from textual.widgets import Button, DataTable, Input, Select, Static

from fixture_bank import fixture_bank
from history_records import open_store
from history_seed import NOW
from pilot_waits import history_open, load_shown, settle, statistics_shown
from quiz.bank import Selection
from quiz.history import personal
from quiz.history.records import to_ms
from quiz.history.store import history_path
from quiz.ui.app import make_app
from quiz.ui.messages import OpenStatistics
from quiz.ui.screens.settings import SettingsScreen
from quiz.ui.screens.stats import StatisticsScreen
from synthetic_reviews import synthetic_attempts

BANK = fixture_bank()
SIZE = (100, 40)


def seed(count: int, *, fitted: bool = False) -> None:
    """`count` attempts drawn from a known memory model, all before the app's clock."""
    start = NOW - timedelta(days=120)
    attempts = [a for a in synthetic_attempts(count, seed=21, start_ms=to_ms(start)) if a.at_ms < to_ms(NOW)]
    with open_store(history_path()) as history:
        history.add_attempts([(a, False) for a in attempts])
        if fitted:
            personal.refit(history)


def standing() -> personal.Standing:
    with open_store(history_path()) as history:
        return personal.standing(history)


async def test_the_statistics_screen_shows_both_sets_as_quiz_stats_does():
    seed(1500, fitted=True)
    expected = standing()
    assert expected.fit is not None and expected.fit.uses_fitted
    app = make_app(seed=7, bank=BANK, now=lambda: NOW)
    async with app.run_test(size=SIZE) as pilot:
        await history_open(pilot)
        app.post_message(OpenStatistics())
        await statistics_shown(pilot)
        screen = app.screen
        assert isinstance(screen, StatisticsScreen)
        table = screen.query_one("#stats-fsrs", DataTable)
        rows = [tuple(str(cell) for cell in table.get_row_at(i)) for i in range(table.row_count)]
        assert rows == personal.figure_rows(expected.fit, "en")[1:]
        assert rows[1][0] == "fitted to you (in use)"
        assert str(screen.query_one("#stats-fsrs-status", Static).render()) == personal.status_text(expected, "en")


async def test_answers_refit_the_scheduler_in_a_worker_once_enough_came_since_the_last_fit():
    seed(300)
    assert standing().fit is None
    app = make_app(start=Selection(ids=("fx-vector", "fx-number")), seed=7, bank=BANK, now=lambda: NOW)
    async with app.run_test(size=SIZE) as pilot:
        await history_open(pilot)
        app.screen.query_one("#answer-input", Input).value = "0.881 0.119"
        await pilot.press("enter")
        await settle(pilot)
        await app.workers.wait_for_complete()  # the refit runs off the event loop
        first = standing().fit
        assert first is not None
        with open_store(history_path()) as history:
            assert first.attempts == history.review_count()  # fitted with the answer just given
            assert tuple(history.parameters().parameters) == first.chosen()
        await pilot.press("f6")  # the next question
        await settle(pilot)
        app.screen.query_one("#answer-input", Input).value = "1"
        await pilot.press("enter")
        await settle(pilot)
        await app.workers.wait_for_complete()
        assert standing().fit == first  # one answer since: no refit before REFIT_AFTER more


async def test_settings_show_the_daily_load_of_a_retention_before_it_is_saved():
    seed(400)
    app = make_app(seed=7, bank=BANK, now=lambda: NOW)
    async with app.run_test(size=SIZE) as pilot:
        await history_open(pilot)
        await pilot.press("f8")
        await load_shown(pilot)
        screen = app.screen
        assert isinstance(screen, SettingsScreen) and screen.retention == 0.9
        assert screen.query_one("#retention-save", Button).disabled
        screen.query_one("#retention", Select).value = 0.8
        await load_shown(pilot)
        with open_store(history_path()) as history:
            expected = personal.daily_load(history, 0.8, NOW)
            assert history.parameters().desired_retention == 0.9  # not saved yet
        assert screen.load == expected and expected.mean > 0
        shown = str(screen.query_one("#retention-load", Static).render())
        assert shown.startswith(f"At 0.80: about {expected.mean:.1f} reviews a day over the next 30 days, {expected.peak} on the busiest day")
        await pilot.click("#retention-save")
        await settle(pilot)
        await app.workers.wait_for_complete()
        assert screen.query_one("#retention-save", Button).disabled
    with open_store(history_path()) as history:
        assert history.parameters().desired_retention == 0.8
