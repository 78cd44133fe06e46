"""The feedback's answer-independent part (answer key, explanation, worked values) is prepared
while the question is on screen, used by the feedback, and never carried over to another variant.
On the practice screen it is also mounted, hidden, and completed by the answer."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import Input

from fixture_bank import fixture_bank
from pilot_waits import settle
from quiz.bank import Selection
from quiz.types.draw import make_variant
from quiz.ui.app import make_app
from quiz.ui.widgets.feedback import FeedbackBasis, FeedbackView

BANK = fixture_bank()


async def test_the_basis_is_prepared_before_enter_used_by_the_feedback_and_renewed_with_the_variant():
    app = make_app(start=Selection(key="fx-number"), seed=7, bank=BANK)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        first = screen.variant
        basis = screen.feedback_basis
        assert basis is not None and basis.serves(first, screen.lang)
        screen.query_one("#answer-input", Input).value = "1"
        await pilot.press("enter")
        await settle(pilot)
        assert screen.query_one(FeedbackView).basis is basis
        assert screen.query_one(FeedbackView).result is not None
        await pilot.press("f5")  # a fresh variant: its own basis, not the answered one's
        await settle(pilot)
        assert screen.variant is not first
        assert screen.feedback_basis is not None and screen.feedback_basis.serves(screen.variant, screen.lang)


def test_a_basis_serves_only_its_own_variant_and_language():
    compiled = BANK.compiled("fx-vector")
    assert compiled is not None
    first, second = make_variant(compiled, 7), make_variant(compiled, 8)
    basis = FeedbackBasis.of(first, "en")
    assert basis.serves(first, "en")
    assert not basis.serves(second, "en") and not basis.serves(first, "ja")
    assert basis.answer.startswith("Answer") and basis.worked.featured is not None


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_the_prepared_feedback_is_hidden_until_the_answer_completes_it_and_is_rebuilt_for_each_variant(lang):
    app = make_app(start=Selection(key="fx-matrix#3"), seed=7, bank=BANK, lang=lang)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        body = screen.query_one("#question-body")
        [prepared] = screen.query(FeedbackView)
        assert prepared.waiting and prepared.basis is screen.feedback_basis and prepared.lang == lang
        assert prepared.query("#explanation") and prepared.query("#worked > *")  # built, but not shown:
        assert not prepared.display and not prepared.region and not any(part.region for part in prepared.walk_children())
        assert body.max_scroll_y == 0  # it adds nothing to scroll through
        for _ in range(6):  # and the keys never reach it
            await pilot.press("tab")
            assert screen.focused is not None and prepared not in screen.focused.ancestors_with_self
        await pilot.press("f3", "f3")  # given up: the answer-dependent part is the verdict alone
        await settle(pilot)
        assert screen.query_one(FeedbackView) is prepared and not prepared.waiting  # completed, not built again
        assert prepared.display and prepared.query_one("#verdict").region and prepared.query_one("#explanation").region
        assert all(part.region for part in prepared.query("#worked > *"))  # a frame later, shown too
        assert prepared.query_one("#verdict").has_class("verdict-revealed")
        await pilot.press("f5")  # a fresh variant: its own hidden feedback, nothing of the answered one
        await settle(pilot)
        [fresh] = screen.query(FeedbackView)
        assert fresh is not prepared and fresh.waiting and not fresh.display and fresh.basis.serves(screen.variant, lang)
        assert not fresh.query("#verdict")


async def test_an_answer_given_while_its_feedback_is_being_prepared_leaves_one_feedback_shown():
    app = make_app(start=Selection(key="fx-number"), seed=7, bank=BANK)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        area = screen.query_one("#feedback-area")
        await area.remove_children()  # as before the prepared panel is mounted
        screen.query_one("#answer-input", Input).value = "1"
        # Preparing starts, the answer is graded while it waits on the area, then it goes on.
        preparing = asyncio.ensure_future(screen._prepare_feedback(screen.variant))
        await screen.run_action("submit")
        await preparing
        await settle(pilot)
        [shown] = area.children
        assert isinstance(shown, FeedbackView) and shown.result is not None and shown.display


async def test_the_answer_is_sealed_once_the_feedback_is_drawn_and_never_a_question_that_replaced_it():
    app = make_app(start=Selection(key="fx-number"), seed=7, bank=BANK)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        field = screen.query_one("#answer-input", Input)
        field.value = "1"
        await screen.run_action("submit")
        assert not field.has_focus  # at once: no key reaches the graded answer
        await settle(pilot)
        assert field.disabled and screen.query_one(FeedbackView).display
        await pilot.press("2")
        assert field.value == "1"
        # Answered, then replaced by a fresh variant at once, whether or not its seal came first:
        # the seal is the answered field's, and the new field takes keys.
        await pilot.press("f5")
        await settle(pilot)
        answered = screen.query_one("#answer-input", Input)
        answered.value = "1"
        await screen.run_action("submit")
        await pilot.press("f5")
        await settle(pilot)
        fresh = screen.query_one("#answer-input", Input)
        assert fresh is not answered and not fresh.disabled
        await pilot.press("3")
        assert fresh.value == "3"
