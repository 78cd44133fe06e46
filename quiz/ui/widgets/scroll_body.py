"""A screen's scrolling body, which takes the focus so the arrow and page keys scroll it."""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.message import Message


class ScrollBody(VerticalScroll):
    """Textual's VerticalScroll, restyling only itself when it gains or loses the focus.

    Textual restyles a widget and everything inside it on a focus change, in case a rule styles
    the contents by the container's focus. None does here (no `:focus` rule names what a body
    holds), and a question with its feedback holds hundreds of widgets: restyling them all took
    about 10 ms of each answer's way to its feedback.
    """

    class Resized(Message):
        """The body's size, or the size of what it holds, changed: so may the rows it leaves empty."""

        def __init__(self, body: ScrollBody) -> None:
            super().__init__()
            self.body = body

        @property
        def control(self) -> ScrollBody:
            return self.body

    def on_resize(self) -> None:
        self.post_message(self.Resized(self))

    @property
    def spare_rows(self) -> int:
        """The rows below what the body holds that nothing fills; negative when it scrolls, by the rows it lacks."""
        filled = max((child.virtual_region_with_margin.bottom for child in self.children if child.display), default=0)
        return self.scrollable_content_region.height - filled

    def watch_has_focus(self, _has_focus: bool) -> None:
        self.app.stylesheet.update_nodes([self], animate=True)
