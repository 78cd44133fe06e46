"""Mock interviews in the app: starting or resuming one, then self-grading and the report.

A mock starts from home's setup dialog (`StartMock`) or straight from `quiz mock` (`make_app(...,
mock=plan)`). An interview left running by a crash is offered for resuming on the next start (once
history is open, on home) and before another mock starts: resumed, its clock runs on from its
stored start (or the core closes it as over time); declined, it is ended as it stands, so it is
not offered again. When the interview ends (`MockOver`) its spoken answers are self-graded, then
its report takes the screen. The session's clocks are the ones given to `make_app`, so tests set
the time.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual.screen import ModalScreen, Screen

from quiz.bank import SelectionError
from quiz.base.fieldwise import Fieldwise, record
from quiz.locale.i18n import tr
from quiz.mock.clock import Clock, interview_clock
from quiz.ui.host import Host

if TYPE_CHECKING:  # the mock's modules are imported when a mock is first asked for: start-up stays short
    from quiz.mock.compose import MockPlan
    from quiz.mock.options import MockOptions
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


class MockFlow:
    """Opens the mock interview's screens in turn, on the host's screen stack."""

    def __init__(self, host: Host, start: MockStart) -> None:
        self.host = host
        self.start = start

    def open_first(self, home: Screen[Any]) -> None:
        """Open the interview `quiz mock` asked for, over `home`: leaving its report lands there."""
        plan = self.start.plan
        assert plan is not None
        self.host.push_screen(home)
        self.open(replace(plan, options=replace(plan.options, feedback=self.start.feedback)))

    def compose_and_open(self, options: MockOptions) -> None:
        """Sit an interview made from the setup dialog's `options`."""
        host = self.host
        if host.bank is None:
            return
        from quiz.mock.compose import compose

        try:
            plan = compose(host.bank, options)
        except SelectionError as exc:
            host.notify(exc.message(host.lang), severity="error")
            return
        self.open(plan)

    def open(self, plan: MockPlan) -> None:
        """Sit `plan`; first offer to resume an interview a crash left running."""
        if not self.offer_running(plan):
            self._sit(plan)

    def offer_running(self, plan: MockPlan | None) -> bool:
        """Offer to resume an interview a crash left running, then (declined) sit `plan` if any;
        False when there is none to offer."""
        host = self.host
        running = host.history.running_mocks()
        if not running:
            return False
        from quiz.ui.screens.mocksetup import ResumeScreen

        row = running[0]

        def answered(resume: bool | None) -> None:
            if resume is None:
                return
            from quiz.mock.session import CannotResume

            try:
                session = self._resume(row.id)
            except CannotResume as exc:  # ended as it stands: said once, never offered again
                host.notify(tr("mockapp.cannot_resume", host.lang, key=row.key, reason=str(exc)), severity="error", timeout=15)
                session = None
            if resume and session is not None:
                self._sit_session(session)
                return
            if session is not None and not session.finished:
                session.time_out(None)  # declined: ended as it stands, never offered again
            if plan is not None:
                self._sit(plan)

        host.push_screen(ResumeScreen(row, host.lang, starting=plan is not None), answered)
        return True

    def _resume(self, mock_id: str) -> MockSession | None:
        from quiz.mock.session import MockSession

        assert self.host.bank is not None
        start = self.start
        return MockSession.resume(self.host.bank, self.host.history, mock_id, clock=start.clock, wall=start.wall)

    def _sit(self, plan: MockPlan) -> None:
        from quiz.mock.session import MockSession

        host = self.host
        assert host.bank is not None
        start = self.start
        session = MockSession.start(host.bank, plan, host.history, lang=host.lang, feedback=plan.options.feedback, clock=start.clock, wall=start.wall)
        host.tell_history_problem()
        self._sit_session(session)

    def _sit_session(self, session: MockSession) -> None:
        from quiz.ui.screens.mock import MockScreen

        self.host.push_screen(MockScreen(session, self.host.lang, ticking=self.start.ticking))

    def over(self, session: MockSession) -> None:
        """Self-grading while spoken answers wait for it, then the report, in place of the screen before."""
        host = self.host
        host.tell_history_problem()
        while isinstance(host.screen, ModalScreen):  # time ran out under the help or the palette
            host.pop_screen()
        if session.pending_self_grades():
            from quiz.ui.screens.selfgrade import SelfGradeScreen

            host.switch_screen(SelfGradeScreen(session, host.lang))
            return
        from quiz.mock.report_text import report_markdown
        from quiz.ui.screens.report import ReportScreen

        assert host.bank is not None
        report = session.report()
        name = f"{session.plan.key}-{session.mock_id[:8]}.md"
        host.switch_screen(ReportScreen(report_markdown(host.bank, report, host.lang), report.to_practise, name, host.lang))
