"""A screen's scrolling body, which takes the focus so the arrow and page keys scroll it."""

from __future__ import annotations

from textual.containers import VerticalScroll


class ScrollBody(VerticalScroll):
    """Textual's VerticalScroll, restyling only itself when it gains or loses the focus.

    Textual restyles a widget and everything inside it on a focus change, in case a rule styles
    the contents by the container's focus. None does here (no `:focus` rule names what a body
    holds), and a question with its feedback holds hundreds of widgets: restyling them all took
    about 10 ms of each answer's way to its feedback.
    """

    def watch_has_focus(self, _has_focus: bool) -> None:
        self.app.stylesheet.update_nodes([self], animate=True)
