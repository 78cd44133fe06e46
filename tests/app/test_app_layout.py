"""On a small terminal nothing a learner needs is cut off or out of view.

Down to 60×16, in both languages and for every kind of answer, the answer field or option list
is on screen while the question scrolls in its own region, and the footer shows F6, Esc and F1
whole (with every other key it shows). Below that, a note asks for a larger terminal instead of
a question without its answer. A question opens at its prompt's first line, feedback at its
verdict, a hint and a model answer where they start.
"""

from __future__ import annotations

import gc
import weakref
from itertools import combinations

import pytest
from textual.geometry import Region
from textual.widgets import Input, Static

from feedback_state import feedback_shown
from fixture_bank import fixture_bank
from pilot_waits import settle
from quiz.bank import Selection
from quiz.ui.answer_widgets.base import AnswerWidget
from quiz.ui.app import QuizApp, make_app
from quiz.ui.screens.base import HEIGHT_CLASSES, WIDTH_CLASSES, QuizScreen
from quiz.ui.screens.summary import SummaryScreen
from quiz.ui.widgets.footer import KeyFooter

BANK = fixture_bank()
SMALL_SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((60, 16), id="60x16")]
FOOTER_WIDTHS = [60, 80, 100, 120]
LANGS = ["en", "ja"]
ONE_OF_EACH_TYPE = sorted({question.type: f"{qid}#1" for qid, question in BANK.questions.items()}.values())
ALWAYS_SHOWN = {"f6", "escape", "f1"}


def footer_keys(app: QuizApp) -> dict[str, Region]:
    """Each key the footer shows, by key, with where it is drawn."""
    return {key.key: key.region for key in app.screen.query_one(KeyFooter).query("FooterKey")}


def assert_footer_keys_whole(app: QuizApp, must_show: set[str] = ALWAYS_SHOWN) -> None:
    footer = app.screen.query_one(KeyFooter)
    keys = footer_keys(app)
    assert must_show <= keys.keys(), f"missing from the footer: {must_show - keys.keys()}"
    for key, region in keys.items():
        assert footer.region.contains_region(region), f"{key} is cut off: {region} outside {footer.region}"
    for first, second in combinations(keys.values(), 2):
        assert not first.overlaps(second), f"keys overlap: {first} and {second}"


def assert_answer_on_screen(app: QuizApp) -> None:
    """The answer's input is drawn whole, between the question and the footer, and so is some question."""
    screen = app.screen
    control = screen.query_one(AnswerWidget).input_widget()
    assert control is not None and control.display
    body = screen.query_one("#question-body").region
    footer = screen.query_one(KeyFooter).region
    assert control.region.height and screen.region.contains_region(control.region), f"answer not on screen: {control.region}"
    assert not control.region.overlaps(footer) and not control.region.overlaps(body)
    assert body.height >= 3, f"no room left for the question: {body}"


def assert_status_whole(app: QuizApp) -> None:
    status = app.screen.query_one("#status", Static)
    box = status.content_region
    assert box.height >= status.get_content_height(box.size, app.size, box.width)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("width", FOOTER_WIDTHS)
async def test_home_footer_fits(lang, width):
    app = make_app(lang=lang, bank=BANK)
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        assert_footer_keys_whole(app, {"f8", "f1"})


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SMALL_SIZES)
@pytest.mark.parametrize("key", ONE_OF_EACH_TYPE)
async def test_the_answer_stays_on_screen_while_the_question_scrolls(key, size, lang):
    app = make_app(start=Selection(key=key), seed=3, lang=lang, bank=BANK)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        if app.screen.session.variant.question.type == "explain":
            await pilot.press("f4")  # its checklist is the answer
            await settle(pilot)
        assert_answer_on_screen(app)
        assert_status_whole(app)
        body = app.screen.query_one("#question-body")
        if body.max_scroll_y:  # the question is longer than its region: it scrolls, the answer stays
            await pilot.press("pagedown")
            await pilot.pause()
            assert body.scroll_y > 0
            assert_answer_on_screen(app)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("width", FOOTER_WIDTHS)
@pytest.mark.parametrize("key", ONE_OF_EACH_TYPE)
async def test_the_footer_never_hides_f6_esc_or_f1(key, width, lang):
    app = make_app(start=Selection(key=key), seed=3, lang=lang, bank=BANK)
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        assert_footer_keys_whole(app)
        if app.screen.session.variant.question.type == "explain":
            await pilot.press("f4")
            await settle(pilot)
            assert_footer_keys_whole(app)
        await pilot.press("f3", "f3")  # give up: the feedback's keys
        await settle(pilot)
        assert_footer_keys_whole(app)


