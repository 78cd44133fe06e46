"""The mock interview's clocks, in the header area: what is left of the whole interview and of the
current question's budget, each warning in colour and in words (so NO_COLOR still says it).

The clocks read `Countdown`s (quiz.mock.clock), whose clock is injected: tests set the time and
call `tick()`. A timer calls `tick()` a few times a second; it redraws a clock's own Static only
when its text changes, and lays it out again only when the text's width changes, so the ticking
never refreshes the rest of the screen. When the interview's time is up the bar says so once,
with `ClockBar.TimeUp`, and the screen ends the interview.
"""

from __future__ import annotations

from typing import Final

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Static

from quiz.locale.i18n import tr
from quiz.mock.clock import INTERVIEW_WARNING, QUESTION_WARNING, Countdown, clock_text

TICK: Final = 0.25
"""Seconds between looks at the clock: a shown second turns at most this late."""
STATES: Final = ("-warn", "-over")


def interview_clock_text(countdown: Countdown, lang: str) -> tuple[str, str | None]:
    """The interview's clock as shown, and its state class (`-warn`, `-over` or None)."""
    time = clock_text(countdown.remaining())
    if countdown.over():
        return tr("mockapp.clock_interview_over", lang, time=time), "-over"
    if countdown.warn_interview():
        # The last minute, or the last fifth of an interview shorter than five minutes.
        last_minute = QUESTION_WARNING * countdown.length >= INTERVIEW_WARNING
        warning = tr("mockapp.warn_minute" if last_minute else "mockapp.warn_share", lang, share=round(QUESTION_WARNING * 100))
        return tr("mockapp.clock_interview_warn", lang, time=time, warning=warning), "-warn"
    return tr("mockapp.clock_interview", lang, time=time), None


def question_clock_text(countdown: Countdown, lang: str) -> tuple[str, str | None]:
    """The current question's clock against its budget, and its state class."""
    budget = clock_text(countdown.length)
    if countdown.over():
        # Real interviews run over: the question stays open and the clock counts what it overran.
        over = clock_text(countdown.elapsed() - countdown.length)
        return tr("mockapp.clock_question_over", lang, over=over, budget=budget), "-over"
    time = clock_text(countdown.remaining())
    if countdown.warn_question():
        warning = tr("mockapp.warn_share", lang, share=round(QUESTION_WARNING * 100))
        return tr("mockapp.clock_question_warn", lang, time=time, budget=budget, warning=warning), "-warn"
    return tr("mockapp.clock_question", lang, time=time, budget=budget), None


class ClockBar(Horizontal):
    """The interview's clock on the left, the current question's on the right."""

    # A reusable widget: its one line of styles travels with it. Bold as well as coloured, so a
    # warning stands out under NO_COLOR too (where the words carry it).
    DEFAULT_CSS = """
    ClockBar {
        height: 1;
        padding: 0 1;
        background: $boost;
    }
    ClockBar Static {
        width: auto;
        padding: 0 1;
    }
    ClockBar #question-clock {
        dock: right;
    }
    ClockBar .-warn {
        background: $warning 60%;
        text-style: bold;
    }
    ClockBar .-over {
        background: $error 60%;
        text-style: bold;
    }
    """

    class TimeUp(Message):
        """The interview's time is up (posted once)."""

    def __init__(self, lang: str, interview: Countdown, question: Countdown | None = None, *, ticking: bool = True) -> None:
        super().__init__(id="clock-bar")
        self.lang = lang
        self.interview = interview
        self._question = question
        self.ticking = ticking
        """Whether a timer ticks the clocks (off for a still picture of them, or to measure without it)."""
        self.timer: Timer | None = None
        self._told = False
        self._shown: dict[str, tuple[str, str | None]] = {}

    def compose(self) -> ComposeResult:
        yield Static(id="interview-clock", markup=False)
        yield Static(id="question-clock", markup=False)

    def on_mount(self) -> None:
        self.tick()
        if self.ticking:
            self.timer = self.set_interval(TICK, self.tick)

    @property
    def question(self) -> Countdown | None:
        return self._question

    @question.setter
    def question(self, countdown: Countdown | None) -> None:
        """A new question's budget (None once there is no question): shown at once."""
        self._question = countdown
        self.tick()

    def stop(self) -> None:
        """Stop ticking: the interview is over."""
        if self.timer is not None:
            self.timer.stop()
            self.timer = None

    def tick(self) -> None:
        """Show the time now; say once when the interview's time is up."""
        self._show("#interview-clock", interview_clock_text(self.interview, self.lang))
        question = self._question
        self._show("#question-clock", ("", None) if question is None else question_clock_text(question, self.lang))
        if self.interview.over() and not self._told:
            self._told = True
            self.post_message(self.TimeUp())

    def _show(self, selector: str, shown: tuple[str, str | None]) -> None:
        before = self._shown.get(selector)
        if before == shown:
            return
        self._shown[selector] = shown
        text, state = shown
        clock = self.query_one(selector, Static)
        # Only the digits changed: same width, so no layout (the screen is not touched).
        clock.update(text, layout=before is None or cell_len(before[0]) != cell_len(text))
        if before is None or before[1] != state:
            for name in STATES:
                clock.set_class(name == state, name)
        clock.display = bool(text)
