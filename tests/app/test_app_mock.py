"""Sitting a mock interview in the real app, driven by Textual's pilot at 80×24, in both languages.

The app, the core and a real history file (under the test's data directory) on the fixture pack
(the bundled bank for a follow-up); the interview's clocks are a clock the test moves, and the
clocks' timer is off, so each test ticks them by hand after moving the time (no real waiting).
"""

from __future__ import annotations

import pytest
from textual.widgets import Input, OptionList, TextArea

from fixture_bank import fixture_bank
from mock_app_helpers import SetClock
from mock_app_helpers import mock_app as mock_app_on
from mock_app_helpers import plan_of as plan_of_bank
from pilot_waits import history_open, settle
from quiz.bank import Bank, load_bank
from quiz.base.numbers import format_array_inline
from quiz.history.recorder import Recorder
from quiz.history.store import History, open_history
from quiz.mock.compose import MockPlan
from quiz.mock.options import MockOptions
from quiz.mock.session import MockSession
from quiz.types.options import correct_options, letter, shown
from quiz.ui.app import QuizApp
from quiz.ui.screens.home import HomeScreen
from quiz.ui.screens.mock import MockScreen
from quiz.ui.screens.mocksetup import MockSetupScreen, ResumeScreen
from quiz.ui.screens.question import QuestionScreen
from quiz.ui.screens.report import ReportScreen, reports_dir
from quiz.ui.screens.selfgrade import LevelPicker, SelfGradeScreen

SIZE = (80, 24)
BANK = fixture_bank()
LANGS = ["en", "ja"]


def plan_of(*question_ids: str, minutes: float = 10.0, seed: int = 3, bank: Bank = BANK) -> MockPlan:
    return plan_of_bank(bank, *question_ids, minutes=minutes, seed=seed)


def mock_app(plan: MockPlan | None, clock: SetClock, lang: str = "en", feedback: str = "end", bank: Bank = BANK) -> QuizApp:
    return mock_app_on(bank, plan, clock, lang, feedback)


def stored() -> History:
    history = open_history()
    assert isinstance(history, History), str(history)
    return history


def attempts_by_question() -> dict[str, tuple[str, str | None, float]]:
    """The mock attempts in the history file: question → (verdict, response, score)."""
    with stored() as history:
        return {a.question: (a.verdict, a.response, a.score) for a in history.attempts() if a.mode == "mock"}


async def tick(pilot, clock: SetClock, seconds: float) -> None:
    """Move the time on and let the clocks look at it (as their timer would)."""
    clock.now += seconds
    pilot.app.screen.clocks.tick()
    await settle(pilot)


async def answer_number(pilot, text: str) -> None:
    pilot.app.screen.query_one("#answer-input", Input).value = text
    await pilot.pause()
    await pilot.press("enter")
    await settle(pilot)


async def pick_right_option(pilot) -> None:
    variant = pilot.app.screen.session.current
    right = correct_options(variant)[0]
    await pilot.press(next(letter(n) for n, (i, _) in enumerate(shown(variant)) if i == right), "ctrl+s")
    await settle(pilot)


def footer_actions(app: QuizApp) -> set[str]:
    return {active.binding.action for active in app.screen.active_bindings.values() if active.binding.show}


