"""The study plan in the app: the real app on the fixture pack, the real history file in the test's
data directory holding the plan's settings, driven with Textual's pilot at a fixed clock. Home says
the days left and today's load; practising everything and reviewing follow today's plan; without a
plan home shows no line and both work as before. The statistics screen shows the learner's
picture by claim."""

from __future__ import annotations

from datetime import timedelta

from textual.widgets import DataTable, Static

from fixture_bank import fixture_bank
from history_records import attempt, open_store
from history_seed import NOW, seed_history
from pilot_waits import history_open, settle, statistics_shown
from quiz.history.records import to_ms
from quiz.history.store import history_path
from quiz.learning.picture import learner_picture
from quiz.learning.plan import questions_for_plan
from quiz.learning.plan_store import PlanSettings, save_plan_settings, stored_plan
from quiz.ui.app import make_app
from quiz.ui.screens.home import HomeScreen
from quiz.ui.screens.question import QuestionScreen
from quiz.ui.screens.stats import StatisticsScreen
from test_app_history import choose

BANK = fixture_bank()
SIZE = (100, 40)
INTERVIEW = NOW.date() + timedelta(days=10)


def set_plan(minutes: int = 10, studied: tuple[str, ...] = ()):
    """Keep a plan in the history file (some questions answered, one wrongly, two days ago) and
    return the plan the app should show at NOW."""
    with open_store(history_path()) as history:
        for n, question in enumerate(studied):
            wrong = n == 0
            at = to_ms(NOW - timedelta(days=2)) + n * 60_000
            history.record(attempt(question, at, score=0.0 if wrong else 1.0, verdict="incorrect" if wrong else "correct"))
        save_plan_settings(history, PlanSettings(INTERVIEW, minutes), NOW.date())
        return stored_plan(history, questions_for_plan(BANK.questions.values()), NOW)


def plan_text(app) -> str:
    return str(app.screen.query_one("#plan", Static).render())


async def started(pilot) -> None:
    await history_open(pilot)
    await settle(pilot)


async def test_home_shows_the_plan_and_practise_everything_asks_todays_questions():
    plan = set_plan()
    today = plan.days[0]
    app = make_app(seed=7, bank=BANK, now=lambda: NOW)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        assert app.screen.query_one("#plan", Static).display
        minutes = round(today.seconds / 60)
        expected = f"Interview on {INTERVIEW} (10 days left) · today: {today.count('new')} new, {today.count('review')} reviews, {minutes} min"
        assert plan_text(app) == expected
        await choose(pilot, "#menu", "practice_all")
        assert isinstance(app.screen, QuestionScreen)
        session = app.screen.session
        assert session.selection.ids == tuple(item.question for item in today.items) and session.mode == "practice"
        assert session.size == len(today.items) < len(BANK.questions)


async def test_review_follows_the_plans_reviews_for_today():
    plan = set_plan(minutes=20, studied=("fx-vector", "fx-number", "fx-choice"))
    reviews = tuple(item.question for item in plan.days[0].items if item.kind == "review")
    assert reviews and reviews[0] == "fx-vector"  # the one answered wrongly comes first
    app = make_app(seed=7, bank=BANK, now=lambda: NOW)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        await choose(pilot, "#menu", "review_due")
        assert isinstance(app.screen, QuestionScreen)
        session = app.screen.session
        assert session.mode == "review" and session.selection.ids == reviews


async def test_without_a_plan_home_has_no_plan_line_and_practice_asks_everything():
    app = make_app(seed=7, bank=BANK, now=lambda: NOW)
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        assert isinstance(app.screen, HomeScreen) and not app.screen.query_one("#plan", Static).display
        await choose(pilot, "#menu", "practice_all")
        assert app.screen.session.size == len(BANK.questions) and app.screen.session.selection.ids == ()


async def test_the_plan_line_in_japanese():
    plan = set_plan()
    today = plan.days[0]
    app = make_app(seed=7, bank=BANK, now=lambda: NOW, lang="ja")
    async with app.run_test(size=SIZE) as pilot:
        await started(pilot)
        assert plan_text(app).startswith(f"面接日 {INTERVIEW}（あと 10 日）· 今日：新規 {today.count('new')} 問")


async def test_the_statistics_screen_shows_the_learners_picture_by_claim():
    seed_history()
    with open_store(history_path()) as history:
        expected = learner_picture(history, questions_for_plan(BANK.questions.values()), NOW)
    assert expected.weak and expected.recurring and expected.next_questions
    app = make_app(seed=7, bank=BANK, now=lambda: NOW)
    async with app.run_test(size=(120, 40)) as pilot:
        await started(pilot)
        await choose(pilot, "#menu", "statistics")
        await statistics_shown(pilot)
        screen = app.screen
        assert isinstance(screen, StatisticsScreen) and screen.picture == expected
        weak = screen.query_one("#stats-weak", DataTable)
        rows = [weak.get_row_at(i) for i in range(weak.row_count)]
        assert [str(row[0]).split()[0] for row in rows] == [c.claim for c in expected.weak]
        assert [row[1] for row in rows] == [f"{c.recall:.0%}" for c in expected.weak]
        recurring = str(screen.query_one("#stats-recurring", Static).render())
        first = expected.recurring[0]
        assert f": {first.times} times ({', '.join(first.claims)})" in recurring.splitlines()[0]
        following = str(screen.query_one("#stats-next", Static).render()).splitlines()
        assert [line.split()[0] for line in following[: len(expected.next_questions)]] == list(expected.next_questions)
