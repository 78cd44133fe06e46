"""End-to-end: the real app, the real core and the bundled bank, driven by Textual's pilot."""

from __future__ import annotations

import re

import numpy as np
import pytest
from textual.command import CommandList, CommandPalette
from textual.widgets import Input, ListView, SelectionList, Static
from textual.widgets._footer import FooterKey
from textual.widgets._key_panel import BindingsTable

from pilot_waits import settle
from fixture_bank import PACK, fixture_bank
from quiz.bank import load_bank
from quiz.render.numbers import format_array_inline
from quiz.types.options import correct_options
from quiz.bank import Selection
from quiz.ui.app import QuizApp, make_app
from quiz.ui.screens.home import HomeScreen
from quiz.ui.screens.question import QuestionScreen
from quiz.ui.screens.settings import SettingsScreen
from quiz.ui.answers.base import SingleChoice
from quiz.ui.answers.order import OrderAnswer
from quiz.ui.widgets.feedback import FeedbackView
from quiz.ui.widgets.footer import KeyFooter
from quiz.ui.widgets.heatmap import Heatmap

SIZE = (100, 40)
BANK = fixture_bank()


def start(key: str, attempts: list | None = None, lang: str | None = None) -> QuizApp:
    return make_app(start=Selection(key=key), seed=7, lang=lang, bank=BANK, on_attempt=None if attempts is None else attempts.append)


def text_of(app: QuizApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def type_answer(pilot, text: str) -> None:
    field = pilot.app.screen.query_one("#answer-input", Input)
    field.value = text
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()


async def choose(pilot, option_id: str) -> None:
    """Highlight an option of a single-choice list with the arrow keys and mark it with Enter."""
    options = pilot.app.screen.query_one(SingleChoice)
    options.focus()
    options.highlighted = 0
    while options.get_option_at_index(options.highlighted).id != option_id:
        await pilot.press("down")
    await pilot.press("enter")
    await pilot.pause()
    assert options.chosen == option_id


def verdict(app: QuizApp) -> str:
    return str(app.screen.query_one("#verdict").render())


async def test_a_right_numeric_answer_is_graded_correct_and_recorded():
    attempts: list = []
    app = start("fx-vector", attempts)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, QuestionScreen)
        await type_answer(pilot, "0.881 0.119")
        assert verdict(app).startswith("Correct · Score 1.00")
        assert "Answered 1 · mean score 1.00" in text_of(app, "#progress")
    [attempt] = attempts
    assert attempt.question == "fx-vector" and attempt.score == 1.0 and attempt.response == "0.881 0.119"


async def test_a_misconception_is_named_with_its_feedback():
    app = start("fx-vector")
    async with app.run_test(size=SIZE) as pilot:
        await type_answer(pilot, "0.982, 0.018")
        assert verdict(app).startswith("Incorrect")
        assert "forgot the 1/√dₖ scale" in text_of(app, "#misconception")
        assert app.screen.query(".option-feedback")


async def test_unreadable_input_shows_the_parser_message_and_costs_nothing():
    attempts: list = []
    app = start("fx-vector", attempts)
    async with app.run_test(size=SIZE) as pilot:
        field = app.screen.query_one("#answer-input", Input)
        field.value = "0.88 0.12 0.5"
        await pilot.pause()
        assert "Expected a vector of 2 numbers, but got a vector of 3 numbers" in text_of(app, "#preview")
        await pilot.press("enter")
        await pilot.pause()
        assert "Expected a vector of 2 numbers" in text_of(app, "#message")
        assert not app.screen.query(FeedbackView)
        assert app.screen.session.answered == 0
    assert attempts == []


async def test_live_preview_shows_how_the_answer_is_read():
    app = start("fx-vector")
    async with app.run_test(size=SIZE) as pilot:
        app.screen.query_one("#answer-input", Input).value = "e^2/(1+e^2), 1/(1+e^2)"
        await pilot.pause()
        assert text_of(app, "#preview").startswith("Read as: [0.8807970")


