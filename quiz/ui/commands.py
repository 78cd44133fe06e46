"""The question screen's own entries in the command palette (Ctrl+P): hint, give up, new numbers,
next question, more worked values and Easy, offered only when the screen would accept them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

from quiz.i18n import tr

if TYPE_CHECKING:
    from quiz.ui.screens.question import QuestionScreen

# Action run by each entry; giving up from the palette is already deliberate, so it is confirmed.
ENTRIES = {
    "next_question": "next_question",
    "fresh_variant": "fresh_variant",
    "hint": "hint",
    "give_up": "give_up(True)",
    "more_worked": "more_worked",
    "easy": "easy",
}


class QuestionCommands(Provider):
    """What can be done to the question on screen, in the learner's language."""

    def _entries(self) -> Iterator[tuple[str, str, Callable[[], Awaitable[None]]]]:
        # Only QuestionScreen lists this provider (its COMMANDS); importing it here would be circular.
        screen: QuestionScreen = self.screen  # type: ignore[assignment]
        for name, action in ENTRIES.items():
            if screen.check_action(name, ()):
                yield tr(f"ui.cmd_title_{name}", screen.lang), tr(f"ui.cmd_{name}", screen.lang), partial(screen.run_action, action)

    async def discover(self) -> Hits:
        for title, help_text, run in self._entries():
            yield DiscoveryHit(title, run, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, run in self._entries():
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), run, help=help_text)
