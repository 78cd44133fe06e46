"""Textual's footer, rebuilt only when the keys it shows change, and fitted to the terminal.

Textual's footer recomposes on every bindings signal, and a screen sends one for each focus move,
mount and `refresh_bindings`: opening a question sent seven, and each recompose re-styles every
key. This footer coalesces the signals of one refresh into a single check and recomposes only when
a key, label or enabled state differs.

At 80 columns the question screen's keys do not fit at Textual's spacing, and the command-palette
key, docked right, covered the last ones. So the footer tightens its spacing when needed and, as a
last resort, leaves the palette key out (ctrl+p still works, and F1 lists it).
"""

from __future__ import annotations

from typing import NamedTuple

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.binding import ActiveBinding
from textual.screen import Screen
from textual.widgets import Footer

# Cells a key takes beyond its key and label text, from Textual's footer CSS.
ROOMY_PADDING = 3
COMPACT_PADDING = 2

Shown = tuple[tuple[str, str, bool, str], ...]


class Plan(NamedTuple):
    """What the footer shows and how: its keys, spacing, and whether the palette key fits."""

    shown: Shown
    compact: bool
    with_palette: bool


class KeyFooter(Footer):
    """The footer of every screen: Textual's look, far fewer rebuilds, no key cut off."""

    def __init__(self) -> None:
        super().__init__()
        self._check_pending = False
        self._shown: tuple[Shown, bool] | None = None

    def bindings_changed(self, screen: Screen) -> None:
        if screen.app.app_focus and self.is_attached and screen is self.screen:
            self._schedule_check()

    def on_resize(self) -> None:
        self._schedule_check()

    def _schedule_check(self) -> None:
        if not self._check_pending:
            self._check_pending = True
            self.call_after_refresh(self._recompose_if_changed)

    def compose(self) -> ComposeResult:
        # Keys at once, not an empty footer recomposed a frame later as Textual's does: a
        # recompose costs as much as the first. Until laid out, the footer is as wide as the app.
        self._bindings_ready = True
        plan = self._plan(self.size.width or self.app.size.width)
        self._shown = plan.shown, plan.with_palette
        self.compact = plan.compact
        self.show_command_palette = plan.with_palette
        yield from super().compose()

    async def _recompose_if_changed(self) -> None:
        self._check_pending = False
        if not self.is_attached:  # its screen closed before the check ran
            return
        plan = self._plan(self.size.width)
        if (plan.shown, plan.with_palette) != self._shown:
            await self.recompose()
        else:
            self.compact = plan.compact

    def _plan(self, width: int) -> Plan:
        active = self.screen.active_bindings  # computed once: it asks every node's check_action
        shown = self._shown_keys(active)
        return Plan(shown, *self._fit(shown, active.get(self.app.COMMAND_PALETTE_BINDING), width))

    def _shown_keys(self, active: dict[str, ActiveBinding]) -> Shown:
        """What the footer shows: one key per action (the first bound), as Textual's compose does."""
        keys: dict[str, tuple[str, str, bool, str]] = {}
        for _node, binding, enabled, tooltip in active.values():
            if binding.show and binding.action not in keys:
                keys[binding.action] = (self.app.get_key_display(binding), binding.description, enabled, tooltip)
        return tuple(keys.values())

    def _fit(self, shown: Shown, palette: ActiveBinding | None, width: int) -> tuple[bool, bool]:
        """(compact, with the palette key): the roomiest layout that fits in `width` cells."""
        texts = [cell_len(display) + cell_len(description) for display, description, _, _ in shown]
        palette_width = (
            cell_len(self.app.get_key_display(palette.binding)) + cell_len(palette.binding.description) + ROOMY_PADDING
            if palette and self.app.ENABLE_COMMAND_PALETTE
            else None
        )
        for compact in (False, True):
            keys_width = sum(text + (COMPACT_PADDING if compact else ROOMY_PADDING) for text in texts)
            if palette_width is None and keys_width <= width:
                return compact, False
            if palette_width is not None and keys_width + palette_width <= width:
                return compact, True
        return True, False
