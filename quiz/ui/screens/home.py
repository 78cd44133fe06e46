"""The home screen: practise (everything, a selection, or what is due for review), sit a mock
interview, browse the bank, statistics, settings, quit. The review entry shows how many questions are due;
while a study plan is set (`quiz plan`), a line says the days left and what today holds.

Each menu entry has a handler here; a handler asks what it needs (a topic, a claim...) in a
picker and then says what the learner chose with a message (`StartPractice`, `OpenBrowser`,
...), which the app acts on. An entry is added by adding it to `MENU` and to `handlers`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.reactive import reactive
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from quiz.bank import Bank, Selection
from quiz.locale.i18n import tr
from quiz.ui.messages import OpenBrowser, OpenSettings, OpenStatistics, ReviewDue, StartMock, StartPractice
from quiz.ui.screens.base import QuizScreen
from quiz.ui.widgets.footer import KeyFooter

if TYPE_CHECKING:
    from quiz.learning.plan import Plan
    from quiz.mock.options import MockOptions

PICKED: dict[str, Callable[[str], Selection]] = {
    "topic": lambda value: Selection(topic=value),
    "claim": lambda value: Selection(claim=value),
    "difficulty": lambda value: Selection(difficulty=int(value)),
    "key": lambda value: Selection(key=value),
}
"""The selection each picker's answer names, by the picker's field."""

MENU = (
    "practice_all",
    "review_due",
    "mock",
    "practice_topic",
    "practice_claim",
    "practice_difficulty",
    "practice_one",
    "browse",
    "statistics",
    "settings",
    "quit",
)


def review_entry(due: int | None, lang: str) -> str:
    """The "Review what is due" entry, with how many questions are due once that is known."""
    return tr("ui.menu_review_due", lang) if due is None else tr("ui.menu_review_due_count", lang, count=due)


def plan_line(plan: Plan, lang: str) -> str:
    """Home's line on the study plan: the days left and what today holds (or that it is done)."""
    today = plan.days[0]
    params = {"interview": plan.interview.isoformat(), "days": plan.days_left}
    if today.kind == "mock":
        return tr("plan.home_mock", lang, minutes=round(today.seconds / 60), **params)
    if not today.items:
        return tr("plan.home_done", lang, **params)
    return tr("plan.home_today", lang, new=today.count("new"), reviews=today.count("review"), minutes=round(today.seconds / 60), **params)


class HomeScreen(QuizScreen):
    """Where every session starts."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("f8", "open_settings", "ui.key_settings")]

    due: reactive[int | None] = reactive(None, init=False)
    """Questions due for review now (None until history is open, or without history)."""
    plan: reactive[Plan | None] = reactive(None, init=False)
    """The study plan from today, while one is set (practise and review then follow it)."""

    def __init__(self, lang: str, bank: Bank, due: int | None = None, plan: Plan | None = None) -> None:
        super().__init__(lang)
        self.bank = bank
        self.set_reactive(HomeScreen.due, due)
        self.set_reactive(HomeScreen.plan, plan)

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="home"):
            yield Static(tr("ui.welcome", self.lang, count=len(self.bank)), id="welcome", markup=False)
            yield Static(self._plan_text(), id="plan", markup=False)
            yield OptionList(*(Option(self._entry(item), id=item) for item in MENU), id="menu")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = tr("ui.title", self.lang)
        self.sub_title = ""
        self.query_one("#plan", Static).display = self.plan is not None
        menu = self.query_one("#menu", OptionList)
        menu.highlighted = 0
        menu.focus()

    def _entry(self, item: str) -> str:
        return review_entry(self.due, self.lang) if item == "review_due" else tr(f"ui.menu_{item}", self.lang)

    def watch_due(self) -> None:
        self.query_one("#menu", OptionList).replace_option_prompt("review_due", self._entry("review_due"))

    def _plan_text(self) -> str:
        return "" if self.plan is None else plan_line(self.plan, self.lang)

    def watch_plan(self) -> None:
        line = self.query_one("#plan", Static)
        line.update(self._plan_text())
        line.display = self.plan is not None

    @property
    def handlers(self) -> dict[str, Callable[[], object]]:
        return {
            "practice_all": lambda: self.post_message(StartPractice(Selection())),
            "review_due": lambda: self.post_message(ReviewDue()),
            "mock": self.set_up_mock,
            "practice_topic": self.pick_topic,
            "practice_claim": self.pick_claim,
            "practice_difficulty": self.pick_difficulty,
            "practice_one": self.pick_key,
            "browse": lambda: self.post_message(OpenBrowser()),
            "statistics": lambda: self.post_message(OpenStatistics()),
            "settings": self.action_open_settings,
            "quit": self.app.exit,
        }

    @on(OptionList.OptionSelected, "#menu")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        assert event.option.id is not None
        self.handlers[event.option.id]()

    def action_open_settings(self) -> None:
        self.post_message(OpenSettings())

    # Pickers are imported when first opened: start-up stays short.
    def pick_topic(self) -> None:
        from quiz.ui.screens.pick import PickScreen, topic_choices

        self.app.push_screen(PickScreen(tr("ui.pick_topic", self.lang), topic_choices(self.bank, self.lang), self.lang), self._practise("topic"))

    def pick_claim(self) -> None:
        from quiz.ui.screens.pick import PickScreen, claim_choices

        self.app.push_screen(PickScreen(tr("ui.pick_claim", self.lang), claim_choices(self.bank, self.lang), self.lang), self._practise("claim"))

    def pick_difficulty(self) -> None:
        from quiz.ui.screens.pick import PickScreen, difficulty_choices

        choices = difficulty_choices(self.bank, self.lang)
        self.app.push_screen(PickScreen(tr("ui.pick_difficulty", self.lang), choices, self.lang), self._practise("difficulty"))

    def pick_key(self) -> None:
        from quiz.ui.screens.pick import KeyScreen

        self.app.push_screen(KeyScreen(self.lang, self.bank), self._practise("key"))

    def set_up_mock(self) -> None:
        from quiz.ui.screens.mocksetup import MockSetupScreen

        def start(options: MockOptions | None) -> None:
            if options is not None:
                self.post_message(StartMock(options))

        self.app.push_screen(MockSetupScreen(self.lang, self.bank), start)

    def _practise(self, field: str) -> Callable[[str | None], None]:
        """What to do with a picker's answer: practise the selection it names (None: nothing)."""

        def practise(value: str | None) -> None:
            if value is not None:
                self.post_message(StartPractice(PICKED[field](value)))

        return practise
