"""The app's part in a mock interview: starting or resuming one, then self-grading and the report.

A mock starts from home's setup dialog (`StartMock`) or straight from `quiz mock` (`make_app(...,
mock=plan)`). An interview left running by a crash is offered for resuming on the next start (once
history is open, on home) and before another mock starts: resumed, its clock runs on from its
stored start (or the core closes it as over time); declined, it is ended as it stands, so it is
not offered again. When the interview ends (`MockOver`) its
spoken answers are self-graded, then its report takes the screen. The session's clocks are the
ones given to `make_app`, so tests set the time.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

from textual import on
from textual.screen import ModalScreen

from quiz.bank import SelectionError
from quiz.base.fieldwise import Fieldwise, record
from quiz.mock.clock import Clock, interview_clock
from quiz.ui.app_base import QuizAppBase
from quiz.ui.messages import MockOver, StartMock

if TYPE_CHECKING:  # the mock's modules are imported when a mock is first asked for: start-up stays short
    from quiz.mock.compose import MockPlan
    from quiz.mock.session import MockSession


@record
class MockStart(Fieldwise):
    """How the app sits mock interviews: the one to open first, its feedback, and the clocks."""

    plan: MockPlan | None = None
    feedback: str = "end"
    clock: Clock = interview_clock
    wall: Clock = time.time
    ticking: bool = True
    """Whether the clocks tick on a timer (still pictures and some tests tick them by hand)."""


class MockFlow(QuizAppBase):
    """Opens the mock interview's screens in turn."""

    mock_start = MockStart()

    def _open_first_screen(self) -> None:
        plan = self.mock_start.plan
        if plan is None:
            super()._open_first_screen()
            return
        # Home lies under the interview, so leaving the report lands there.
        self.push_screen(self._home())
        self.open_mock(replace(plan, options=replace(plan.options, feedback=self.mock_start.feedback)))
        self._open_history_once_drawn()

    def _history_opened(self) -> None:
        super()._history_opened()
        from quiz.ui.screens.home import HomeScreen  # imported when first asked for

        if self.mock_start.plan is None and isinstance(self.screen, HomeScreen):
            self.offer_running(None)

    @on(StartMock)
    def _start_mock(self, message: StartMock) -> None:
        if self.bank is None:
            return
        from quiz.mock.compose import compose

        try:
            plan = compose(self.bank, message.options)
        except SelectionError as exc:
            self.notify(exc.message(self.lang), severity="error")
            return
        self.open_mock(plan)

    def open_mock(self, plan: MockPlan) -> None:
        """Sit `plan`; first offer to resume an interview a crash left running."""
        if not self.offer_running(plan):
            self._sit(plan)

    def offer_running(self, plan: MockPlan | None) -> bool:
        """Offer to resume an interview a crash left running, then (declined) sit `plan` if any;
        False when there is none to offer."""
        running = self.history.running_mocks()
        if not running:
            return False
        from quiz.ui.screens.mocksetup import ResumeScreen

        row = running[0]

        def answered(resume: bool | None) -> None:
            if resume is None:
                return
            session = self._resume(row.id)
            if resume and session is not None:
                self._sit_session(session)
                return
            if session is not None and not session.finished:
                session.time_out(None)  # declined: ended as it stands, never offered again
            if plan is not None:
                self._sit(plan)

        self.push_screen(ResumeScreen(row, self.lang, starting=plan is not None), answered)
        return True

    def _resume(self, mock_id: str) -> MockSession | None:
        from quiz.mock.session import MockSession

        assert self.bank is not None
        start = self.mock_start
        return MockSession.resume(self.bank, self.history, mock_id, clock=start.clock, wall=start.wall)

    def _sit(self, plan: MockPlan) -> None:
        from quiz.mock.session import MockSession

        assert self.bank is not None
        start = self.mock_start
        session = MockSession.start(self.bank, plan, self.history, lang=self.lang, feedback=plan.options.feedback, clock=start.clock, wall=start.wall)
        self._tell_history_problem()
        self._sit_session(session)

    def _sit_session(self, session: MockSession) -> None:
        from quiz.ui.screens.mock import MockScreen

        self.push_screen(MockScreen(session, self.lang, ticking=self.mock_start.ticking))

    @on(MockOver)
    def _mock_over(self, message: MockOver) -> None:
        """Self-grading while spoken answers wait for it, then the report, in place of the screen before."""
        session = message.session
        self._tell_history_problem()
        while isinstance(self.screen, ModalScreen):  # time ran out under the help or the palette
            self.pop_screen()
        if session.pending_self_grades():
            from quiz.ui.screens.selfgrade import SelfGradeScreen

            self.switch_screen(SelfGradeScreen(session, self.lang))
            return
        from quiz.mock.report_text import report_markdown
        from quiz.ui.screens.report import ReportScreen

        assert self.bank is not None
        report = session.report()
        name = f"{session.plan.key}-{session.mock_id[:8]}.md"
        self.switch_screen(ReportScreen(report_markdown(self.bank, report, self.lang), report.missed, name, self.lang))
