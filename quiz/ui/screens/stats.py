"""The statistics of the learner's history: what `quiz stats --json` prints, as a screen.

Today, what is due and the streak; true retention; a calendar heatmap of the last 26 weeks; the
daily mean score as a sparkline; reviews due over the next 14 days; accuracy by topic and by
claim over the last 30 days and all time; the mistakes made most often, by their labels; how
well FSRS's default and fitted parameters predict the learner's reviews, side by side; then the
learner's picture by claim: the weak claims, the mistakes that recur and the questions to take
next (today's study plan while one is set). The figures are computed in a worker thread (its own
connection to the file), then laid out at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text as RichText
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import DataTable, Header, Sparkline, Static

from quiz.bank import Bank
from quiz.history import personal
from quiz.history.naming import claim_text, mistake_name, topic_name
from quiz.history.personal import Standing
from quiz.history.recorder import Recorder
from quiz.history.stats import CALENDAR_WEEKS, Statistics, Window, catalogue
from quiz.learning.picture import Picture, learner_picture
from quiz.learning.plan import questions_for_plan
from quiz.locale.i18n import tr, tr_count
from quiz.ui.screens.base import QuizScreen
from quiz.ui.widgets.calendar import CalendarHeatmap
from quiz.ui.widgets.footer import KeyFooter

CELL_PADDING = 2
"""The cells a DataTable adds to each column, one either side."""
MIN_LABEL_WIDTH = 10
"""The narrowest a table's first column gets (its labels wrap to fit)."""
MOST_MISTAKES = 10


def fitted(text: str, width: int) -> RichText:
    """`text` cut to `width` cells with an ellipsis (Rich Text: a DataTable measures it)."""
    fitted = RichText(text, no_wrap=True, overflow="ellipsis")
    fitted.truncate(width, overflow="ellipsis")
    return fitted


