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
    """Textual's footer, compact on all but wide terminals."""

    def __init__(self) -> None:
        super().__init__()
        self._shown: Hashable = None
        """What the keys on show were made from (see `recompose`)."""

    def compose(self) -> ComposeResult:
        # The screen refreshes its bindings when its width class changes, which recomposes this.
        wide = self.screen.has_class(WIDE_CLASS)
        self.compact = not wide
        # Each key binds to `compact` (data_bind), and Textual drops the bindings of removed keys
        # only when `compact` is set: without this, every recompose (several per answer) kept its
        # keys alive, and the heap the garbage collector walks grew with each answer.
        self.mutate_reactive(Footer.compact)
        self.show_command_palette = wide
        shown = None  # none yet: the bindings were not ready
        for widget in super().compose():  # one at a time: keys in a group are yielded inside its `with`
            shown = True
            yield widget
        self._shown = shown and self._keys_on_show()

    async def recompose(self) -> None:
        """Build the keys again only when they would differ: the screen's bindings are refreshed
        several times as a question opens (its variant, the focus, the size class), mostly to
        the same keys, and each rebuild mounts and styles every key anew."""
        if not self.is_attached or (self._shown is not None and self._shown == self._keys_on_show()):
            return  # (a footer whose screen has closed has nothing to show)
        await super().recompose()

    def _keys_on_show(self) -> Hashable:
        """Everything the keys are drawn from: the width, and each shown binding's key, label and state."""
        screen, palette_key = self.screen, self.app.COMMAND_PALETTE_BINDING
        return screen.has_class(WIDE_CLASS), tuple(
            (key, binding.action, self.app.get_key_display(binding), binding.description, binding.group, enabled, tooltip)
            for key, (_, binding, enabled, tooltip) in screen.active_bindings.items()
            if binding.show or key == palette_key
        )
