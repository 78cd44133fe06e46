"""The footer of every screen: Textual's own, fitted to the terminal by the app's breakpoints.

At and above the wide breakpoint it looks as Textual draws it, with the command-palette key on
the right. Below it, the keys take Textual's compact style and the palette key is left out
(ctrl+p still works, and the help screen lists it); below the medium breakpoint the screen
also gives its keys short labels (`quiz.ui.translate`). So F6, Esc and F1 always fit.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer

WIDE_CLASS = "-wide"


class KeyFooter(Footer):
    """Textual's footer, compact on all but wide terminals."""

    def compose(self) -> ComposeResult:
        # The screen refreshes its bindings when its width class changes, which recomposes this.
        wide = self.screen.has_class(WIDE_CLASS)
        self.compact = not wide
        # Each key binds to `compact` (data_bind), and Textual drops the bindings of removed keys
        # only when `compact` is set: without this, every recompose (several per answer) kept its
        # keys alive, and the heap the garbage collector walks grew with each answer.
        self.mutate_reactive(Footer.compact)
        self.show_command_palette = wide
        yield from super().compose()
