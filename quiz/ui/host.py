"""What the app's flows ask of the app: the bank, the learner's history and language, its screen
stack and its notices. `quiz.ui.app.QuizApp` is the one that has them; a flow holds a host and
names nothing else of the app."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from textual.notifications import SeverityLevel
from textual.screen import Screen

if TYPE_CHECKING:
    from quiz.bank import Bank
    from quiz.history.recorder import Recorder


class Host(Protocol):
    """The app as a practice round or a mock interview sees it."""

    bank: Bank | None
    history: Recorder
    rng: random.Random

    @property
    def lang(self) -> str: ...

    @property
    def screen(self) -> Screen[Any]: ...

    @property
    def screen_stack(self) -> list[Screen[Any]]: ...

    def push_screen(self, screen: Screen[Any], callback: Callable[[Any], None] | None = None) -> Any: ...

    def switch_screen(self, screen: Screen[Any]) -> Any: ...

    def pop_screen(self) -> Any: ...

    def notify(self, message: str, *, severity: SeverityLevel = "information", timeout: float | None = None) -> None: ...

    def tell_history_problem(self) -> None:
        """Say why history is not being saved, once a run."""
