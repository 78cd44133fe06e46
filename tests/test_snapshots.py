"""Snapshots of every screen, in English and Japanese, at 80x24 and 120x40.

Each SVG was looked at before it was accepted (`make test PYTEST_ARGS=--snapshot-update`
regenerates them; look at the diff report before committing). Variants are fixed by their
keys and the session seed, and text cursors do not blink, so the pictures are stable.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from pilot_waits import settle
from fixture_bank import fixture_bank
from quiz.bank import Selection
from quiz.ui.app import make_app

BANK = fixture_bank()
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
LANGS = ["en", "ja"]
QUESTIONS = {
    "number": "fx-number#4",
    "vector": "fx-vector",
    "matrix": "fx-matrix#3",
    "choice": "fx-choice#2",
    "multi": "fx-multi",
    "order": "fx-order",
    "truefalse": "fx-truefalse",
    "explain": "fx-explain",
}


def app_for(lang: str, key: str | None = None):
    return make_app(start=Selection(key=key) if key else None, seed=11, lang=lang, bank=BANK)


async def steady(pilot: Pilot) -> None:
    """No blinking cursor in the picture, and nothing still being mounted or laid out."""
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_home(snap_compare, lang, size):
    assert snap_compare(app_for(lang), terminal_size=size, run_before=steady)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", list(QUESTIONS))
def test_question(snap_compare, kind, lang, size):
    assert QUESTIONS[kind].split("#")[0] in BANK.questions
    assert BANK.questions[QUESTIONS[kind].split("#")[0]].type == kind
    assert snap_compare(app_for(lang, QUESTIONS[kind]), terminal_size=size, run_before=steady)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_feedback_with_heatmap(snap_compare, lang, size):
    """A wrong matrix answer: verdict, marks, answer, and (scrolled to) the heatmap."""

    async def answer(pilot: Pilot) -> None:
        pilot.app.screen.query_one("#answer-input", Input).value = "1 0 0; 0.5 0.5 0; 0.3 0.3 0.4"
        await pilot.press("enter")
        await settle(pilot)  # the worked solution and the footer's new keys follow by a frame or two
        heatmap = pilot.app.screen.query(".heatmap").first()
        heatmap.scroll_visible(animate=False, top=True)
        await steady(pilot)

    assert snap_compare(app_for(lang, QUESTIONS["matrix"]), terminal_size=size, run_before=answer)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LANGS)
def test_settings(snap_compare, lang, size):
    assert snap_compare(app_for(lang), press=["f8"], terminal_size=size, run_before=steady)
