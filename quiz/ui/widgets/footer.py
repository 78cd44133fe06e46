"""The footer of every screen: Textual's own, fitted to the terminal by the app's breakpoints.

At and above the wide breakpoint it looks as Textual draws it, with the command-palette key on
the right. Below it, the keys take Textual's compact style and the palette key is left out
(ctrl+p still works, and the help screen lists it); below the medium breakpoint the screen
also gives its keys short labels (`quiz.ui.translate`). So F6, Esc and F1 always fit.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

WIDE_CLASS = "-wide"


class KeyFooter(Footer):
    """Textual's footer, compact on all but wide terminals."""

    def compose(self) -> ComposeResult:
        # The screen refreshes its bindings when its width class changes, which recomposes this.
        wide = self.screen.has_class(WIDE_CLASS)
        self.compact = not wide
        self.show_command_palette = wide
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                # Born in the style they will have: a key whose -compact class changes once mounted
                # restyles itself there, key by key, on every screen and at every breakpoint.
                # Textual binds each key's compact to the footer's, except the command palette's.
                compact = widget.compact if widget.has_class("-command-palette") else self.compact
                widget.set_reactive(FooterKey.compact, compact)
                widget.set_class(compact, "-compact", update=False)
            yield widget
