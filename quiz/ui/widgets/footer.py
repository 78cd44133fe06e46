"""The footer of every screen: Textual's own, fitted to the terminal by the app's breakpoints.

At and above the wide breakpoint it looks as Textual draws it, with the command-palette key on
the right. Below it, the keys take Textual's compact style and the palette key is left out
(ctrl+p still works, and the help screen lists it); below the medium breakpoint the screen
also gives its keys short labels (`quiz.ui.translate`). So F6, Esc and F1 always fit.
"""

from __future__ import annotations

from collections.abc import Hashable

from textual.app import ComposeResult
from textual.widgets import Footer

WIDE_CLASS = "-wide"


class KeyFooter(Footer):
    """Textual's footer, compact on all but wide terminals, composed again only when its keys change."""

    def __init__(self) -> None:
        super().__init__()
        self.composed_keys: Hashable = None
        """What the keys on screen were composed from (None: nothing composed yet)."""

    def keys_shown(self) -> Hashable:
        """Everything the composed keys depend on: the width class, and each shown binding with
        whether it is enabled and its tooltip (labels are translated into the bindings)."""
        bindings = self.screen.active_bindings.values()
        return self.screen.has_class(WIDE_CLASS), tuple((b.binding, b.enabled, b.tooltip) for b in bindings if b.binding.show)

    async def recompose(self) -> None:
        # Every change of focus or of the screen's state asks for a recompose (an answer asked
        # for seven, each 5-10 ms of widgets replaced); most leave the keys as they are.
        # (Detached, as when its screen has gone, Textual's recompose does nothing.)
        if not (self.is_attached and self.composed_keys is not None and self.keys_shown() == self.composed_keys):
            await super().recompose()

    def compose(self) -> ComposeResult:
        # The screen refreshes its bindings when its width class changes, which recomposes this.
        wide = self.screen.has_class(WIDE_CLASS)
        self.compact = not wide
        # Each key binds to `compact` (data_bind), and Textual drops the bindings of removed keys
        # only when `compact` is set: without this, every recompose (several per answer) kept its
        # keys alive, and the heap the garbage collector walks grew with each answer.
        self.mutate_reactive(Footer.compact)
        self.show_command_palette = wide
        composed = 0
        for widget in super().compose():  # passed on as it comes: a key group collects its keys
            composed += 1
            yield widget
        # Before the screen's bindings are ready Textual's footer composes nothing: compose again.
        self.composed_keys = self.keys_shown() if composed else None
