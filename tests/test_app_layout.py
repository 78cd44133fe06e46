"""On a small terminal nothing a learner needs is cut off or out of view.

At 80x24, every footer key and the whole progress line show, on every screen and in both
languages. A question opens at its prompt's first line; feedback at its verdict, a hint and a
model answer where they start; and the answer comes into view as soon as the learner uses it.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from pilot_waits import settle
from fixture_bank import fixture_bank
from quiz.bank import Selection
from quiz.ui.app import QuizApp, make_app
from quiz.ui.widgets.footer import KeyFooter

BANK = fixture_bank()
SMALLEST = (80, 24)
ONE_OF_EACH_TYPE = sorted({question.type: f"{qid}#1" for qid, question in BANK.questions.items()}.values())


def assert_footer_keys_whole(app: QuizApp) -> None:
    footer = app.screen.query_one(KeyFooter)
    regions = [key.region for key in footer.query(FooterKey)]
    assert regions, "no keys in the footer"
    for region in regions:
        assert footer.region.contains_region(region), f"a key is cut off: {region} outside {footer.region}"
    for first, second in combinations(regions, 2):
        assert not first.overlaps(second), f"keys overlap: {first} and {second}"


def assert_progress_whole(app: QuizApp) -> None:
    progress = app.screen.query_one("#progress", Static)
    box = progress.content_region
    assert box.height >= progress.get_content_height(box.size, app.size, box.width)


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_home_footer_fits(lang):
    app = make_app(lang=lang, bank=BANK)
    async with app.run_test(size=SMALLEST) as pilot:
        await pilot.pause()
        assert_footer_keys_whole(app)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("key", ONE_OF_EACH_TYPE)
async def test_question_and_feedback_fit(key, lang):
    app = make_app(start=Selection(key=key), seed=3, lang=lang, bank=BANK)
    async with app.run_test(size=SMALLEST) as pilot:
        await pilot.pause()
        assert_footer_keys_whole(app)
        assert_progress_whole(app)
        await pilot.press("f3")  # give up: the feedback screen's keys
        await settle(pilot)  # the worked solution follows the verdict by a frame or two
        assert_footer_keys_whole(app)
        assert_progress_whole(app)
        # The feedback opens at the top of the view (or as high as it can scroll), not on its last line.
        body = app.screen.query_one("#question-body")
        verdict = app.screen.query_one("#verdict").region
        assert body.region.contains_region(verdict)
        assert verdict.y - body.region.y < body.region.height // 2 or body.scroll_y == body.max_scroll_y


async def test_the_footer_refits_when_the_terminal_is_resized():
    def palette_shown(app: QuizApp) -> bool:
        return bool(app.screen.query("FooterKey.-command-palette"))

    app = make_app(start=Selection(key="fx-matrix#1"), seed=3, bank=BANK)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert palette_shown(app) and not app.screen.query_one(KeyFooter).compact
        await pilot.resize_terminal(*SMALLEST)
        await pilot.pause()
        await pilot.pause()
        assert_footer_keys_whole(app)
        assert not palette_shown(app)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.pause()
        assert palette_shown(app)


@pytest.mark.parametrize("key", sorted(BANK.questions))
async def test_a_question_opens_at_the_start_of_its_prompt(key):
    """Focus goes to the answer, but the view starts where reading does: the prompt's first line."""
    app = make_app(start=Selection(key=key), seed=3, lang="ja", bank=BANK)
    async with app.run_test(size=SMALLEST) as pilot:
        await settle(pilot)
        body = app.screen.query_one("#question-body")
        assert body.scroll_y == 0 and app.screen.focused is not None
        if not app.screen.session.variant.question.is_parametric:
            return  # one fixed question: after it the round is over
        await pilot.press("f3", "f5")
        await settle(pilot)
        assert body.scroll_y == 0  # the next variant starts at its top too, not where feedback was


async def test_the_model_answer_opens_at_its_start_and_ticking_shows_the_rubric():
    app = make_app(start=Selection(key="fx-explain"), seed=3, bank=BANK)
    async with app.run_test(size=SMALLEST) as pilot:
        await pilot.press("f4")
        await settle(pilot)
        body = app.screen.query_one("#question-body")
        model = app.screen.query_one("#model-answer").region
        rubric = app.screen.query_one("#rubric")
        assert body.region.contains(model.x, model.y)  # its first line is in view
        assert app.screen.focused is rubric and "f4" not in {k.key for k in app.screen.query(FooterKey)}
        await pilot.press("space")  # tick the highlighted point
        await pilot.pause()
        assert rubric.selected and body.region.overlaps(rubric.region)


async def test_a_hint_comes_into_view_when_asked_for():
    app = make_app(start=Selection(key="fx-choice#2"), seed=3, bank=BANK)  # a long prompt
    async with app.run_test(size=SMALLEST) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await settle(pilot)
        body = app.screen.query_one("#question-body").region
        hint = app.screen.query_one(".hint").region
        assert body.contains_region(hint)


@pytest.mark.parametrize(
    ("key", "height", "press"),
    [
        ("fx-matrix#1", 16, "1"),  # typed into the numeric field, which keeps its keys
        ("fx-choice#2", 12, "down"),  # an arrow in a choice list
        ("fx-order#1", 6, "down"),  # an arrow in the order list
    ],
)
async def test_using_the_answer_brings_it_into_view(key, height, press):
    app = make_app(start=Selection(key=key), seed=3, bank=BANK)
    async with app.run_test(size=(80, height)) as pilot:  # too short for prompt and answer at once
        await pilot.pause()
        body = app.screen.query_one("#question-body")
        answer = app.screen.query_one(".answer")
        assert body.scroll_y == 0 and not body.region.overlaps(answer.region)
        await pilot.press(press)
        await pilot.pause()
        assert body.region.overlaps(answer.region)