async def test_hints_cost_points_and_giving_up_shows_the_answer():
    attempts: list = []
    app = start("fx-vector", attempts)
    async with app.run_test(size=SIZE) as pilot:
        hints = len(app.screen.session.variant.question.hints)
        assert hints >= 1
        await pilot.press("f2")
        await pilot.pause()
        assert len(app.screen.query(".hint")) == 1
        await pilot.press("f3")
        await pilot.pause()
        assert verdict(app) == "Answer shown"
        key = app.screen.session.variant.answer
        assert format_array_inline(key) in text_of(app, "#answer-key")
    assert attempts[0].score == 0.0 and attempts[0].hints == 1 and attempts[0].verdict == "revealed" and attempts[0].revealed


async def test_a_right_answer_after_a_hint_scores_less():
    app = start("fx-vector")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f2")
        await type_answer(pilot, "0.8808 0.1192")
        assert verdict(app).startswith("Correct · Score 0.75")


async def test_footer_keys_follow_what_can_be_done_now():
    """The footer rebuilds only when its keys change, but it does follow every change."""

    def footer_keys(app: QuizApp) -> set[str]:
        return {key.key for key in app.screen.query(FooterKey)}

    app = start("fx-vector")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert {"ctrl+s", "f2", "f3", "f6"} <= footer_keys(app)  # submit, hint, give up, next
        await pilot.press(*["f2"] * len(app.screen.session.variant.question.hints))
        await pilot.pause()
        assert "f2" not in footer_keys(app)  # every hint used
        await type_answer(pilot, "0.8808 0.1192")
        await pilot.pause()
        assert footer_keys(app).isdisjoint({"ctrl+s", "f3"}) and "f6" in footer_keys(app)


async def test_opening_a_question_builds_its_footer_keys_once(monkeypatch):
    built: list[int] = []
    compose = KeyFooter.compose
    monkeypatch.setattr(KeyFooter, "compose", lambda footer: built.append(1) or compose(footer))
    app = start("fx-matrix#1")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.screen.query(FooterKey)
        # Textual's own footer rebuilt its keys on each of the seven focus and bindings signals.
        assert len(built) == 1  # composed with its keys at once, never rebuilt


async def test_a_fresh_variant_differs():
    app = start("fx-matrix#1")
    async with app.run_test(size=SIZE) as pilot:
        first = app.screen.session.variant
        await pilot.press("f5")
        await pilot.pause()
        second = app.screen.session.variant
        assert second.key != first.key and second.inputs != first.inputs
        assert app.screen.sub_title == second.key


async def test_feedback_on_attention_weights_has_a_heatmap():
    app = start("fx-matrix#3")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f3")
        await settle(pilot)  # the worked solution follows the verdict by a frame or two
        heatmaps = app.screen.query(Heatmap)
        assert heatmaps
        assert any(np.allclose(h.weights, app.screen.session.variant.answer) for h in heatmaps)


