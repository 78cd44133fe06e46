"""Answers as learners give them and see them, in the real app on the bundled bank: shapes written
as people write them, multi and order answers one per line, an order shown once (issue 33)."""

from __future__ import annotations

from functools import cache

import pytest
from textual.widgets import Input, Static

from pilot_waits import settle
from quiz.bank import Bank, Selection, load_bank
from quiz.types.options import correct_options, letter, shown
from quiz.types.order import TYPE as ORDER
from quiz.ui.answer_widgets.order import OrderAnswer
from quiz.ui.app import QuizApp, make_app

SIZE = (100, 30)


@cache
def bundled() -> Bank:
    """The bundled bank, loaded once for these tests."""
    return load_bank()


def start(key: str, attempts: list | None = None) -> QuizApp:
    return make_app(start=Selection(key=key), seed=7, bank=bundled(), on_attempt=None if attempts is None else attempts.append)


def text_of(app: QuizApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def shape_text(variant_answer) -> tuple[str, str]:
    """The key of a cross-attention-shapes variant as `7x18, 7x8` and as `(7, 18), (7, 8)`."""
    rows, cols, out_rows, out_cols = (int(v) for v in variant_answer)
    return f"{rows}x{cols}, {out_rows}x{out_cols}", f"({rows}, {cols}), ({out_rows}, {out_cols})"


@pytest.mark.parametrize("form", [0, 1])
async def test_a_shape_is_typed_as_people_write_it_and_graded_right(form):
    attempts: list = []
    app = start("cross-attention-shapes#1", attempts)
    async with app.run_test(size=SIZE) as pilot:
        typed = shape_text(app.screen.session.variant.answer)[form]
        app.screen.query_one("#answer-input", Input).value = typed
        await pilot.pause()
        assert text_of(app, "#preview").startswith("Read as: [6, 15, 6, 8]")
        await pilot.press("enter")
        await settle(pilot)
        assert str(app.screen.query_one("#verdict").render()).startswith("Correct · Score 1.00")
    [attempt] = attempts
    assert attempt.score == 1.0 and attempt.response == typed


async def test_a_shape_one_tenth_off_is_wrong_not_within_tolerance():
    app = start("cross-attention-shapes#1")
    async with app.run_test(size=SIZE) as pilot:
        app.screen.query_one("#answer-input", Input).value = "6.09x15, 6x8"
        await pilot.press("enter")
        await settle(pilot)
        assert str(app.screen.query_one("#verdict").render()).startswith("Incorrect")
        shown = " ".join(str(widget.render()) for widget in app.screen.query(Static))
        assert "6.09 ✗" in shown and "Accepted when every size matches exactly" in shown


# -- multi and order answers -----------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_a_multi_answer_lists_each_right_option_on_its_own_line(lang):
    app = make_app(start=Selection(key="stable-softmax-facts"), seed=7, lang=lang, bank=bundled())
    async with app.run_test(size=SIZE) as pilot:
        variant = app.screen.session.variant
        right = correct_options(variant)
        await pilot.press(*(letter(n) for n, (i, _) in enumerate(shown(variant)) if i in right), "enter")
        await settle(pilot)
        key = text_of(app, "#answer-key")
        assert ".;" not in key and "。;" not in key and "; " not in key
        lines = key.splitlines()[1:]
        assert len(lines) == len(right)
        assert [line[0] for line in lines] == sorted(letter(n) for n, (i, _) in enumerate(shown(variant)) if i in right)


async def test_an_order_answered_right_shows_the_order_once():
    app = start("attention-pipeline-order")
    async with app.run_test(size=SIZE) as pilot:
        items = ORDER.question_of(app.screen.session.variant).items
        app.screen.query_one(OrderAnswer)._order = list(range(len(items)))  # as the keys would leave it
        await pilot.press("enter")
        await settle(pilot)
        assert str(app.screen.query_one("#verdict").render()).startswith("Correct")
        feedback = " ".join(str(widget.render()) for widget in app.screen.query_one("#feedback").query(Static))
        first_step = text_of(app, "#answer-key").splitlines()[1]
        assert feedback.count(first_step[3:]) == 1 and not app.screen.query("#marks")
