"""Edit, run, fix in the real app: once a code question is graded, Ctrl+S runs the real sandbox on the
code as edited, as often as the candidate likes, each run shown with its checklist and the mistake
named; only the first submission is an attempt (practice and mock alike). F9 and F5 after grading.
After passing or giving up, the shipped reference solution is shown beside (or below) the candidate's."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from fixture_bank import code_fixture_bank
from mock_app_helpers import SetClock, mock_app, plan_of
from pilot_waits import settle
from quiz.code import reference_solution
from quiz.history.store import open_history
from quiz.types.code import CodeAnswer, run_answer
from quiz.ui.screens.mock import MockScreen
from quiz.ui.widgets.code_compare import CodeListing
from solution_files import solution
from test_app_code import SIZE, editor, fake_editor, paste, run_checks, start, suspendable, text_of
from test_app_layout import assert_footer_keys_whole

__all__ = ["suspendable"]  # the fixture, used by name below

BANK = code_fixture_bank()


def footer(app) -> dict[str, str]:
    """The footer's keys and their descriptions, as shown."""
    return {key: b.binding.description for key, b in app.screen.active_bindings.items() if b.binding.show}


def run_panel(app) -> tuple[str, str]:
    """The last run's title and checklist, as shown above the feedback."""
    title = str(app.screen.query_one("#code-run .section-title", Static).render())
    return title, text_of(app, "#code-run-checks")


async def test_after_grading_ctrl_s_runs_the_fixed_code_again_each_time_named_and_never_recorded():
    attempts: list = []
    app = start("fx-code#4", attempts)
    async with app.run_test(size=SIZE) as pilot:
        await paste(pilot, solution("attention", "missing_scale"))
        await run_checks(pilot)
        verdict = str(app.screen.query_one("#verdict").render())
        assert verdict.startswith("Partly correct") and len(attempts) == 1 and attempts[0].misconception == "missing_scale"
        assert not editor(app).read_only  # the code can be fixed
        assert footer(app)["ctrl+s"] == "Run again"
        await paste(pilot, solution("attention", "reference"))
        await run_checks(pilot)
        title, checks = run_panel(app)
        assert title.startswith("Run 2: not graded (your graded submission stands, ")
        assert "✗" not in checks and "6 of 6 checks passed" in checks
        await paste(pilot, solution("attention", "mask_after_softmax"))
        await run_checks(pilot)
        title, checks = run_panel(app)
        assert title.startswith("Run 3: not graded") and len(app.screen.query("#code-run")) == 1
        assert "✗" in checks and "Your answer matches a known mistake: Your function zeroes masked weights after the softmax" in checks
        assert str(app.screen.query_one("#verdict").render()) == verdict  # the graded one stands
        assert editor(app).has_focus  # the candidate goes on editing
    assert len(attempts) == 1


async def test_a_run_again_in_japanese_says_it_is_not_graded():
    app = start("fx-code#4", lang="ja")
    async with app.run_test(size=SIZE) as pilot:
        await paste(pilot, solution("attention", "missing_scale"))
        await run_checks(pilot)
        assert footer(app)["ctrl+s"] == "もう一度実行"
        await paste(pilot, solution("attention", "reference"))
        await run_checks(pilot)
        assert run_panel(app)[0].startswith("2 回目の実行：採点対象外")


async def test_f9_after_grading_loads_the_code_back_for_the_next_run(tmp_path, monkeypatch, suspendable):
    reference = solution("attention", "reference")
    monkeypatch.setenv("EDITOR", fake_editor(tmp_path, f"path.write_text({reference!r})\n"))
    app = start("fx-code#4")
    async with app.run_test(size=SIZE) as pilot:
        await paste(pilot, solution("attention", "missing_scale"))
        await run_checks(pilot)
        assert "f9" in footer(app)
        await pilot.press("f9")
        await settle(pilot)
        assert editor(app).text == reference
        await run_checks(pilot)
        assert "6 of 6 checks passed" in run_panel(app)[1]


async def test_f5_is_offered_once_graded_and_draws_new_inputs_keeping_the_code():
    attempts: list = []
    app = start("fx-code#4", attempts)
    async with app.run_test(size=(80, 24)) as pilot:
        assert "f5" not in footer(app)  # before grading F2 and F3 need the room (the help lists F5)
        wrong = solution("attention", "missing_scale")
        await paste(pilot, wrong)
        await run_checks(pilot)
        assert footer(app)["f5"] == "New numbers"
        assert_footer_keys_whole(app, {"ctrl+s", "f5", "f6", "f9", "escape", "f1"})
        await pilot.press("f5")
        await settle(pilot)
        assert app.screen.variant.key != "fx-code#4" and editor(app).text == wrong
        fresh = app.screen.variant.key
        await run_checks(pilot)  # a new variant: graded, as any question drawn afresh
        assert str(app.screen.query_one("#verdict").render()).startswith("Partly correct")
    assert [a.key for a in attempts] == ["fx-code#4", fresh]


async def test_in_a_mock_the_first_submission_stays_the_graded_one_and_runs_after_it_are_not_recorded():
    clock = SetClock()
    app = mock_app(BANK, plan_of(BANK, "fx-code", "fx-code-mask"), clock, feedback="each")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await paste(pilot, solution("attention", "missing_scale"))
        await run_checks(pilot)
        screen = app.screen
        assert isinstance(screen, MockScreen) and screen.answered
        await paste(pilot, solution("attention", "reference"))
        await run_checks(pilot)
        assert run_panel(app)[0].startswith("Run 2: not graded")
        assert footer(app)["ctrl+s"] == "Run again"
        await pilot.press("f6")
        await settle(pilot)
        assert screen.variant.question.id == "fx-code-mask"
    with open_history() as history:
        [attempt] = [a for a in history.attempts() if a.mode == "mock"]
    assert (attempt.question, attempt.misconception) == ("fx-code", "missing_scale")


def listing(app, selector: str) -> str:
    return app.screen.query_one(selector, CodeListing).code


@pytest.mark.parametrize("size, beside", [((120, 40), True), ((80, 24), False)])
async def test_after_passing_the_reference_solution_is_shown_beside_or_below_the_candidates(size, beside):
    app = start("fx-code-mask#5")
    async with app.run_test(size=size) as pilot:
        mine = solution("causal_mask", "reference").replace("    return", "    # keys j <= i\n    return")
        await paste(pilot, mine)
        await run_checks(pilot)
        assert listing(app, "#your-solution") == mine
        assert listing(app, "#reference-solution") == reference_solution("causal_mask")
        yours, reference = (app.screen.query_one(f"#{name}-solution").region for name in ("your", "reference"))
        assert (yours.y == reference.y and yours.right <= reference.x) if beside else (yours.x == reference.x and yours.bottom <= reference.y)


async def test_after_giving_up_the_shown_reference_passes_every_check_of_the_question():
    app = start("fx-code#3")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f3", "f3")
        await settle(pilot)
        assert not app.screen.query("#your-solution")  # the starter was never changed: nothing of theirs to show
        shown = listing(app, "#reference-solution")
        variant = app.screen.variant
    answer = run_answer(variant, shown)
    assert isinstance(answer, CodeAnswer) and answer.outcome.score == 1.0 and answer.outcome.misconception is None


async def test_a_partly_right_answer_shows_no_reference_while_the_candidate_can_still_fix_it():
    app = start("fx-code#4")
    async with app.run_test(size=SIZE) as pilot:
        await paste(pilot, solution("attention", "missing_scale"))
        await run_checks(pilot)
        assert not app.screen.query("#code-compare")
