"""What packs can say since issue 32, as the candidate meets it in the app: an explain question
that draws numbers, an answer right in another convention, labelled as such, and an answer in
another unit, converted as it is typed."""

from __future__ import annotations

import math

from pilot_waits import settle
from places import ROOT
from quiz.bank import Selection, load_bank
from quiz.types.draw import rebuild_variant
from quiz.ui.app import make_app
from screen_text import screen_text

QUESTION = "explain-drawn-saturation"


def docs_bank(tmp_path, question: str = QUESTION):
    """The docs' example of `question`, loaded as a pack of its own."""
    text = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    start = text.index(f"id: {question}")
    path = tmp_path / f"{question}.yaml"
    path.write_text(text[start : text.index("```", start)], encoding="utf-8")
    return load_bank([path])


async def test_a_drawn_explain_question_shows_its_numbers_in_prompt_model_answer_and_rubric(tmp_path):
    bank = docs_bank(tmp_path)
    attempts: list = []
    shown: set[int] = set()
    for seed in (1, 2, 3, 4):
        app = make_app(start=Selection(key=f"{QUESTION}#{seed}"), seed=7, bank=bank, on_attempt=attempts.append)
        async with app.run_test(size=(100, 40)) as pilot:
            await settle(pilot)
            d_k = app.screen.session.variant.inputs["d_k"]
            shown.add(d_k)
            formula = f"√{d_k}={math.sqrt(d_k):.4g}"  # as the screen shows it, spaces removed
            assert f"dₖ={d_k}and" in screen_text(app.screen)
            await pilot.press("ctrl+s", "f4")
            await settle(pilot)
            text = screen_text(app.screen)
            assert text.count(formula) >= 2, text  # the model answer and the first rubric point
            assert "{{" not in text
            await pilot.press("a", "enter")
            await settle(pilot)
        record = attempts[-1]
        assert (record.key, record.score) == (f"{QUESTION}#{seed}", 0.5)
        rebuilt = rebuild_variant(bank.compiled(QUESTION), seed, record.inputs)  # as history and reviews do
        assert f"\\sqrt{{ {d_k} }} = {math.sqrt(d_k):.4g}$" in rebuilt.text(rebuilt.question.rubric[0], "en")
    assert len(shown) > 1  # the seeds draw different cases


async def test_an_answer_in_another_convention_is_right_and_the_screen_says_which(tmp_path):
    bank = docs_bank(tmp_path, "qk-product-cost")
    app = make_app(start=Selection(key="qk-product-cost#2"), seed=7, bank=bank)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        inputs = app.screen.session.variant.inputs
        field = app.screen.query_one("#answer-input")
        field.value = str(inputs["L"] * inputs["S"] * inputs["d_k"])  # multiply-adds, not FLOPs
        await pilot.press("enter")
        await settle(pilot)
        text = screen_text(app.screen)
        assert "Correct·Score1.00" in text
        assert "Right,inanotherconvention:countedasmultiply-adds,mnk." in text
        assert "(FLOPs,2mnk);alsoright:" in text


async def test_an_answer_in_another_unit_is_read_as_converted_and_graded(tmp_path):
    bank = docs_bank(tmp_path, "gqa-cache-size")
    app = make_app(start=Selection(key="gqa-cache-size#3"), seed=7, bank=bank)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        v = app.screen.session.variant.inputs
        mib = 2 * v["layers"] * v["n_kv"] * v["d_head"] * v["tokens"] * v["bytes"] / 2**20
        field = app.screen.query_one("#answer-input")
        field.value = "3 ms"
        await settle(pilot)
        assert "'ms'isnotaunitthisanswercanbegivenin:writeitinMiB" in screen_text(app.screen)
        field.value = f"{mib / 1024} GiB"
        await settle(pilot)
        assert f"Readas:{mib:g}MiB({mib / 1024:g}GiB)" in screen_text(app.screen)
        await pilot.press("enter")
        await settle(pilot)
        assert "Correct·Score1.00" in screen_text(app.screen)
        assert f"Answer:{mib:g}MiB" in screen_text(app.screen)
