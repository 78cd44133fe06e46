"""A calendar heatmap of answers per day: a column per week, Monday at the top, a shade per day.

Shades are the weight heatmap's (░ ▒ ▓ █, in quarters of the busiest day), so the calendar reads
without colour (NO_COLOR) and in a screen reader's text; a day without answers is `·` and a day
still to come is blank. Months are named above the week they begin in.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from rich.cells import cell_len
from rich.text import Text as RichText
from textual import events
from textual.message import Message
from textual.widget import Widget

from quiz.locale.i18n import tr
from quiz.ui.widgets.heatmap import pack, shade, shade_style

NONE = "·"
CELL = 2  # a shade and a space: weeks stay apart


class CalendarHeatmap(Widget):
    """Answers per day for the days given (from a Monday to today), week by week; the latest weeks
    that fit the width, never a week wrapped onto a line of its own."""

    DEFAULT_CSS = """
    CalendarHeatmap {
        height: auto;
        width: 1fr;
    }
    """

    def __init__(self, days: Sequence[tuple[date, int]], lang: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.days = list(days)
        self.lang = lang
        self.most = max((count for _, count in self.days), default=0)
        """Answers on the busiest day: the darkest shade."""
        self.weekdays = tr("ui.calendar_weekdays", lang).split()
        self.label_width = max(cell_len(name) for name in self.weekdays) + 1

    class Fitted(Message):
        """How many weeks the calendar shows at its width, for its title to say."""

        def __init__(self, weeks: int) -> None:
            super().__init__()
            self.weeks = weeks

    @property
    def weeks(self) -> int:
        return (len(self.days) + 6) // 7

    def shown_weeks(self, width: int) -> int:
        """The weeks that fit `width` cells (the last needs its shade only, not the space after)."""
        if width <= 0:
            return self.weeks
        return max(1, min(self.weeks, (width - self.label_width + CELL - 1) // CELL))

    def on_resize(self, event: events.Resize) -> None:
        self.post_message(self.Fitted(self.shown_weeks(event.size.width)))

    def legend_lines(self, width: int) -> list[str]:
        items = [tr("ui.calendar_none", self.lang, mark=NONE), tr("ui.calendar_shades", self.lang, most=self.most)]
        return pack(items, width or 10_000)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return 1 + 7 + len(self.legend_lines(width))  # the months, the days of the week, the legend

    def render(self) -> RichText:
        text = RichText(no_wrap=True)
        width = self.content_size.width
        first = self.weeks - self.shown_weeks(width)
        text.append(self.month_line(first, width), style="bold")
        for weekday in range(7):
            text.append("\n")
            name = self.weekdays[weekday]
            text.append(name + " " * (self.label_width - cell_len(name)), style="bold")
            for week in range(first, self.weeks):
                index = week * 7 + weekday
                if index >= len(self.days):
                    text.append(" " * CELL)  # still to come
                    continue
                count = self.days[index][1]
                if count == 0:
                    text.append(NONE.ljust(CELL), style="dim")
                else:
                    share = count / self.most
                    text.append(shade(share), style=shade_style(share))
                    text.append(" " * (CELL - 1))
        for line in self.legend_lines(self.content_size.width):
            text.append("\n")
            text.append(line, style="dim")
        return text

    def month_line(self, first_week: int = 0, width: int = 0) -> str:
        """Each month's name above the first week shown holding its first day (when it fits in
        `width` cells, 0 for any), and the month of the first week shown above it."""
        months = tr("ui.calendar_months", self.lang).split()
        line = " " * self.label_width
        for week in range(first_week, self.weeks):
            week_days = [day for day, _ in self.days[week * 7 : week * 7 + 7]]
            first = next((day for day in week_days if day.day == 1), week_days[0] if week == first_week else None)
            if first is None:
                continue
            column = self.label_width + (week - first_week) * CELL
            name = months[first.month - 1]
            fits = not width or column + cell_len(name) <= width
            if fits and cell_len(line) + (week > first_week) <= column:  # a space after the month before
                line += " " * (column - cell_len(line)) + name
        return line
