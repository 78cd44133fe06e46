"""Every formula of a question reaches the screen, as Unicode, in both languages.

Textual's Markdown widget silently drops token types it does not know, so maths that our
parser failed to turn into text would vanish without an error: this test would see it. The
fixture pack puts maths everywhere a question can: prompt, table, hints, options, order items,
model answer, checklist, explanation and worked-value labels.
"""

from __future__ import annotations

import re

import pytest

from fixture_bank import fixture_bank
from pilot_waits import settle
from quiz.bank import Selection
from quiz.format.compile import texts_of
from quiz.render.mathtext import latex_to_unicode
from quiz.ui.answer_widgets.explain import ExplainAnswer
from quiz.ui.app import make_app
from screen_text import screen_text

FORMULA = re.compile(r"\$\$(.+?)\$\$|\$([^$\n]+?)\$", re.S)
BANK = fixture_bank()


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("question_id", list(BANK.questions))
async def test_every_formula_is_on_screen(question_id, lang):
    app = make_app(start=Selection(key=f"{question_id}#2"), seed=2, lang=lang, bank=BANK)
    async with app.run_test(size=(120, 60)) as pilot:
        screen = app.screen
        variant = screen.session.variant
        for _ in variant.question.hints:
            await pilot.press("f2")
        if screen.query(ExplainAnswer):
            await pilot.press("f4")
        await pilot.press("f3", "f3")  # give up, confirmed
        await settle(pilot)  # the worked solution follows the verdict by a frame or two
        shown = screen_text(screen)
        formulas = []
        for label, text in texts_of(variant.question):
            if label.startswith(("misconceptions", "options", "critical")) and "feedback" in label:
                continue  # feedback shows only for the mistake, option or misordered pair picked
            formulas += [a or b for a, b in FORMULA.findall(variant.text(text, lang))]
        assert formulas
        for formula in formulas:
            expected = "".join(latex_to_unicode(formula).split())
            assert expected in shown, f"{question_id} ({lang}): ${formula}$ → {expected!r} not on screen"