async def test_under_no_color_the_screen_is_grey_and_the_heatmap_still_reads(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = start("fx-matrix#3")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f3")
        await settle(pilot)
        heatmap = app.screen.query(Heatmap).first()
        heatmap.scroll_visible(animate=False, top=True)
        await pilot.pause()
        svg = app.export_screenshot()
    frame = {"ff5f57", "febc2e", "28c840", "c5c8c6"}  # the SVG's drawn window buttons and title, not the app
    colours = set(re.findall(r"fill(?:=\"|: )#([0-9a-f]{6})", svg)) - frame
    assert colours and all(c[0:2] == c[2:4] == c[4:6] for c in colours)  # greys only
    assert {"█", "▓"} & set(svg) and "0.5" in svg  # shading and numbers carry the weights


async def test_numeric_matrix_question_can_be_answered():
    app = start("fx-matrix#3")
    async with app.run_test(size=SIZE) as pilot:
        rows = np.asarray(app.screen.session.variant.answer)
        await type_answer(pilot, "; ".join(" ".join(f"{v:.4f}" for v in row) for row in rows))
        assert verdict(app).startswith("Correct")


async def test_choice_question_can_be_answered():
    app = start("fx-choice")
    async with app.run_test(size=SIZE) as pilot:
        variant = app.screen.session.variant
        [right] = correct_options(variant)
        await choose(pilot, right)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert verdict(app).startswith("Correct")


async def test_choice_without_a_pick_asks_for_one():
    app = start("fx-choice")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert text_of(app, "#message") == "Pick an option first."


async def test_multi_question_can_be_answered_with_the_keyboard():
    app = start("fx-multi")
    async with app.run_test(size=SIZE) as pilot:
        variant = app.screen.session.variant
        right = set(correct_options(variant))
        options = app.screen.query_one(SelectionList)
        options.focus()
        for index in range(options.option_count):
            options.highlighted = index
            if options.get_option_at_index(index).value in right:
                await pilot.press("space")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert verdict(app).startswith("Correct · Score 1.00")


async def test_order_question_is_reordered_with_the_keyboard():
    app = start("fx-order")
    async with app.run_test(size=SIZE) as pilot:
        widget = app.screen.query_one(OrderAnswer)
        view = widget.query_one(ListView)
        view.focus()
        # Selection sort driven by keys: bring each step to its place with ctrl+up.
        for target in range(len(widget._order)):
            position = widget._order.index(target)
            view.index = position
            await pilot.pause()
            for _ in range(position - target):
                await pilot.press("ctrl+up")
                await pilot.pause()
        assert widget.response() == tuple(range(len(widget._order)))
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert verdict(app).startswith("Correct")


async def test_order_feedback_marks_each_step_and_says_where_it_belongs():
    app = start("fx-order")
    async with app.run_test(size=SIZE) as pilot:
        order = app.screen.query_one(OrderAnswer).response()
        assert order != tuple(range(len(order)))  # shown shuffled
        await pilot.press("ctrl+s")
        await pilot.pause()
        lines = text_of(app, "#marks").splitlines()[1:]
        assert len(lines) == len(order)
        for n, (line, item) in enumerate(zip(lines, order), 1):
            assert line.startswith(f"{n}. ")
            assert line.endswith("✓" if item == n - 1 else f"✗ belongs at {item + 1}")
        assert text_of(app, "#answer-key").splitlines()[-1].startswith(f"{len(order)}. ")


async def test_truefalse_question_can_be_answered():
    app = start("fx-truefalse")
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, "true" if app.screen.session.variant.question.answer else "false")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert verdict(app).startswith("Correct")


async def test_explain_question_reveals_the_model_answer_then_ticks_points():
    app = start("fx-explain")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "F4" in text_of(app, "#message")
        await pilot.press("f4")
        await pilot.pause()
        rubric = app.screen.query_one("#rubric", SelectionList)
        rubric.select_all()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert verdict(app).startswith("Correct · Score 1.00")


async def test_next_question_moves_on_and_keeps_progress():
    app = make_app(start=Selection(topic="scaling"), seed=3, bank=BANK)
    async with app.run_test(size=SIZE) as pilot:
        first = app.screen.session.variant.question.id
        await pilot.press("f3")
        await pilot.press("f6")
        await pilot.pause()
        assert app.screen.session.variant.question.id != first
        assert "Answered 1" in text_of(app, "#progress")
        assert not app.screen.query(FeedbackView)


async def test_home_menu_starts_practice_and_escape_returns_home():
    app = make_app(seed=1, bank=BANK)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, QuestionScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


async def test_switching_to_japanese_changes_the_interface_and_is_saved(isolated_user_dirs):
    app = make_app(seed=1, bank=BANK)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f8")
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        app.screen.query_one("#lang-ja").value = True
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert "問題が" in text_of(app, "#welcome")
        assert "練習" in str(app.screen.query_one("#menu").get_option_at_index(0).prompt)
    again = make_app(seed=1, bank=BANK)
    assert again.settings.language == "ja"


async def test_japanese_question_screen(isolated_user_dirs):
    app = start("fx-vector", lang="ja")
    async with app.run_test(size=SIZE) as pilot:
        assert "回答済み 0" in text_of(app, "#progress")
        await type_answer(pilot, "０．８８１　０．１１９")
        assert verdict(app).startswith("正解")


