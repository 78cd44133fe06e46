"""Textual's footer, rebuilt only when the keys it shows change.

Textual's footer recomposes on every bindings signal, and a screen sends one for each focus move,
mount and `refresh_bindings`: opening a question sent seven, and each recompose re-styles every
key (about 15 ms apiece, most of the start-up past the bank). This footer coalesces the signals
of one refresh into a single check and recomposes only when a key, label or enabled state differs.
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer

Shown = tuple[tuple[str, str, bool, str], ...]


class KeyFooter(Footer):
    """The footer of every screen: the same look as Textual's, far fewer rebuilds."""

    def __init__(self) -> None:
        super().__init__()
        self._check_pending = False
        self._shown: Shown | None = None

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus or not self.is_attached or screen is not self.screen:
            return
        if not self._check_pending:
            self._check_pending = True
            self.call_after_refresh(self._recompose_if_changed)

    async def _recompose_if_changed(self) -> None:
        self._check_pending = False
        if not self.is_attached:  # its screen closed before the check ran
            return
        shown = self._shown_keys()
        if shown != self._shown:
            self._shown = shown
            await self.recompose()

    def _shown_keys(self) -> Shown:
        return tuple(
            (binding.key, binding.description, enabled, tooltip)
            for _node, binding, enabled, tooltip in self.screen.active_bindings.values()
            if binding.show
        )
