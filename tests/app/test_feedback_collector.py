"""The cyclic garbage collector waits from an answer's Enter until its feedback is drawn, and is
never left paused: it runs again once the feedback is on screen, and when the screen goes."""

from __future__ import annotations

import gc

from textual import events
from textual.message import Message
from textual.widgets import Input

from feedback_state import feedback_shown
from fixture_bank import fixture_bank
from pilot_waits import settle
from quiz.bank import Selection
from quiz.base.collector import COLLECTOR
from quiz.ui.app import make_app

BANK = fixture_bank()


async def test_the_feedback_is_mounted_with_collection_paused_and_collection_runs_again_after():
    mounts: list[bool] = []  # whether automatic collection ran, at each widget's mount after Enter
    answering = False

    def hook(message: Message) -> None:
        if answering and isinstance(message, events.Mount):
            mounts.append(gc.isenabled())

    app = make_app(start=Selection(key="fx-vector"), seed=7, bank=BANK)
    async with app.run_test(size=(100, 40), message_hook=hook) as pilot:
        await settle(pilot)
        gc.enable()  # as once the app's start is over (it pauses the collector while starting)
        app.screen.query_one("#answer-input", Input).value = "0.881 0.119"
        await pilot.pause()
        answering = True
        await pilot.press("enter")
        await settle(pilot)
        assert feedback_shown(app.screen)
        assert mounts and mounts[0] is False  # the feedback's first widget: mounted while held
        assert gc.isenabled() and not COLLECTOR.holding


async def test_a_hold_the_screen_never_releases_ends_with_the_screen():
    app = make_app(start=Selection(key="fx-vector"), seed=7, bank=BANK)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        gc.enable()
        COLLECTOR.hold()  # as when the app ends between Enter and the feedback's frame
        assert not gc.isenabled()
    assert gc.isenabled() and not COLLECTOR.holding
