"""Whether a screen shows its feedback: the practice screen mounts one hidden while the question
is read (see AnsweringScreen.PREPARES_FEEDBACK), so being mounted says nothing."""

from __future__ import annotations

from textual.screen import Screen

from quiz.ui.widgets.feedback import FeedbackView


def feedback_shown(screen: Screen) -> bool:
    """A feedback view on `screen` has a result and is displayed."""
    return any(view.display and not view.waiting for view in screen.query(FeedbackView))
