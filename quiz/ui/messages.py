"""What screens ask of the app, as typed messages: a screen posts one, the app handles it with `@on`.

Screens never reach into the app or call its actions by name; they say what the learner chose.
The app decides what that means (which screen to open, what to save).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

from quiz.bank import Selection

if TYPE_CHECKING:
    from quiz.history.records import AttemptRecord
    from quiz.mock.options import MockOptions
    from quiz.mock.session import MockSession
    from quiz.practice.drafts import DraftNote
    from quiz.practice.session import PracticeSession


class StartPractice(Message):
    """Practise the questions `selection` picks (everything, a topic, a claim, one key...)."""

    def __init__(self, selection: Selection) -> None:
        super().__init__()
        self.selection = selection


class OpenBrowser(Message):
    """Show the bank browser."""


class OpenSettings(Message):
    """Show the settings screen."""


class GoHome(Message):
    """Leave what is open and return to the home screen."""


class ChangeLanguage(Message):
    """Switch the interface and the questions to `lang`, and save it."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang


class ChangeTheme(Message):
    """Use the colour theme `theme`, and save it."""

    def __init__(self, theme: str) -> None:
        super().__init__()
        self.theme = theme


class ChangeRetention(Message):
    """Schedule reviews at the desired retention `retention` from now on, and save it."""

    def __init__(self, retention: float) -> None:
        super().__init__()
        self.retention = retention


class ReviewDue(Message):
    """Practise the questions due for review, most overdue first, in review mode."""


class OpenStatistics(Message):
    """Show the statistics of the learner's history."""


class RoundOver(Message):
    """The round of `session` is over (every question shown, or the learner left): sum it up."""

    def __init__(self, session: PracticeSession) -> None:
        super().__init__()
        self.session = session


class AttemptRecorded(Message):
    """The screen's session committed a graded attempt to the history (or tried to)."""


class MarkEasy(Message):
    """The learner found the passed `attempt` easy: rate it Easy and reschedule its question."""

    def __init__(self, attempt: AttemptRecord) -> None:
        super().__init__()
        self.attempt = attempt


class StartMock(Message):
    """Sit a mock interview made from `options` (a running one may be resumed first)."""

    def __init__(self, options: MockOptions) -> None:
        super().__init__()
        self.options = options


class MockOver(Message):
    """The mock interview of `session` has ended: self-grading, then its report."""

    def __init__(self, session: MockSession) -> None:
        super().__init__()
        self.session = session


class DraftElsewhere(Message):
    """A code draft is being written to a file because the history file cannot be used (`note`
    says where, and why): the app tells the learner, with why answers are not being saved."""

    def __init__(self, note: DraftNote) -> None:
        super().__init__()
        self.note = note
