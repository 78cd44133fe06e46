"""Practice rounds and the home screen: opening a round, a review of what is due, the round's
summary, and the way back home with the due count as the history file has it now."""

from __future__ import annotations

from typing import TYPE_CHECKING

from quiz.bank import Selection, SelectionError
from quiz.history.records import Mode
from quiz.locale.i18n import tr
from quiz.practice.session import PracticeSession
from quiz.ui.host import Host
from quiz.ui.screens.question import QuestionScreen

if TYPE_CHECKING:  # home and the summary are imported when first shown: a start on a question needs neither
    from quiz.learning.plan import ItemKind, Plan
    from quiz.ui.screens.home import HomeScreen


class PracticeFlow:
    """Opens the screens of practice and review in turn, on the host's screen stack."""

    def __init__(self, host: Host) -> None:
        self.host = host

    def due(self, wait: bool = False) -> list[str] | None:
        """The ids of the questions due for review, most overdue first (None: the history file cannot say)."""
        assert self.host.bank is not None
        return self.host.history.due(self.host.bank.questions, wait=wait)

    def due_count(self) -> int | None:
        due = self.due()
        return None if due is None else len(due)

    def plan(self) -> Plan | None:
        """The study plan from today when one is set (None: none is, or there is no file yet)."""
        host = self.host
        if host.bank is None:
            return None
        from quiz.learning.plan import questions_for_plan
        from quiz.learning.plan_store import stored_plan

        questions = questions_for_plan(host.bank.questions.values())
        return host.history.read(lambda history: stored_plan(history, questions, host.history.now()))

    def planned_today(self, kinds: tuple[ItemKind, ...]) -> tuple[str, ...]:
        """The questions today's plan holds of `kinds`, in its order (none without a plan)."""
        plan = self.plan()
        if plan is None or self.host.bank is None:
            return ()
        return tuple(i.question for i in plan.days[0].items if i.kind in kinds and i.question in self.host.bank.questions)

    def home(self) -> HomeScreen:
        from quiz.ui.screens.home import HomeScreen

        host = self.host
        assert host.bank is not None
        return HomeScreen(host.lang, host.bank, self.due_count(), self.plan())

    def show_due(self) -> None:
        """Home's count of questions due for review and today's plan, as the file has them now."""
        if self.host.bank is None:
            return
        from quiz.ui.screens.home import HomeScreen

        due, plan = self.due_count(), self.plan()
        for screen in self.host.screen_stack:
            if isinstance(screen, HomeScreen):
                screen.due = due
                screen.plan = plan

    def practise(self, selection: Selection) -> None:
        """Practise `selection`; everything, while a plan is set, is what today's plan holds."""
        planned = self.planned_today(("new", "review")) if selection == Selection() else ()
        self.start(Selection(ids=planned) if planned else selection)

    def start(self, selection: Selection, mode: Mode = Mode.PRACTICE) -> bool:
        """Open the question screen for the questions `selection` picks, their attempts filed
        under `mode` (`practice` or `review`); False if none can be."""
        host = self.host
        if host.bank is None:
            return False
        try:
            session = PracticeSession(
                host.bank,
                selection,
                sink=host.history,
                rng=host.rng,
                lang=host.lang,
                mode=mode,
                wall_clock=host.history.now_ms,
            )
            session.next_question()
        except SelectionError as exc:
            host.notify(exc.message(host.lang), severity="error")
            return False
        for problem in session.problems:
            host.notify(problem, severity="warning", timeout=10)
        host.push_screen(QuestionScreen(session, host.lang, host.history))
        return True

    def review_due(self) -> None:
        """A round of the questions due for review, most overdue first; while a plan is set and
        has reviews today, those."""
        host = self.host
        if host.bank is None:
            return
        planned = self.planned_today(("review",))
        if planned:  # a plan is set: its reviews for today, weakest first
            self.start(Selection(ids=planned), Mode.REVIEW)
            return
        due = self.due(wait=True)
        if due is None:
            problem = host.history.problem
            host.notify(problem.message(host.lang) if problem else tr("ui.history_not_saved", host.lang), severity="warning")
        elif not due:
            host.notify(tr("history.nothing_due", host.lang))
        else:
            self.start(Selection(ids=tuple(due)), Mode.REVIEW)

    def round_over(self, session: PracticeSession) -> None:
        """The summary of the round takes the place of its question screen."""
        from quiz.ui.screens.summary import SummaryScreen

        self.host.switch_screen(SummaryScreen(session.summary(), session.bank, self.host.lang, self.due_count()))

    def go_home(self) -> None:
        """Close what is open down to home (made if the app started straight on a question)."""
        host = self.host
        if host.bank is None:
            return
        from quiz.ui.screens.home import HomeScreen

        while len(host.screen_stack) > 2:  # Textual's base screen, then home
            host.pop_screen()
        if not isinstance(host.screen, HomeScreen):
            host.switch_screen(self.home())
        else:
            self.show_due()