async def test_the_footer_is_textuals_own_compact_below_120_columns_and_keeps_f6_esc_f1():
    def palette_shown(app: QuizApp) -> bool:
        return bool(app.screen.query("FooterKey.-command-palette"))

    app = make_app(start=Selection(key="fx-matrix#1"), seed=3, bank=BANK)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        footer = app.screen.query_one(KeyFooter)
        assert palette_shown(app) and not footer.compact
        assert {k.description for k in footer.query("FooterKey")} >= {"New numbers", "Give up"}
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert footer.compact and not palette_shown(app)
        assert_footer_keys_whole(app)
        await pilot.resize_terminal(60, 16)
        await settle(pilot)
        assert footer.compact and not palette_shown(app)
        descriptions = {k.key: k.description for k in footer.query("FooterKey")}
        assert descriptions["f5"] == "New" and "ctrl+s" not in descriptions  # short labels; Enter submits
        assert_footer_keys_whole(app)
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        assert palette_shown(app) and not footer.compact


@pytest.mark.parametrize("lang", LANGS)
async def test_a_terminal_too_small_shows_a_note_instead_of_a_question_without_its_answer(lang):
    attempts: list = []
    app = make_app(start=Selection(key="fx-vector"), seed=3, lang=lang, bank=BANK, on_attempt=attempts.append)
    async with app.run_test(size=(80, 24)) as pilot:
        field = app.screen.query_one("#answer-input", Input)
        await pilot.press("0", ".", "8")
        await pilot.resize_terminal(40, 12)
        await settle(pilot)
        note = app.screen.query_one("#too-small", Static)
        assert note.display and note.region.height
        assert ("at least 60 columns" if lang == "en" else "幅 60 桁") in str(note.render())
        assert not app.screen.query_one("#question-body").display and not app.screen.query_one("#answer-dock").display
        await pilot.press("f3", "f3", "f6")  # nothing happens to a question the learner cannot see
        await settle(pilot)
        assert not attempts and app.screen.session.answered == 0
        assert_footer_keys_whole(app, {"escape", "f1"})
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert not note.display
        assert_answer_on_screen(app)
        assert field.value == "0.8" and app.screen.focused is field  # nothing typed was lost
        await pilot.press("8", ",", "0", ".", "1", "2", "enter")
        await settle(pilot)
        assert attempts and attempts[0].score == 1.0


async def test_page_keys_scroll_the_question_while_the_option_list_has_focus():
    app = make_app(start=Selection(key="fx-choice#2"), seed=3, bank=BANK)  # a long prompt
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        body = app.screen.query_one("#question-body")
        options = app.screen.query_one("#choices")
        assert app.screen.focused is options and body.max_scroll_y > 0
        await pilot.press("pagedown")
        await pilot.pause()
        assert body.scroll_y > 0 and app.screen.focused is options
        highlighted = options.highlighted
        await pilot.press("pageup")
        await pilot.pause()
        assert body.scroll_y == 0 and options.highlighted == highlighted


@pytest.mark.parametrize("key", sorted(BANK.questions))
async def test_a_question_opens_at_the_start_of_its_prompt(key):
    """Focus goes to the answer, but the question region starts where reading does; after it, a
    fresh variant starts at its top too, and a round of one fixed question ends (on its summary)."""
    app = make_app(start=Selection(key=key), seed=3, lang="ja", bank=BANK)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        body = app.screen.query_one("#question-body")
        control = app.screen.query_one(AnswerWidget).input_widget()  # none for explain until F4
        assert body.scroll_y == 0 and app.screen.focused is not None
        assert control is None or app.screen.focused is control
        parametric = app.screen.session.variant.question.is_parametric
        await pilot.press("f3", "f3")  # give up (asked once, then done)
        await settle(pilot)
        assert feedback_shown(app.screen)
        await pilot.press("f5" if parametric else "f6")
        await settle(pilot)
        if not parametric:
            assert isinstance(app.screen, SummaryScreen)  # one fixed question: the round is over
            return
        assert not feedback_shown(app.screen) and body.scroll_y == 0  # not where feedback was


@pytest.mark.parametrize("key", ONE_OF_EACH_TYPE)
async def test_feedback_opens_at_its_verdict(key):
    app = make_app(start=Selection(key=key), seed=3, bank=BANK)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3", "f3")
        await settle(pilot)
        body = app.screen.query_one("#question-body")
        verdict = app.screen.query_one("#verdict").region
        assert body.region.contains_region(verdict)
        assert verdict.y - body.region.y < body.region.height // 2 or body.scroll_y == body.max_scroll_y


async def test_the_model_answer_opens_at_its_start_and_the_checklist_is_on_screen():
    app = make_app(start=Selection(key="fx-explain"), seed=3, bank=BANK)
    async with app.run_test(size=(60, 16)) as pilot:
        await pilot.press("f4")
        await settle(pilot)
        body = app.screen.query_one("#question-body")
        model = app.screen.query_one("#model-answer").region
        rubric = app.screen.query_one("#rubric")
        assert body.region.contains(model.x, model.y)  # its first line is in view
        assert app.screen.focused is rubric and "f4" not in footer_keys(app)
        assert_answer_on_screen(app)


