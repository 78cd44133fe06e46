"""The mock interview's clocks: what they say at each moment, in both languages, on a set clock."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Static

from quiz.mock.clock import Countdown
from quiz.ui.widgets.clocks import ClockBar, interview_clock_text, question_clock_text


class SetClock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(
    ("elapsed", "en", "ja", "state"),
    [
        (0, "Interview 30:00 left", "面接 残り 30:00", None),
        (1739.5, "Interview 01:01 left", "面接 残り 01:01", None),
        (1741, "Interview 00:59 left · 1 min left", "面接 残り 00:59 · 残り 1 分", "-warn"),
        (1800, "Interview 00:00 · time is up", "面接 00:00 · 時間切れ", "-over"),
    ],
)
def test_the_interview_clock_warns_in_its_last_minute_in_words_and_colour(elapsed, en, ja, state):
    clock = SetClock()
    countdown = Countdown(clock.now, 1800.0, clock)
    clock.now += elapsed
    assert interview_clock_text(countdown, "en") == (en, state)
    assert interview_clock_text(countdown, "ja") == (ja, state)


def test_a_short_interview_warns_in_its_last_fifth():
    clock = SetClock()
    countdown = Countdown(clock.now, 15.0, clock)
    clock.now += 12.5
    assert interview_clock_text(countdown, "en") == ("Interview 00:03 left · under 20 % of its time", "-warn")


@pytest.mark.parametrize(
    ("elapsed", "en", "ja", "state"),
    [
        (0, "Question 02:00 left of 02:00", "この問題 残り 02:00／02:00", None),
        (95, "Question 00:25 left of 02:00", "この問題 残り 00:25／02:00", None),
        (97, "Question 00:23 left of 02:00 · under 20 % of its time", "この問題 残り 00:23／02:00 · 持ち時間の 20 % を切りました", "-warn"),
        (135, "Question 02:00 + 00:15 · over time", "この問題 02:00 + 00:15 · 時間超過", "-over"),
    ],
)
def test_the_question_clock_warns_at_a_fifth_left_and_counts_on_when_over(elapsed, en, ja, state):
    clock = SetClock()
    countdown = Countdown(clock.now, 120.0, clock)
    clock.now += elapsed
    assert question_clock_text(countdown, "en") == (en, state)
    assert question_clock_text(countdown, "ja") == (ja, state)


class ClockApp(App[None]):
    def __init__(self, clock: SetClock) -> None:
        super().__init__()
        self.bar = ClockBar("en", Countdown(clock.now, 600.0, clock), Countdown(clock.now, 30.0, clock), ticking=False)
        self.time_up = 0

    def compose(self) -> ComposeResult:
        yield self.bar
        yield Static("the rest of the screen", id="rest")

    def on_clock_bar_time_up(self) -> None:
        self.time_up += 1


async def test_a_tick_redraws_only_a_clock_whose_text_changed_and_says_time_up_once():
    clock = SetClock()
    app = ClockApp(clock)
    async with app.run_test(size=(80, 24)) as pilot:
        interview = app.query_one("#interview-clock", Static)
        question = app.query_one("#question-clock", Static)
        rest = app.query_one("#rest", Static)
        drawn = {"interview": 0, "question": 0, "rest": 0}
        for name, widget in (("interview", interview), ("question", question), ("rest", rest)):
            original = widget.refresh

            def counting(*args, _original=original, _name=name, **kwargs):
                drawn[_name] += 1
                return _original(*args, **kwargs)

            widget.refresh = counting  # type: ignore[method-assign]
        app.bar.tick()  # the same second: nothing redrawn
        assert drawn == {"interview": 0, "question": 0, "rest": 0}
        clock.now += 541
        app.bar.tick()
        assert drawn["interview"] >= 1 and drawn["question"] >= 1 and drawn["rest"] == 0
        assert str(interview.render()) == "Interview 00:59 left · 1 min left"
        assert interview.has_class("-warn")
        clock.now += 59
        app.bar.tick()
        app.bar.tick()
        await pilot.pause()
        assert app.time_up == 1
        assert interview.has_class("-over") and question.has_class("-over")
        assert str(question.render()) == "Question 00:30 + 09:30 · over time"


@pytest.mark.parametrize(("value", "speed"), [("", 1), ("10", 10), ("1000", 1000), ("0", 1), ("-2", 1), ("0.5", 1), ("1001", 1), ("fast", 1)])
def test_the_interview_clock_can_only_be_made_faster(value, speed):
    from quiz.mock.clock import SPEED_VARIABLE, clock_speed

    assert clock_speed({SPEED_VARIABLE: value}) == speed


def test_a_faster_interview_clock_reads_on_a_boot_of_its_own(monkeypatch):
    from quiz.mock import clock

    monkeypatch.delenv(clock.SPEED_VARIABLE, raising=False)
    boot, before = clock.boot_id(), clock.interview_clock()
    monkeypatch.setenv(clock.SPEED_VARIABLE, "10")
    assert clock.interview_clock() >= 10 * before
    if boot:  # readings at another speed are never compared with this boot's
        assert clock.boot_id() != boot
