"""What every full screen of the quiz shares: its language, translated keys, help, and a footer
that follows the terminal's width."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events, on
from textual.screen import Screen

from quiz.ui.messages import GoHome
from quiz.ui.translate import TranslatedBindings

if TYPE_CHECKING:  # the help screen is imported when first opened
    from quiz.ui.screens.help import Section

WIDTH_CLASSES = ("-tiny", "-narrow", "-medium", "-wide")
"""The app's horizontal breakpoint classes, narrowest first (see `QuizApp.HORIZONTAL_BREAKPOINTS`)."""
HEIGHT_CLASSES = ("-short", "-tall")
"""The app's vertical breakpoint classes: below and from the smallest height a question fits in."""


class QuizScreen(TranslatedBindings, Screen[None]):
    """A full screen of the quiz, in one language."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang
        self.size_classes: tuple[str | None, str | None] = (None, None)
        self._take_size_classes()

    def _take_size_classes(self) -> None:
        """Start with the breakpoint classes of the terminal's size, as Textual sets them on the
        screen's first resize: set then, after the screen and its widgets were styled without
        them, they made Textual style the whole screen again before its first frame."""
        try:
            app = self.app
        except RuntimeError:  # made outside a running app: Textual sets them when it is shown
            return
        width, height = app.size
        # A screen's own breakpoints replace the app's, as in Textual's Screen._on_resize.
        horizontal = app.HORIZONTAL_BREAKPOINTS if self.HORIZONTAL_BREAKPOINTS is None else self.HORIZONTAL_BREAKPOINTS
        vertical = app.VERTICAL_BREAKPOINTS if self.VERTICAL_BREAKPOINTS is None else self.VERTICAL_BREAKPOINTS
        for dimension, breakpoints in ((width, horizontal), (height, vertical)):
            reached = [name for least, name in sorted(breakpoints or []) if dimension >= least]
            if reached:
                self.add_class(reached[-1], update=False)

    def help_sections(self) -> list[Section]:
        """This screen's own paragraphs for the help screen, before its keys and the general ones."""
        return []

    def action_go_home(self) -> None:
        self.post_message(GoHome())

    @on(events.Resize)
    def _resized(self) -> None:
        # Textual sets the breakpoint classes after this handler: look once they are set.
        self.call_after_refresh(self._follow_size)

    def _follow_size(self) -> None:
        classes = (self._class_among(WIDTH_CLASSES), self._class_among(HEIGHT_CLASSES))
        if classes != self.size_classes:
            self.size_classes = classes
            self.refresh_bindings()  # key labels, the footer's style and what can be done depend on them
            self.size_class_changed()

    def _class_among(self, names: tuple[str, ...]) -> str | None:
        return next((name for name in names if self.has_class(name)), None)

    def size_class_changed(self) -> None:
        """Called when the terminal crosses a breakpoint; screens that lay out by size react here."""