async def test_a_hint_comes_into_view_when_asked_for():
    app = make_app(start=Selection(key="fx-choice#2"), seed=3, bank=BANK)  # a long prompt
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f2")
        await settle(pilot)
        body = app.screen.query_one("#question-body").region
        hint = app.screen.query_one(".hint").region
        assert body.contains_region(hint)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", [(60, 40), (80, 40)])
async def test_a_wrapped_option_has_one_tick_box_and_hangs_under_its_text(lang, size):
    """Textual's SelectionList drew a box beside every line of a wrapped option, lit with the state
    of the option below; the checklist draws one box per option and indents the rest of its text."""
    from quiz.bank import load_bank
    from quiz.ui.answer_widgets.lettered import LetteredChecklist

    app = make_app(start=Selection(key="cosine-attention-properties#1"), lang=lang, bank=load_bank())
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await pilot.pause()
        checklist = app.screen.query_one(LetteredChecklist)
        lines = [checklist.render_line(y).text for y in range(checklist.content_region.height)]
        firsts = [line for line in lines if line.lstrip().startswith(("☐", "☑"))]
        assert len(firsts) == checklist.option_count  # every option in view, each with one box
        assert [line.lstrip()[0] for line in firsts] == ["☑" if n == 1 else "☐" for n in range(checklist.option_count)]
        assert len(lines) > len(firsts), "no option wrapped: the test shows nothing"
        hang = firsts[0].index(")") + 2
        for line in lines:
            if line.strip() and line not in firsts:
                assert line[:hang].strip() == "", f"a wrapped line runs under the box: {line!r}"
        assert "…" not in "".join(lines)


async def test_the_footer_lets_go_of_the_keys_it_replaced():
    """Answering and drawing new numbers recompose the footer several times; the keys it removed
    are freed, not kept alive by their binding to the footer's `compact` (the heap the garbage
    collector walks on the way to each feedback grew with every answer)."""
    app = make_app(start=Selection(key="fx-number#4"), seed=11, bank=BANK)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        replaced = [weakref.ref(key) for key in app.screen.query("FooterKey")]
        for _ in range(3):
            app.screen.query_one("#answer-input", Input).value = "1"
            await pilot.press("enter")
            await settle(pilot)
            replaced += [weakref.ref(key) for key in app.screen.query("FooterKey")]
            await pilot.press("f5")
            await settle(pilot)
        shown = {id(key) for key in app.screen.query("FooterKey")}
        gc.collect()
        alive = [ref() for ref in replaced if ref() is not None and id(ref()) not in shown]
        assert replaced and not alive, f"{len(alive)} removed footer keys still alive"


async def test_the_footer_keeps_its_keys_while_they_would_be_the_same():
    """The screen's bindings are refreshed several times as a question opens, mostly to the same
    keys: the footer keeps the keys on show then, and builds them again only when they change."""
    app = make_app(start=Selection(key="fx-number#4"), seed=11, bank=BANK)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        shown = list(app.screen.query("FooterKey"))
        app.screen.refresh_bindings()
        await settle(pilot)
        assert shown and [id(key) for key in app.screen.query("FooterKey")] == [id(key) for key in shown]
        app.screen.query_one("#answer-input", Input).value = "1"
        await pilot.press("enter")  # answered: submit and give up go, next comes
        await settle(pilot)
        keys = app.screen.query("FooterKey")
        assert "f6" in {key.key for key in keys} and {id(key) for key in keys}.isdisjoint(id(key) for key in shown)


async def test_the_collector_runs_again_once_the_app_has_ended():
    """The cyclic collector waits while the app starts (see QuizApp.on_load); an app that ends
    before the start is over, here as soon as it runs, leaves it running as it found it."""
    assert gc.isenabled()
    async with make_app(start=Selection(key="fx-number#4"), seed=11, bank=BANK).run_test(size=(80, 24)):
        paused = not gc.isenabled()
    assert paused and gc.isenabled()


@pytest.mark.parametrize(("size", "classes"), [((70, 20), {"-narrow", "-tall"}), ((130, 12), {"-wide", "-short"}), ((40, 30), {"-tiny", "-tall"})])
async def test_a_screen_has_its_size_classes_from_the_start(size, classes):
    """A screen made in the app starts with the breakpoint classes of the terminal's size (set on
    its first resize instead, they made Textual style all its widgets a second time), and they
    are the classes Textual gives it once it is shown."""
    app = make_app(start=Selection(key="fx-vector"), seed=7, bank=BANK)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        made = QuizScreen("en")
        assert set(made.classes) == classes
        shown = app.screen
        assert {c for c in shown.classes if c in (*WIDTH_CLASSES, *HEIGHT_CLASSES)} == classes