@pytest.mark.parametrize("lang", LANGS)
async def test_a_whole_mock_is_sat_self_graded_and_reported(lang):
    clock = SetClock()
    app = mock_app(plan_of("fx-number", "fx-choice", "fx-explain"), clock, lang)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MockScreen)
        # Interview rules: no hint, give-up, model answer or new numbers in the footer.
        assert footer_actions(app) == {"submit", "end_interview", "help"}
        assert str(screen.query_one("#interview-clock").render()) == ("Interview 10:00 left" if lang == "en" else "面接 残り 10:00")
        await tick(pilot, clock, 30)
        await answer_number(pilot, format_array_inline(screen.session.current.answer))
        assert screen.session.position == (2, 3)
        assert not screen.query("#feedback")  # feedback waits for the end
        await tick(pilot, clock, 40)
        await pick_right_option(pilot)
        await tick(pilot, clock, 100)
        notes = screen.query_one("#notes", TextArea)
        notes.text = "variance of q·k grows with d_k"
        await pilot.press("ctrl+s")
        await settle(pilot)
        grading = app.screen
        assert isinstance(grading, SelfGradeScreen)
        assert "variance of q·k grows with d_k" in str(grading.query_one("#grade-notes").render())
        await pilot.press(*("4" * len(grading.pickers)), "ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ReportScreen)
        assert app.screen.missed == ()
        assert ("report" if lang == "en" else "レポート") in app.screen.markdown
        assert "practise_missed" not in footer_actions(app)  # nothing missed: nothing to practise
    attempts = attempts_by_question()
    assert {q: v for q, (v, _, _) in attempts.items()} == {"fx-number": "correct", "fx-choice": "correct", "fx-explain": "correct"}
    assert attempts["fx-explain"][1:] == ("variance of q·k grows with d_k", 1.0)  # the notes, and the self-grades' score
    with stored() as history:
        [row] = history.mocks()
        assert row.status == "finished" and row.lang == lang


@pytest.mark.parametrize("lang", LANGS)
async def test_time_up_hands_in_a_half_typed_answer_that_reads_as_one(lang):
    clock = SetClock()
    app = mock_app(plan_of("fx-number", "fx-vector", minutes=1), clock, lang)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one("#answer-input", Input).value = "1.2"  # typed, never submitted
        await tick(pilot, clock, 50)
        assert app.screen.query_one("#interview-clock").has_class("-warn")
        await tick(pilot, clock, 10)
        assert isinstance(app.screen, ReportScreen)
        assert app.screen.missed == ("fx-number",)
    assert attempts_by_question() == {"fx-number": ("incorrect", "1.2", 0.0), "fx-vector": ("not_reached", None, 0.0)}


@pytest.mark.parametrize("lang", LANGS)
async def test_time_up_with_nothing_readable_typed_records_no_answer(lang):
    clock = SetClock()
    app = mock_app(plan_of("fx-number", "fx-vector", minutes=1), clock, lang)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one("#answer-input", Input).value = "1.2 +"  # half a sum: not an answer
        await tick(pilot, clock, 61)
        assert isinstance(app.screen, ReportScreen)
        assert "practise_missed" in footer_actions(app)
    verdicts = {q: v for q, (v, _, _) in attempts_by_question().items()}
    assert verdicts == {"fx-number": "no_answer", "fx-vector": "not_reached"}


@pytest.mark.parametrize("touched", [False, True])
async def test_time_up_on_a_multi_question_left_alone_is_no_answer_and_one_unticked_again_is_none(touched):
    # Nothing ticked reads as "none of them", an answer; only a learner who touched the boxes gave it.
    clock = SetClock()
    app = mock_app(plan_of("fx-multi", "fx-vector", minutes=1), clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        if touched:
            await pilot.press("a", "a")  # ticked, then unticked: an answer of none, handed in
        await tick(pilot, clock, 61)
        assert isinstance(app.screen, ReportScreen)
    verdict, response, _ = attempts_by_question()["fx-multi"]
    assert (verdict, response) == (("incorrect", "none") if touched else ("no_answer", None))


async def test_a_question_over_its_budget_says_so_and_stays_open():
    clock = SetClock()
    app = mock_app(plan_of("fx-number", "fx-vector"), clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await tick(pilot, clock, 49)  # 11 s of 60 left
        question = app.screen.query_one("#question-clock")
        assert str(question.render()) == "Question 00:11 left of 01:00 · under 20 % of its time" and question.has_class("-warn")
        await tick(pilot, clock, 26)
        assert str(question.render()) == "Question 01:00 + 00:15 · over time" and question.has_class("-over")
        await answer_number(pilot, "1.25")
        assert app.screen.session.position == (2, 2)
    assert attempts_by_question()["fx-number"][0] == "correct"


@pytest.mark.parametrize("lang", LANGS)
async def test_a_follow_up_is_asked_and_marked_when_time_allows(lang):
    bank = load_bank()
    clock = SetClock()
    app = mock_app(plan_of("logit-soft-capping", "trained-scores-unit-variance", bank=bank), clock, lang, bank=bank)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        session = app.screen.session
        await tick(pilot, clock, 60)
        await answer_number(pilot, format_array_inline(session.current.answer))
        assert session.current.question.id == "qk-norm-ignores-weight-growth" and session.position == (2, 3)
        status = str(app.screen.query_one("#status").render())
        assert status.startswith("Question 2 of 3 · follow-up · " if lang == "en" else "3 問中 2 問目 · 追加の質問 · ")


@pytest.mark.parametrize("lang", LANGS)
async def test_feedback_each_shows_the_result_then_f6_asks_the_next(lang):
    clock = SetClock()
    app = mock_app(plan_of("fx-number", "fx-vector"), clock, lang, feedback="each")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await answer_number(pilot, "1.25")
        screen = app.screen
        assert screen.query("#feedback") and screen.answered
        assert footer_actions(app) == {"next_question", "end_interview", "help"}
        await pilot.press("f6")
        await settle(pilot)
        assert not screen.query("#feedback") and screen.variant.question.id == "fx-vector"


async def to_self_grading(pilot, clock: SetClock) -> SelfGradeScreen:
    """Answer a one-question mock's spoken question aloud (no notes) and reach its self-grading."""
    await settle(pilot)
    await tick(pilot, clock, 90)
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert isinstance(pilot.app.screen, SelfGradeScreen)
    return pilot.app.screen


async def test_self_grades_set_the_spoken_answers_score_and_every_point_needs_one():
    clock = SetClock()
    app = mock_app(plan_of("fx-explain"), clock, "ja")
    async with app.run_test(size=SIZE) as pilot:
        grading = await to_self_grading(pilot, clock)
        count = len(grading.pickers)
        await pilot.press("1", "ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, SelfGradeScreen)  # point 2 has no level yet
        assert "項目 2 にも評価をつけてください" in str(grading.query_one("#message").render())
        await pilot.press(*(["right", "right", "down"] * (count - 1)))  # "weak" for each other point
        assert [picker.level for picker in grading.query(LevelPicker)] == [0, *([1] * (count - 1))]
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert isinstance(app.screen, ReportScreen)
    _, notes, score = attempts_by_question()["fx-explain"]
    assert notes is None and score == pytest.approx((count - 1) / 3 / count)


async def test_a_key_press_after_the_last_points_level_never_wraps_round_to_change_point_1():
    clock = SetClock()
    app = mock_app(plan_of("fx-explain"), clock, "en")
    async with app.run_test(size=SIZE) as pilot:
        grading = await to_self_grading(pilot, clock)
        count = len(grading.pickers)
        await pilot.press(*(["3"] * count), "1", "down", "1")  # one level per point, then two keys too many
        await settle(pilot)
        assert [picker.level for picker in grading.query(LevelPicker)] == [2] * (count - 1) + [0]
        assert app.focused is list(grading.query(LevelPicker))[-1]
        await pilot.press(*(["up"] * (count + 2)), "2")  # up past the first point stays on it
        assert [picker.level for picker in grading.query(LevelPicker)] == [1] + [2] * (count - 2) + [0]


def crashed_mock(plan: MockPlan, clock: SetClock, answered: int) -> str:
    """A mock left running in the history file, as after kill -9: `answered` questions answered."""
    recorder = Recorder()
    session = MockSession.start(BANK, plan, recorder, lang="en", clock=clock, wall=clock.wall)
    for _ in range(answered):
        clock.now += 20
        session.submit(session.current.answer, format_array_inline(session.current.answer))
    recorder.close()  # the process ends here, nothing more written
    return session.mock_id


@pytest.mark.parametrize("lang", LANGS)
async def test_a_mock_left_running_by_a_crash_is_offered_and_resumed_with_its_clock(lang):
    clock = SetClock()
    crashed = crashed_mock(plan_of("fx-number", "fx-vector", minutes=5), clock, answered=1)
    clock.now += 100  # the app starts again later: the clock kept running
    app = mock_app(plan_of("fx-matrix"), clock, lang)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ResumeScreen) and crashed in [row.id for row in app.history.running_mocks()]
        await pilot.press("enter")  # Resume it
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MockScreen) and screen.session.mock_id == crashed
        assert screen.variant.question.id == "fx-vector" and screen.session.position == (2, 2)
        # 20 s and 100 s of its 5 minutes are gone.
        assert str(screen.query_one("#interview-clock").render()) == ("Interview 03:00 left" if lang == "en" else "面接 残り 03:00")
        await answer_number(pilot, format_array_inline(screen.session.current.answer))
        assert isinstance(app.screen, ReportScreen)
    assert {q: v for q, (v, _, _) in attempts_by_question().items()} == {"fx-number": "correct", "fx-vector": "correct"}


async def test_a_crashed_mock_past_its_deadline_is_closed_as_over_time_on_resume():
    clock = SetClock()
    crashed = crashed_mock(plan_of("fx-number", "fx-vector", minutes=1), clock, answered=1)
    clock.now += 3600
    app = mock_app(plan_of("fx-matrix"), clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ReportScreen)
    with stored() as history:
        assert history.running_mocks() == []
        verdicts = {a.question: a.verdict for a in history.attempts(mock=crashed)}
    assert verdicts == {"fx-number": "correct", "fx-vector": "no_answer"}


async def test_declining_to_resume_ends_the_old_mock_and_starts_the_new():
    clock = SetClock()
    crashed = crashed_mock(plan_of("fx-number", "fx-vector", minutes=5), clock, answered=1)
    app = mock_app(plan_of("fx-matrix"), clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("tab", "enter")  # Start the new one
        await settle(pilot)
        assert isinstance(app.screen, MockScreen) and app.screen.session.mock_id != crashed
        assert app.screen.variant.question.id == "fx-matrix"
        new = app.screen.session.mock_id
    with stored() as history:
        assert [row.id for row in history.running_mocks()] == [new]
        assert {row.id: row.status for row in history.mocks()}[crashed] == "finished"


async def test_a_crashed_mock_whose_stored_options_were_changed_is_ended_with_a_message_not_a_crash():
    """Issue 34: "minutes": "five" written into the history file by someone else's program."""
    import sqlite3

    from quiz.history.store import history_path

    clock = SetClock()
    crashed = crashed_mock(plan_of("fx-number", "fx-vector", minutes=5), clock, answered=1)
    with sqlite3.connect(history_path()) as connection:
        connection.execute("UPDATE mocks SET options = json_set(options, '$.minutes', 'five') WHERE id = ?", (crashed,))
    app = mock_app(plan_of("fx-matrix"), clock)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ResumeScreen)
        await pilot.press("enter")  # Resume it
        await settle(pilot)
        assert isinstance(app.screen, MockScreen) and app.screen.session.mock_id != crashed  # the new one, as asked
        toasts = [str(toast.render()) for toast in app.screen.query("Toast")]
        assert any("cannot be resumed" in text and "minutes must be a number, got 'five'" in text for text in toasts), toasts
        new = app.screen.session.mock_id
    with stored() as history:
        assert [row.id for row in history.running_mocks()] == [new]  # not offered again at the next start
        assert {row.id: row.status for row in history.mocks()}[crashed] == "finished"
        assert [a.verdict for a in history.attempts(mock=crashed)] == ["correct"]


@pytest.mark.parametrize("lang", LANGS)
async def test_home_offers_a_mock_with_the_commands_choices(lang):
    clock = SetClock()
    app = mock_app(None, clock, lang)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        menu = app.screen.query_one("#menu", OptionList)
        menu.highlighted = next(n for n in range(menu.option_count) if menu.get_option_at_index(n).id == "mock")
        await pilot.press("enter")
        await settle(pilot)
        setup = app.screen
        assert isinstance(setup, MockSetupScreen)
        setup.query_one("#mock-minutes", Input).value = "0"
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MockSetupScreen)  # refused, said in the interface language
        said = str(setup.query_one("#setup-message").render())
        assert said.startswith("Minutes: give a number above 0" if lang == "en" else "時間（分）：0 より大きく")
        setup.query_one("#mock-minutes", Input).value = "0.25"
        setup.query_one("#mock-seed", Input).value = "3"
        setup.query_one("#mock-minutes", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MockScreen)
        assert screen.session.plan.options == MockOptions(minutes=0.25, seed=3)
        assert screen.session.plan.key.startswith("mock-3-0.25m-")


@pytest.mark.parametrize("lang", LANGS)
async def test_the_next_start_of_the_app_offers_a_crashed_mock_on_home(lang):
    clock = SetClock()
    crashed = crashed_mock(plan_of("fx-number", "fx-vector", minutes=5), clock, answered=1)
    app = mock_app(None, clock, lang)
    async with app.run_test(size=SIZE) as pilot:
        await history_open(pilot)
        await settle(pilot)
        offer = app.screen
        assert isinstance(offer, ResumeScreen) and not offer.starting
        assert str(offer.query_one("#resume-no").label) == ("End it" if lang == "en" else "終了する")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MockScreen) and app.screen.session.mock_id == crashed
        assert app.screen.variant.question.id == "fx-vector"


