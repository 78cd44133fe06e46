"""The feedback's answer-independent part (answer key, explanation, worked values) is prepared
while the question is on screen, used by the feedback, and never carried over to another variant."""

from __future__ import annotations

from textual.widgets import Input

from fixture_bank import fixture_bank
from pilot_waits import settle
from quiz.bank import Selection
from quiz.ui.app import make_app
from quiz.ui.widgets.feedback import FeedbackBasis, FeedbackView
from quiz.variants.draw import make_variant

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
