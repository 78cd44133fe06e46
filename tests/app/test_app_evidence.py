"""End-to-end: an evidence question of the bundled bank in the real app, driven by the pilot.

The keys are those the help promises: a figure's number asks for it (its value appears below the
list), Tab moves to the faults, a letter marks one and Enter submits.
"""

from __future__ import annotations

from textual.widgets import Static

from pilot_waits import settle
from places import ROOT
from quiz.bank import Selection, load_bank
from quiz.types.options import letter, shown
from quiz.ui.answer_widgets.evidence import FigureList
from quiz.ui.app import make_app
from quiz.ui.screens.question import QuestionScreen

BANK = load_bank([ROOT / "questions" / "diagnosis-evidence.yaml"])
KEY = "evidence-causal-head#3"


def start(attempts: list):
    return make_app(start=Selection(key=KEY), seed=7, bank=BANK, on_attempt=attempts.append)


def revealed(app) -> list[str]:
    return [str(s.render()) for s in app.screen.query(".evidence-value").results(Static)]


async def test_figures_asked_for_by_number_are_shown_costed_and_recorded_in_order():
    attempts: list = []
    app = start(attempts)
    async with app.run_test(size=(100, 45)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, QuestionScreen)
        variant = app.screen.session.variant
        assert app.focused is app.screen.query_one(FigureList)
        footer = " ".join(str(key.render()) for key in app.screen.query("FooterKey"))
        assert "Ask for the highlighted figure" in footer
        await pilot.press("2")  # the largest weight of each row: 0.1 of the mark
        await pilot.press("5")  # the weights themselves, the telling figure, but asked second: 0.3
        await pilot.press("5")  # asked again: shown once, charged once
        await settle(pilot)
        [top, weights] = revealed(app)
        assert top.startswith("1. Largest weight of each row (costs 0.1 of the mark):\n[")
        assert weights.startswith("2. The weights themselves (rows: queries, columns: keys) (costs 0.3 of the mark):\n⎡")
        right = next(letter(n) for n, (i, _) in enumerate(shown(variant)) if i == variant.answer)
        await pilot.press("tab", right, "enter")
        await settle(pilot)
        assert str(app.screen.query_one("#verdict").render()).startswith("Partly correct · Score 0.60")
        feedback = " ".join(str(s.render()) for s in app.screen.query("#feedback Static").results(Static))
        assert "Best first request: The weights themselves" in feedback
    [attempt] = attempts
    assert attempt.question == "evidence-causal-head" and attempt.response == f"ask max_weight weights; answer {right}"
    assert attempt.score == 0.6


async def test_a_tiny_terminal_says_so_and_the_question_is_answered_once_it_grows():
    attempts: list = []
    app = start(attempts)
    async with app.run_test(size=(40, 14)) as pilot:
        await settle(pilot)
        assert app.screen.query_one("#too-small").display
        await pilot.press("5", "tab", "a", "enter")  # nothing to press on: no traceback, nothing recorded
        await settle(pilot)
        assert attempts == [] and revealed(app) == []
        await pilot.resize_terminal(60, 20)
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        assert len(revealed(app)) == 1
        footer = " ".join(str(key.render()) for key in app.screen.query("FooterKey"))
        assert "Ask" in footer  # the short label on a narrow terminal
        variant = app.screen.session.variant
        right = next(letter(n) for n, (i, _) in enumerate(shown(variant)) if i == variant.answer)
        await pilot.press("tab", right, "enter")
        await settle(pilot)
    [attempt] = attempts
    assert attempt.score == 1.0 and attempt.response == f"ask weights; answer {right}"