async def palette_entries(pilot, search: str) -> list[str]:
    """Type `search` into the open command palette and read its entries once they are listed."""
    pilot.app.screen.query_one(Input).value = search
    entries = pilot.app.screen.query_one(CommandList)
    for _ in range(100):  # the palette searches in a worker
        await pilot.pause(0.01)
        if entries.option_count:
            break
    return [str(entries.get_option_at_index(i).prompt) for i in range(entries.option_count)]


async def test_ctrl_p_opens_the_command_palette_in_the_interface_language(isolated_user_dirs):
    app = start("fx-vector", lang="ja")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        assert await palette_entries(pilot, "終了") == ["終了\nアプリを終了する"]  # Textual's own, translated
        [hint] = await palette_entries(pilot, "ヒント")  # one of the question screen's commands
        assert hint.startswith("ヒント\n")
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, QuestionScreen) and len(app.screen.query(".hint")) == 1


async def test_the_help_panel_lists_every_key_in_japanese(isolated_user_dirs):
    app = start("fx-choice#2", lang="ja")  # a choice list has focus: its keys show too
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        table = app.screen.query_one(BindingsTable).render_bindings_table()
        descriptions = [str(text) for text in table.columns[1].cells if str(text)]
        assert {"ヒント", "解答を見る", "選ぶ", "1 ページ上へ", "次の項目へ"} <= set(descriptions)
        assert not [text for text in descriptions if text.isascii()], descriptions


async def test_ctrl_c_says_how_to_quit_in_the_interface_language(isolated_user_dirs):
    app = start("fx-truefalse", lang="ja")  # no text field: ctrl+c has nothing to copy
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+c")
        await pilot.pause()
        [notice] = app._notifications
        assert notice.title == "終了しますか？" and notice.message == "^q で終了します。"


async def test_a_tiny_terminal_still_works():
    app = start("fx-vector")
    async with app.run_test(size=(40, 12)) as pilot:
        await type_answer(pilot, "0.881 0.119")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert verdict(app).startswith("Correct")


async def test_bank_browser_filters_and_opens_a_question():
    from textual.widgets import DataTable, Select

    from quiz.ui.screens.browser import BrowserScreen

    app = make_app(seed=1, bank=BANK)
    async with app.run_test(size=SIZE) as pilot:
        await app.run_action("menu('browse')")
        await pilot.pause()
        assert isinstance(app.screen, BrowserScreen)
        table = app.screen.query_one(DataTable)
        assert table.row_count == len(app.bank)
        assert table.columns["prompt"].content_width >= 40  # the question's start, not its first word
        app.screen.query_one("#type", Select).value = "order"
        await pilot.pause()
        assert table.row_count == sum(q.type == "order" for q in app.bank.questions.values())
        assert table.get_row_at(0)[1] == "ordering"  # the type in words, in the interface language
        table.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, QuestionScreen)
        assert app.screen.session.variant.question.type == "order"


async def test_topic_picker_starts_a_session_on_that_topic():
    from quiz.ui.screens.pick import PickScreen

    app = make_app(seed=1, bank=BANK)
    async with app.run_test(size=SIZE) as pilot:
        await app.run_action("menu('practice_topic')")
        await pilot.pause()
        assert isinstance(app.screen, PickScreen)
        topics = list(app.bank.claims.topics)
        target = topics.index("softmax")
        for _ in range(target):
            await pilot.press("down")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, QuestionScreen)
        assert app.screen.session.variant.question.topic == "softmax"


async def test_the_bank_loads_in_a_worker_behind_a_loading_screen(isolated_user_dirs):
    from quiz import locations

    pack = locations.user_packs_dir() / "mine.yaml"
    pack.parent.mkdir(parents=True)
    pack.write_text("id: broken\ntype: number\n", encoding="utf-8")
    app = make_app(bank_paths=[PACK], start=Selection(key="fx-vector"), seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, QuestionScreen)
        assert len(app.bank) == len(load_bank(extra=[PACK]))  # the broken pack cost only its own question
        assert {d.location.path.name for d in app.bank.report.errors} == {"mine.yaml"}
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