def mean(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def share(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


class StatisticsScreen(QuizScreen):
    """Everything the history says about how practice is going."""

    CSS_PATH = "history.tcss"  # read when the screen is first opened, not at start-up
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "go_home", "ui.key_home")]

    def __init__(self, bank: Bank, lang: str, history: Recorder) -> None:
        super().__init__(lang)
        self.bank = bank
        self.history = history
        self.statistics: Statistics | None = None
        """The figures shown, once computed."""
        self.scheduling: Standing | None = None
        """The FSRS fit shown, once read."""
        self.picture: Picture | None = None
        """The learner's picture by claim, once computed."""
        self.computed = False
        """The worker has answered: figures, or why there are none, are on screen."""

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="stats-body"):
            yield Static(tr("ui.stats_counting", self.lang), id="stats-status", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.title = tr("ui.title", self.lang)
        self.sub_title = tr("ui.menu_statistics", self.lang)
        self.query_one("#stats-body").focus()
        self.call_after_refresh(self._compute)  # once drawn: the worker then has the interpreter to itself

    class Computed(Message):
        """The figures, from the worker (None: there is no history file to read)."""

        def __init__(self, statistics: Statistics | None, scheduling: Standing | None, picture: Picture | None = None) -> None:
            super().__init__()
            self.statistics = statistics
            self.scheduling = scheduling
            self.picture = picture

    @work(thread=True, exclusive=True, group="statistics")
    def _compute(self) -> None:
        # A message may be posted from a thread, and is dropped if the learner left meanwhile.
        questions = self.bank.questions.values()
        statistics = self.history.statistics(catalogue(questions))
        planned = questions_for_plan(questions)
        picture = self.history.read(lambda history: learner_picture(history, planned, self.history.now()))
        self.post_message(self.Computed(statistics, self.history.scheduling(), picture))

    @on(Computed)
    async def _show(self, message: Computed) -> None:
        self.scheduling = message.scheduling
        self.picture = message.picture
        await self._lay_out(message.statistics)
        self.computed = True

    async def _lay_out(self, result: Statistics | None) -> None:
        status = self.query_one("#stats-status", Static)
        if result is None:
            problem = self.history.problem
            status.update(problem.message(self.lang) if problem else tr("ui.history_not_saved", self.lang))
            return
        self.statistics = result
        status.update(self._headline(result))
        if not any(count for _, count in result.calendar) and not result.topics:
            status.update(self._headline(result) + "\n\n" + tr("history.no_attempts", self.lang))
            return
        await self.query_one("#stats-body").mount_all(self._parts(result))
        self._fill_tables()

    def size_class_changed(self) -> None:
        self._fill_tables()  # the first columns take the width there is

    # -- what is shown ------------------------------------------------------------------------

    def _headline(self, result: Statistics) -> str:
        lang, retention = self.lang, result.retention
        return "\n".join(
            (
                tr("history.stats_today", lang, attempts=result.today.attempts, mean=mean(result.today.mean_score)),
                tr("history.stats_due", lang, due=result.due_now, streak=result.streak_days),
                tr(
                    "ui.stats_retention",
                    lang,
                    recent=share(retention.recent.pass_rate),
                    recent_reviews=retention.recent.attempts,
                    all=share(retention.all_time.pass_rate),
                    all_reviews=retention.all_time.attempts,
                )
                if retention.all_time.attempts
                else tr("ui.stats_retention_none", lang),
            )
        )

    def _parts(self, result: Statistics) -> list[Widget]:
        lang = self.lang
        parts: list[Widget] = [
            Static(self._calendar_title(CALENDAR_WEEKS), classes="section-title", id="stats-calendar-title", markup=False),
            CalendarHeatmap(result.calendar, lang, id="stats-calendar"),
            self._title("ui.stats_trend"),
        ]
        if result.trend:
            scores = [score for _, score in result.trend]
            trend = Sparkline(scores, id="stats-trend")
            trend.styles.width = len(scores)
            first, last = result.trend[0][0], result.trend[-1][0]
            span = {"first": f"{first:%m-%d}", "last": f"{last:%m-%d}", "low": f"{min(scores):.2f}", "high": f"{max(scores):.2f}"}
            caption = tr("ui.stats_trend_caption", lang, days=len(scores), **span)
            parts += [trend, Static(caption, classes="stats-caption", markup=False)]
        else:
            parts.append(Static(tr("ui.stats_no_trend", lang), classes="stats-caption", markup=False))
        parts += [
            self._title("ui.stats_forecast", start=f"{result.forecast[0][0]:%m-%d}"),
            Static(self._forecast(result), id="stats-forecast", markup=False),
            self._title("ui.stats_by_topic"),
            self._table("stats-topics"),
            self._title("ui.stats_by_claim"),
            self._table("stats-claims"),
            self._title("ui.stats_mistakes"),
        ]
        if result.misconceptions:
            parts.append(self._table("stats-mistakes"))
        else:
            parts.append(Static(tr("ui.stats_no_mistakes", lang), classes="stats-caption", markup=False))
        scheduling = self.scheduling
        if scheduling is not None:
            retention = tr("history.fsrs_retention", lang, retention=f"{scheduling.desired_retention:.2f}")
            parts += [
                self._title("history.fsrs_title"),
                self._table("stats-fsrs"),
                Static(personal.status_text(scheduling, lang), id="stats-fsrs-status", classes="stats-caption", markup=False),
                Static(retention, classes="stats-caption", markup=False),
            ]
        if self.picture is not None:
            parts += self._picture_parts(self.picture)
        return parts

    def _picture_parts(self, picture: Picture) -> list[Widget]:
        """The weak claims (a table), the mistakes that recur and the questions to take next."""
        lang = self.lang
        parts: list[Widget] = [self._title("ui.stats_weak_claims")]
        if picture.weak:
            parts.append(self._table("stats-weak"))
        else:
            parts.append(Static(tr("ui.stats_weak_none", lang), classes="stats-caption", markup=False))
        parts.append(self._title("ui.stats_recurring"))
        recurring = [
            tr("ui.stats_recurring_line", lang, label=mistake_name(self.bank, r.name, lang), times=r.times, claims=", ".join(r.claims))
            for r in picture.recurring
        ]
        parts.append(Static("\n".join(recurring) or tr("ui.stats_recurring_none", lang), id="stats-recurring", markup=False))
        parts.append(self._title("ui.stats_next"))
        lines = [self._question_line(question) for question in picture.next_questions]
        if picture.from_plan:
            lines.insert(0, tr("ui.stats_next_from_plan", lang))
        if picture.never_practised:
            lines.append(tr("ui.stats_never_practised", lang, count=picture.never_practised))
        parts.append(Static("\n".join(lines), id="stats-next", markup=False))
        return parts

    def _question_line(self, question_id: str) -> str:
        """A recommended question: its id and its topic's name."""
        question = self.bank.questions.get(question_id)
        topics = self.bank.claims.topics
        if question is None or question.topic not in topics:
            return question_id
        return tr("ui.stats_next_line", self.lang, question=question_id, topic=topics[question.topic].label(self.lang))

    def _calendar_title(self, weeks: int) -> str:
        return tr_count("ui.stats_calendar", self.lang, weeks, weeks=weeks)

    @on(CalendarHeatmap.Fitted)
    def _calendar_fitted(self, message: CalendarHeatmap.Fitted) -> None:
        self.query_one("#stats-calendar-title", Static).update(self._calendar_title(message.weeks))

    def _title(self, key: str, **params: object) -> Static:
        return Static(tr(key, self.lang, **params), classes="section-title", markup=False)

    @staticmethod
    def _table(id: str) -> DataTable[object]:
        table: DataTable[object] = DataTable(id=id, cursor_type="none", zebra_stripes=True)
        table.can_focus = False  # the screen scrolls as one; no table holds the keys
        return table

    def _forecast(self, result: Statistics) -> str:
        """Two aligned rows: the day of the month, and the reviews due on it."""
        widths = [max(2, len(str(count))) for _, count in result.forecast]
        labels = [tr("ui.stats_forecast_day", self.lang), tr("ui.stats_forecast_due", self.lang)]
        label_width = max(cell_len(label) for label in labels)
        days = " ".join(f"{day.day:>{w}}" for (day, _), w in zip(result.forecast, widths))
        counts = " ".join(f"{count:>{w}}" for (_, count), w in zip(result.forecast, widths))
        return "\n".join(label + " " * (label_width - cell_len(label)) + "  " + row for label, row in zip(labels, (days, counts)))

    def _fill_tables(self) -> None:
        result = self.statistics
        if result is None or not self.query("#stats-topics"):
            return
        lang = self.lang
        figures = [tr(f"history.column_{name}", lang) for name in ("attempts", "recent_mean", "mean")]
        # The first column gets what the three columns of figures (as wide as their headings) leave,
        # so no table is wider than the body and none draws a scroll bar of its own.
        scroll = self.query_one("#stats-body")
        # Its scroll bar counted whether or not it is drawn yet: the tables are filled before it is.
        body = scroll.region.width - scroll.styles.gutter.width - scroll.styles.scrollbar_size_vertical
        width = max(MIN_LABEL_WIDTH, body - sum(cell_len(heading) + CELL_PADDING for heading in figures) - CELL_PADDING)
        bank = self.bank
        order = list(bank.claims.topics)  # as claims.yaml lists them, like the topic picker
        by_topic = sorted(result.topics.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order))
        topic_rows = [self._window_row(RichText(topic_name(bank, name, lang)), window) for name, window in by_topic]
        self._fill("#stats-topics", [tr("ui.filter_topic", lang), *figures], topic_rows, wrap_width=width)
        # Labels wrap rather than being cut: a cut can drop the words that make a claim true ("halved …").
        claim_rows = [
            self._window_row(RichText(f"{name}  {claim_text(bank, name, lang)}".rstrip()), window) for name, window in result.claims.items()
        ]
        self._fill("#stats-claims", [tr("ui.filter_claim", lang), *figures], claim_rows, wrap_width=width)
        if result.misconceptions:
            most = list(result.misconceptions.items())[:MOST_MISTAKES]
            rows = [(fitted(mistake_name(bank, name, lang), width), str(count)) for name, count in most]
            self._fill("#stats-mistakes", [tr("ui.stats_mistake", lang), tr("ui.stats_times", lang)], rows)
        if self.scheduling is not None:
            header, *figures_rows = personal.figure_rows(self.scheduling.fit, lang)
            self._fill("#stats-fsrs", list(header), figures_rows)
        if self.picture is not None and self.picture.weak:
            weak_rows = [
                (
                    fitted(f"{c.claim}  {claim_text(bank, c.claim, lang)}".rstrip(), width),
                    share(c.recall),
                    mean(c.mean_score),
                    str(c.misconceptions),
                )
                for c in self.picture.weak
            ]
            headings = [tr(key, lang) for key in ("ui.filter_claim", "ui.stats_recall", "history.column_mean", "ui.stats_misconceptions_made")]
            self._fill("#stats-weak", headings, weak_rows)

    @staticmethod
    def _window_row(label: RichText, window: Window) -> tuple[object, ...]:
        return (label, str(window.all_time.attempts), mean(window.recent.mean_score), mean(window.all_time.mean_score))

    def _fill(self, selector: str, headings: list[str], rows: Sequence[tuple[object, ...]], wrap_width: int | None = None) -> None:
        """Fill a table as tall as its rows, so that the screen scrolls as one and no table draws a
        scroll bar of its own; with `wrap_width` the first column is that wide and wraps."""
        table = self.query_one(selector, DataTable)
        table.clear(columns=True)
        table.add_column(headings[0], width=wrap_width)
        table.add_columns(*headings[1:])
        heights = [len(row[0].wrap(self.app.console, wrap_width)) if wrap_width and isinstance(row[0], RichText) else 1 for row in rows]
        for row, height in zip(rows, heights):
            table.add_row(*row, height=height)
        # Told here: Textual's default caps a table at the screen's height and scrolls it inside.
        table.styles.height = table.styles.max_height = table.header_height + sum(heights)