async def test_ending_it_on_home_closes_the_crashed_mock_and_stays_home():
    clock = SetClock()
    crashed = crashed_mock(plan_of("fx-number", "fx-vector", minutes=5), clock, answered=1)
    app = mock_app(None, clock)
    async with app.run_test(size=SIZE) as pilot:
        await history_open(pilot)
        await settle(pilot)
        await pilot.press("tab", "enter")  # End it
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
    with stored() as history:
        assert history.running_mocks() == []
        assert {a.question: a.verdict for a in history.attempts(mock=crashed)} == {"fx-number": "correct", "fx-vector": "no_answer"}


async def test_esc_twice_ends_the_interview_and_what_is_typed_counts():
    clock = SetClock()
    app = mock_app(plan_of("fx-number", "fx-vector"), clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one("#answer-input", Input).value = "1.25"
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, MockScreen)  # once only asks
        assert str(app.screen.query_one("#message").render()).startswith("End the interview now? Press Esc again.")
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, ReportScreen)
    assert attempts_by_question() == {"fx-number": ("correct", "1.25", 1.0), "fx-vector": ("not_reached", None, 0.0)}


async def test_the_report_is_saved_as_markdown_and_f5_practises_exactly_what_was_missed():
    clock = SetClock()
    app = mock_app(plan_of("fx-number", "fx-vector", "fx-truefalse", minutes=3), clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await answer_number(pilot, "7")  # wrong
        await answer_number(pilot, format_array_inline(app.screen.session.current.answer))
        await tick(pilot, clock, 200)  # time up on the third: no answer
        report = app.screen
        assert isinstance(report, ReportScreen) and report.missed == ("fx-number", "fx-truefalse")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert report.saved is not None and report.saved.read_text(encoding="utf-8") == report.markdown
        assert report.saved.parent == reports_dir() and report.saved.suffix == ".md"
        await pilot.press("f5")
        await settle(pilot)
        practice = app.screen
        assert isinstance(practice, QuestionScreen) and practice.session.selection.ids == ("fx-number", "fx-truefalse")
        assert practice.variant.question.id == "fx-number"


async def test_time_up_under_the_help_screen_still_ends_on_the_report():
    clock = SetClock()
    app = mock_app(plan_of("fx-number", minutes=1), clock)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        mock = app.screen
        await pilot.press("f1")
        await settle(pilot)
        clock.now += 61
        mock.clocks.tick()  # its timer keeps running under the help
        await settle(pilot)
        assert isinstance(app.screen, ReportScreen) and len(app.screen_stack) == 3  # base, home, report
    assert attempts_by_question() == {"fx-number": ("no_answer", None, 0.0)}


@pytest.mark.parametrize("lang", LANGS)
async def test_a_pushback_is_put_in_the_mock_screen_and_held_or_revised_with_f7_or_f8(lang):
    bank = load_bank()
    clock = SetClock()
    app = mock_app(plan_of("prefill-compute-decode-bandwidth", "trained-scores-unit-variance", bank=bank), clock, lang, bank=bank)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        session = screen.session
        variant = session.current
        right = correct_options(variant)[0]
        letters = {i: letter(n) for n, (i, _) in enumerate(shown(variant))}
        wrong = next(i for i in letters if i != right)
        await pilot.press(letters[right] if lang == "en" else letters[wrong], "ctrl+s")
        await settle(pilot)
        prompt = str(screen.query_one("#pushback").render())
        if lang == "en":
            assert prompt.startswith("The interviewer pushes back: Are you sure? A decode step multiplies")
            assert "F7: hold your answer" in prompt
        else:
            assert prompt.startswith("面接官からの念押し：本当にそうでしょうか。デコード 1 ステップについて") and "F8：修正する" in prompt
        assert footer_actions(app) == {"hold", "revise", "end_interview", "help"} and session.current is None
        await pilot.press("ctrl+s")  # submitting again is not how a challenge is met
        await settle(pilot)
        assert screen.challenged and session.challenge is not None
        if lang == "en":
            await pilot.press("f7")
        else:
            await pilot.press(letters[right], "f8")
        await settle(pilot)
        assert not screen.query("#pushback") and not screen.challenged
        assert session.current.question.id == "trained-scores-unit-variance"
        assert footer_actions(app) == {"submit", "end_interview", "help"}
    with stored() as history:
        [met] = history.mock(session.mock_id).pushbacks
    assert (met.choice, met.verdict) == (("hold", "correct") if lang == "en" else ("revise", "correct"))


async def test_a_mock_resumed_while_a_pushback_waited_puts_it_again():
    bank = load_bank()
    clock = SetClock()
    recorder = Recorder()
    plan = plan_of("prefill-compute-decode-bandwidth", "trained-scores-unit-variance", bank=bank)
    session = MockSession.start(bank, plan, recorder, lang="en", clock=clock, wall=clock.wall)
    clock.now += 20
    session.submit(correct_options(session.current)[0])
    assert session.challenge is not None
    recorder.close()  # the process ends with the challenge put and not met
    app = mock_app(plan_of("fx-matrix"), clock, bank=bank)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # Resume it
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MockScreen) and screen.challenged and screen.variant.question.id == "prefill-compute-decode-bandwidth"
        assert str(screen.query_one("#pushback").render()).startswith("The interviewer pushes back: Are you sure?")
        await pilot.press("f7")
        await settle(pilot)
        assert screen.variant.question.id == "trained-scores-unit-variance"
