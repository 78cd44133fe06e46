"""Self-grading the spoken answers of a mock interview, one at a time, after the interview.

Each spoken question is shown with the candidate's notes and the model answer; under them each
point of its checklist takes one of four levels (missing, weak, good, strong). The keys 1 to 4
set the level of the point in focus and move to the next; ←/→ change it, ↑/↓ move between
points; Ctrl+S saves the grades of this answer (every point needs a level) and shows the next.
Each save is committed by the session as it is made; when none is left the screen says the
interview is over again (`MockOver`), and the app shows its report.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Header, Static

from quiz.history.mocks import LEVELS
from quiz.locale.i18n import tr
from quiz.render.mathtext import markdown_to_plain
from quiz.ui.messages import MockOver
from quiz.ui.screens.base import QuizScreen
from quiz.ui.widgets.footer import KeyFooter
from quiz.ui.widgets.maths import MathMarkdown

if TYPE_CHECKING:
    from quiz.mock.session import MockSession, SelfGradeItem


class LevelPicker(Static, can_focus=True):
    """One checklist point and the level the candidate gives it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", "mockapp.key_level_down", show=False),
        Binding("right", "step(1)", "mockapp.key_level_up", show=False),
        Binding("up", "move(-1)", "mockapp.key_point_previous", show=False),
        Binding("down", "move(1)", "mockapp.key_point_next", show=False),
        *(Binding(str(n + 1), f"pick({n})", "mockapp.key_level_pick", show=False) for n in range(len(LEVELS))),
    ]

    level: reactive[int | None] = reactive(None, init=False)

    def __init__(self, number: int, point: str, lang: str) -> None:
        super().__init__(classes="level-picker")
        self.number = number
        self.point = point
        self.lang = lang

    def on_mount(self) -> None:
        self.update(self._text())

    def watch_level(self) -> None:
        self.update(self._text())

    def _text(self) -> Content:
        parts = [Content(f"{self.number}. {self.point}\n  ")]
        for n, name in enumerate(LEVELS):
            chosen = n == self.level
            # The mark carries the choice without colour (NO_COLOR); the style only repeats it.
            label = f"{'●' if chosen else '○'} {n + 1} {tr(f'mockapp.level_{name}', self.lang)}"
            parts.append(Content("\u00a0"))
            parts.append(Content.styled(label, "bold reverse") if chosen else Content(label))
            parts.append(Content("\u00a0\u00a0"))
        return Content("").join(parts)

    def action_step(self, by: int) -> None:
        start = -1 if self.level is None and by > 0 else len(LEVELS) if self.level is None else self.level
        self.level = max(0, min(len(LEVELS) - 1, start + by))

    def action_pick(self, level: int) -> None:
        self.level = level
        self.action_move(1)

    def action_move(self, by: int) -> None:
        """Focus the point `by` places on, stopping at the first and the last: wrapping round would
        let one key press too many change point 1's level unseen."""
        pickers = list(self.screen.query(LevelPicker))
        target = pickers.index(self) + by
        if 0 <= target < len(pickers):
            pickers[target].focus()


class SelfGradeScreen(QuizScreen):
    """Grade each spoken answer of the interview against its checklist, point by point."""

    CSS_PATH = "mock.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+s", "save", "mockapp.key_save_grades", priority=True)]

    def __init__(self, session: MockSession, lang: str) -> None:
        super().__init__(lang)
        self.session = session
        self.items: list[SelfGradeItem] = session.pending_self_grades()
        self.total = len(self.items)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="status", markup=False)
        with VerticalScroll(id="grade-body"):
            yield MathMarkdown(id="grade-prompt")
            yield Static(tr("mockapp.your_notes", self.lang), classes="section-title", markup=False)
            yield Static(id="grade-notes", markup=False)
            yield Static(tr("ui.model_answer", self.lang), classes="section-title", markup=False)
            yield MathMarkdown(id="grade-model")
            yield Static(tr("mockapp.grade_points", self.lang), classes="section-title", markup=False)
            yield Vertical(id="grade-points")
        yield Static(id="message", markup=False)
        yield KeyFooter()

    async def on_mount(self) -> None:
        self.title = tr("mockapp.title", self.lang)
        self.sub_title = tr("mockapp.self_grade_title", self.lang)
        if not self.items:
            self.post_message(MockOver(self.session))
            return
        await self._show(self.items[0])

    @property
    def pickers(self) -> list[LevelPicker]:
        return list(self.query(LevelPicker))

    async def _show(self, item: SelfGradeItem) -> None:
        variant, lang = item.variant, self.lang
        done = self.total - len(self.items) + 1
        seconds = "—" if item.seconds is None else f"{item.seconds:.0f}"
        self.query_one("#status", Static).update(
            tr("mockapp.self_grade_status", lang, number=done, total=self.total, seconds=seconds, budget=f"{item.budget:.0f}")
        )
        await self.query_one("#grade-prompt", MathMarkdown).update(variant.text(variant.question.prompt, lang))
        self.query_one("#grade-notes", Static).update(item.notes or tr("mockapp.no_notes", lang))
        await self.query_one("#grade-model", MathMarkdown).update(variant.text(variant.question.model_answer, lang))  # type: ignore[attr-defined]
        points = self.query_one("#grade-points")
        await points.remove_children()
        await points.mount_all(
            LevelPicker(n + 1, markdown_to_plain(variant.text(point, lang)).strip(), lang) for n, point in enumerate(item.checklist)
        )
        self._say("")
        self.pickers[0].focus(scroll_visible=False)
        # From the top, once the Markdown is laid out: the question and the notes come first.
        self.call_after_refresh(self.query_one("#grade-body").scroll_home, animate=False)

    def _say(self, text: str) -> None:
        message = self.query_one("#message", Static)
        message.update(text)
        message.display = bool(text)

    def levels(self) -> Sequence[str] | None:
        """The levels given, one per point; None while a point has none."""
        chosen = [picker.level for picker in self.pickers]
        return None if any(level is None for level in chosen) else [LEVELS[level] for level in chosen if level is not None]

    async def action_save(self) -> None:
        if not self.items:
            return
        levels = self.levels()
        if levels is None:
            missing = next(p for p in self.pickers if p.level is None)
            self._say(tr("mockapp.grade_every_point", self.lang, number=missing.number))
            missing.focus()
            return
        item = self.items.pop(0)
        self.session.self_grade(item.id, levels)
        if self.items:
            await self._show(self.items[0])
        else:
            self.post_message(MockOver(self.session))
