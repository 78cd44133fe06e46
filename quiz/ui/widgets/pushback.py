"""A pushback on screen, shared by the mock interview and practice: the challenge shown above the
answer (which stays open for a revision) with the keys that meet it, and the sentence that says
how it was met once it is graded."""

from __future__ import annotations

from textual.widgets import Static

from quiz.history.pushbacks import PushbackRow
from quiz.locale.i18n import tr
from quiz.render.mathtext import markdown_to_plain
from quiz.session.pushback import Challenge, pushback_case


def pushback_prompt(challenge: Challenge, lang: str) -> Static:
    """The challenge as the interviewer puts it, and F7 / F8 to hold or revise (id `pushback`)."""
    text = markdown_to_plain(challenge.variant.text(challenge.pushback.text, lang)).strip()
    said = f"{tr('ui.pushback_prompt', lang, text=text)}\n{tr('ui.pushback_choose', lang)}"
    return Static(said, id="pushback", markup=False)


def pushback_outcome(challenge: Challenge, row: PushbackRow, lang: str) -> str:
    """How the challenge was met and what that earned, in a sentence."""
    return tr(f"mockreport.pushback_{pushback_case(challenge.was_right, row)}", lang)
