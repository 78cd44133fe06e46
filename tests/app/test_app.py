"""End-to-end: the real app and the real core on the fixture pack, driven by Textual's pilot.

Every kind of answer is given with the keys the help screen promises: letters pick options
(t/f for true/false), Space toggles, Enter submits; order steps move with ctrl+↑/↓.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from rich.cells import cell_len
from textual import events
from textual.command import CommandList, CommandPalette
from textual.widgets import DataTable, Input, Label, OptionList, Select, Static

from feedback_state import feedback_shown
from fixture_bank import PACK, fixture_bank
from pilot_waits import HANG_GUARD_SECONDS, settle
from quiz.bank import Selection, load_bank
from quiz.base.numbers import format_array_inline
from quiz.types.options import correct_options, letter, shown
from quiz.ui.answer_widgets.lettered import LetteredChecklist, LetteredOptions
from quiz.ui.answer_widgets.order import OrderAnswer
from quiz.ui.app import QuizApp, make_app
from quiz.ui.screens.home import HomeScreen
from quiz.ui.screens.question import QuestionScreen
from quiz.ui.screens.settings import SettingsScreen
from quiz.ui.widgets.heatmap import Heatmap

SIZE = (100, 40)
BANK = fixture_bank()


def start(key: str, attempts: list | None = None, lang: str | None = None) -> QuizApp:
    return make_app(start=Selection(key=key), seed=7, lang=lang, bank=BANK, on_attempt=None if attempts is None else attempts.append)


def text_of(app: QuizApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def notices(app: QuizApp) -> list[str]:
    """The notifications on screen, as their text (Textual draws each as a Toast; tests must
    ask for them with `run_test(notifications=True)`)."""
    return [str(toast.render()) for toast in app.screen.query("Toast")]


async def type_answer(pilot, text: str) -> None:
    field = pilot.app.screen.query_one("#answer-input", Input)
    field.value = text
    await pilot.pause()
    await pilot.press("enter")
    await settle(pilot)


def verdict(app: QuizApp) -> str:
    return str(app.screen.query_one("#verdict").render())


def letter_of(app: QuizApp, option_id: str) -> str:
    """The letter the screen shows beside an option."""
    variant = app.screen.session.variant
    return next(letter(n) for n, (i, _) in enumerate(shown(variant)) if i == option_id)


# -- numbers, vectors, matrices ---------------------------------------------------------------


async def test_a_right_numeric_answer_is_graded_correct_and_recorded():
    attempts: list = []
    app = start("fx-vector", attempts)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, QuestionScreen)
        await type_answer(pilot, "0.881 0.119")
        assert verdict(app).startswith("Correct · Score 1.00")
        assert "Today 1 answered · mean score 1.00" in text_of(app, "#status")
    [attempt] = attempts
    assert attempt.question == "fx-vector" and attempt.score == 1.0 and attempt.response == "0.881 0.119"


async def test_a_misconception_is_named_with_its_label_and_feedback():
    app = start("fx-vector")
    async with app.run_test(size=SIZE) as pilot:
        await type_answer(pilot, "0.982, 0.018")
        assert verdict(app).startswith("Incorrect")
        assert "forgot the 1/√dₖ scale" in text_of(app, "#misconception")
        assert "without the 1/√dₖ factor" in str(app.screen.query_one(".option-feedback").render())


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
        assert not feedback_shown(app.screen)
        assert app.screen.session.answered == 0
    assert attempts == []


async def test_a_typing_error_names_the_character_not_a_column():
    app = start("fx-vector")
    async with app.run_test(size=SIZE) as pilot:
        app.screen.query_one("#answer-input", Input).value = "0.8, 0.2 $"
        await pilot.pause()
        assert text_of(app, "#preview").startswith("At character 10: the character '$' cannot be read.")


async def test_a_stale_error_above_the_field_clears_when_the_field_is_cleared():
    app = start("fx-vector")
    async with app.run_test(size=SIZE) as pilot:
        field = app.screen.query_one("#answer-input", Input)
        field.value = "0.88"
        await pilot.press("enter")
        await pilot.pause()
        message = app.screen.query_one("#message", Static)
        assert message.display and "Expected a vector" in text_of(app, "#message")
        field.focus()
        await pilot.press("end", "backspace", "backspace", "backspace", "backspace")  # the field cleared
        await pilot.pause()
        assert not message.display and text_of(app, "#message") == ""


async def test_a_matrix_pasted_over_several_lines_keeps_every_row():
    app = start("fx-matrix#3")
    async with app.run_test(size=SIZE) as pilot:
        rows = np.asarray(app.screen.session.variant.answer)
        pasted = "\n".join(" ".join(f"{v:.4f}" for v in row) for row in rows) + "\n"
        field = app.screen.query_one("#answer-input", Input)
        field.focus()
        await pilot.pause()
        field.post_message(events.Paste(pasted))  # what the terminal sends for a paste
        await pilot.pause()
        assert field.value.count(";") == len(rows) - 1  # each new line became a row separator
        assert text_of(app, "#preview").startswith("Read as: [[")
        await pilot.press("enter")
        await settle(pilot)
        assert verdict(app).startswith("Correct")


async def test_live_preview_shows_how_the_answer_is_read():
    app = start("fx-vector")
    async with app.run_test(size=SIZE) as pilot:
        app.screen.query_one("#answer-input", Input).value = "e^2/(1+e^2), 1/(1+e^2)"
        await pilot.pause()
        assert text_of(app, "#preview").startswith("Read as: [0.8807970")


# -- hints, giving up, moving on --------------------------------------------------------------


async def test_the_status_line_shows_hints_used_of_available_and_the_time_budget():
    app = start("fx-vector")
    async with app.run_test(size=SIZE) as pilot:
        assert "hints 0/2 · time 1:30" in text_of(app, "#status")
        await pilot.press("f2")
        await settle(pilot)
        assert "hints 1/2 · time 1:30" in text_of(app, "#status")


STATUS_WORDS = {"en": ("hints", "level 2", "time 2:00"), "ja": ("ヒント", "難易度 2", "目安時間 2:00")}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40), (60, 16)])
async def test_a_question_without_hints_says_nothing_of_hints_and_the_status_wraps_only_between_parts(lang, size):
    from quiz.ui.widgets.status import StatusLine

    app = start("fx-multi#1", lang=lang)  # a question without hints
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        status = app.screen.query_one("#status", StatusLine)
        hints, level, time = STATUS_WORDS[lang]
        text = str(status.render())
        assert hints not in text and "0/0" not in text
        lines = [line.strip() for line in text.split("\n")]
        parts = status.parts
        assert level in parts and time in parts
        # Each line is whole parts joined by " · ": no part is split across lines.
        for line in lines:
            assert all(piece in parts for piece in line.split(" · ")), line
        assert len(lines) == status.content_region.height  # the widget is as tall as its lines
        for line in lines:
            assert cell_len(line) <= status.content_region.width


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_the_header_joins_title_and_variant_key_with_a_middle_dot(lang):
    app = start("fx-vector", lang=lang)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        title = str(app.screen.query_one("HeaderTitle").render())  # queried by name: the class is private
        assert title.endswith(" · fx-vector") and "—" not in title
        assert title.startswith({"en": "Attention interview practice", "ja": "アテンションの面接練習"}[lang])


async def test_giving_up_asks_once_then_shows_the_answer_and_scores_zero():
    attempts: list = []
    app = start("fx-vector", attempts)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f2")
        await pilot.pause()
        assert len(app.screen.query(".hint")) == 1
        await pilot.press("f3")
        await pilot.pause()
        assert text_of(app, "#message") == "Press F3 again to reveal the answer and score 0."
        assert not feedback_shown(app.screen) and attempts == []
        await pilot.press("f3")
        await settle(pilot)
        assert verdict(app) == "Answer shown"
        assert format_array_inline(app.screen.session.variant.answer) in text_of(app, "#answer-key")
    assert attempts[0].score == 0.0 and attempts[0].hints == 1 and attempts[0].verdict == "revealed" and attempts[0].revealed


async def test_a_give_up_waiting_for_confirmation_is_cancelled_by_editing_the_answer():
    attempts: list = []
    app = start("fx-vector", attempts)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f3")
        await pilot.press("0")  # typing into the field: the learner is still answering
        await pilot.pause()
        assert text_of(app, "#message") == ""
        await pilot.press("f3")
        await pilot.pause()
        assert not feedback_shown(app.screen) and attempts == []


async def test_the_give_up_key_is_labelled_give_up():
    app = start("fx-vector")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        labels = {key.key: key.description for key in app.screen.query("FooterKey")}
        assert labels["f3"] == "Give up" and labels["f2"] == "Hint"


async def test_a_right_answer_after_a_hint_scores_less():
    app = start("fx-vector")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f2")
        await type_answer(pilot, "0.8808 0.1192")
        assert verdict(app).startswith("Correct · Score 0.75")
        assert "1 hint used: −25% of the score" in text_of(app, "#penalty")


async def test_footer_keys_follow_what_can_be_done_now():
    def footer_keys(app: QuizApp) -> set[str]:
        return {key.key for key in app.screen.query("FooterKey")}

    app = start("fx-vector")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert {"ctrl+s", "f2", "f3", "f6"} <= footer_keys(app)  # submit, hint, give up, next
        await pilot.press("f2", "f2")
        await settle(pilot)
        assert "f2" not in footer_keys(app)  # every hint used
        await type_answer(pilot, "0.8808 0.1192")
        assert footer_keys(app).isdisjoint({"ctrl+s", "f3"}) and "f6" in footer_keys(app)


async def test_a_fresh_variant_differs():
    app = start("fx-matrix#1")
    async with app.run_test(size=SIZE) as pilot:
        first = app.screen.session.variant
        await pilot.press("f5")
        await pilot.pause()
        second = app.screen.session.variant
        assert second.key != first.key and second.inputs != first.inputs
        assert app.screen.sub_title == second.key


async def test_next_question_moves_on_and_keeps_progress():
    app = make_app(start=Selection(topic="scaling"), seed=3, bank=BANK)
    async with app.run_test(size=SIZE) as pilot:
        first = app.screen.session.variant.question.id
        await pilot.press("f3", "f3", "f6")
        await settle(pilot)
        assert app.screen.session.variant.question.id != first
        assert "Today 1 answered" in text_of(app, "#status")
        assert not feedback_shown(app.screen)


# -- option kinds, answered with their letters ------------------------------------------------


async def test_a_choice_is_picked_by_its_letter_and_enter_submits_it():
    attempts: list = []
    app = start("fx-choice#2", attempts)
    async with app.run_test(size=SIZE) as pilot:
        [right] = correct_options(app.screen.session.variant)
        options = app.screen.query_one(LetteredOptions)
        assert app.screen.focused is options
        key = letter_of(app, right)
        await pilot.press(key)
        await pilot.pause()
        assert options.chosen == right and attempts == []  # a letter picks, it does not submit
        await pilot.press("enter")
        await settle(pilot)
        assert verdict(app).startswith("Correct")
    [attempt] = attempts
    assert attempt.question == "fx-choice" and attempt.response == key  # history keeps the letter as shown


async def test_enter_on_a_highlighted_choice_picks_and_submits_it():
    app = start("fx-choice#2")
    async with app.run_test(size=SIZE) as pilot:
        options = app.screen.query_one(LetteredOptions)
        await pilot.press("down", "enter")
        await settle(pilot)
        assert options.chosen == options.get_option_at_index(1).id
        assert feedback_shown(app.screen)


async def test_a_choice_without_a_pick_asks_for_one():
    app = start("fx-choice")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert text_of(app, "#message") == "Pick an option first."


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_true_false_is_answered_with_t_or_f_in_every_language(lang):
    app = start("fx-truefalse", lang=lang)
    async with app.run_test(size=SIZE) as pilot:
        options = app.screen.query_one(LetteredOptions)
        await pilot.press("t")
        await pilot.pause()
        assert options.chosen == "true"
        await pilot.press("f", "enter")
        await settle(pilot)
        assert verdict(app).startswith("Correct" if lang == "en" else "正解")  # the key is false


async def test_multi_letters_and_space_toggle_and_enter_submits():
    app = start("fx-multi#1")
    async with app.run_test(size=SIZE) as pilot:
        variant = app.screen.session.variant
        right = correct_options(variant)
        wrong = [i for i, _ in shown(variant) if i not in right]
        checklist = app.screen.query_one(LetteredChecklist)
        await pilot.press(letter_of(app, wrong[0]))  # ticked, then untick it with Space
        await pilot.pause()
        assert checklist.selected == [wrong[0]]
        await pilot.press("space")
        await pilot.pause()
        assert checklist.selected == []
        await pilot.press(*(letter_of(app, i) for i in right))
        await pilot.press("enter")
        await settle(pilot)
        assert verdict(app).startswith("Correct · Score 1.00")


async def test_order_steps_move_with_the_keys_the_footer_shows_and_enter_submits():
    app = start("fx-order#1")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        widget = app.screen.query_one(OrderAnswer)
        footer = {key.key for key in app.screen.query("FooterKey")}
        assert {"ctrl+up", "ctrl+down"} <= footer
        assert "Move" in [str(label.render()) for label in app.screen.query("FooterLabel")]
        order = list(widget.response())
        assert order != sorted(order)  # shown shuffled
        # Selection sort driven by keys: bring each step to its place with ctrl+up.
        for target in range(len(order)):
            position = list(widget.response()).index(target)
            for _ in range(position):  # to the step
                await pilot.press("down")
            for _ in range(position - target):
                await pilot.press("ctrl+up")
            await pilot.press("home")
            await pilot.pause()
        assert widget.response() == tuple(range(len(order)))
        await pilot.press("enter")
        await settle(pilot)
        assert verdict(app).startswith("Correct")


async def test_an_order_typed_as_the_steps_numbers_puts_the_list_in_that_order_and_enter_submits_it():
    app = start("fx-order#1")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        widget = app.screen.query_one(OrderAnswer)
        shown = list(widget.response())  # the items' indices as first shown, numbered 1, 2, ...
        right = " ".join(str(shown.index(item) + 1) for item in range(len(shown)))  # the numbers in the right order
        field = app.screen.query_one("#order-typed", Input)
        field.value = "1 1"
        await settle(pilot)
        assert widget.response() == tuple(shown)  # half an order changes nothing, and says why
        assert "once" in text_of(app, "#order-typed-note")
        field.value = right
        await settle(pilot)
        assert widget.response() == tuple(range(len(shown)))
        # each step keeps the number it was shown with, so the list reads as the numbers typed
        labels = [str(item.query_one(Label).render()).split(".")[0] for item in app.screen.query("#order ListItem")]
        assert " ".join(labels) == right
        field.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert verdict(app).startswith("Correct")


async def test_order_feedback_marks_each_step_and_says_where_it_belongs():
    app = start("fx-order")
    async with app.run_test(size=SIZE) as pilot:
        order = app.screen.query_one(OrderAnswer).response()
        await pilot.press("enter")
        await settle(pilot)
        lines = text_of(app, "#marks").splitlines()[1:]
        assert len(lines) == len(order)
        for n, (line, item) in enumerate(zip(lines, order), 1):
            assert line.startswith(f"{n}. ")
            assert line.endswith("✓" if item == n - 1 else f"✗ belongs at {item + 1}")


async def test_explain_reveals_the_model_answer_then_ticks_points_with_letters():
    app = start("fx-explain")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "F4" in text_of(app, "#message")
        await pilot.press("f4")
        await settle(pilot)
        assert app.screen.query_one("#model-answer")
        rubric = app.screen.query_one("#rubric", LetteredChecklist)
        assert app.screen.focused is rubric
        await pilot.press("a", "b", "space")  # b is highlighted after its letter: space unticks it
        await pilot.pause()
        assert sorted(rubric.selected) == ["0"]
        await pilot.press("c", "enter")
        await settle(pilot)
        assert verdict(app).startswith("Partly correct · Score 0.67")


# -- worked values ----------------------------------------------------------------------------


async def test_feedback_on_attention_weights_has_a_heatmap_with_the_authors_label():
    app = start("fx-matrix#3")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f3", "f3")
        await settle(pilot)  # the worked solution follows the verdict by a frame or two
        [heatmap] = app.screen.query(Heatmap)
        assert np.allclose(heatmap.weights, app.screen.session.variant.answer)
        assert text_of(app, ".tensor-name").startswith("attention weights (rows: queries, columns: keys)")


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_worked_values_are_headed_in_words_never_by_their_names(lang, size):
    app = start("fx-matrix#3", lang=lang)
    async with app.run_test(size=size) as pilot:
        await pilot.press("f3", "f3")
        await settle(pilot)
        await pilot.press("f7")  # the folded steps of the attention run too
        await settle(pilot)
        headings = [str(name.render()) for name in app.screen.query(".tensor-name")]
        assert len(headings) == 4  # the weights, then the run's scores, scaled scores and output
        names = {"run", "run.weights", "run.scores", "run.scaled", "run.output", "S", "allowed"}
        for heading in headings:
            assert not names & set(heading.replace(",", " ").split()), heading
        words = {"en": "raw scores QKᵀ", "ja": "生スコア QKᵀ"}[lang]
        assert words in headings


# -- home, pickers, browser, settings ---------------------------------------------------------


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


async def open_menu_entry(pilot, entry: str) -> None:
    menu = pilot.app.screen.query_one("#menu", OptionList)
    menu.highlighted = menu.get_option_index(entry)
    await pilot.press("enter")
    await pilot.pause()


async def test_the_topic_picker_shows_counts_and_greys_out_empty_topics():
    from quiz.ui.screens.pick import PickScreen

    app = make_app(seed=1, bank=BANK)
    async with app.run_test(size=SIZE) as pilot:
        await open_menu_entry(pilot, "practice_topic")
        assert isinstance(app.screen, PickScreen)
        choices = app.screen.query_one(OptionList)
        options = [choices.get_option_at_index(i) for i in range(choices.option_count)]
        prompts = {option.id: (str(option.prompt), option.disabled) for option in options}
        assert prompts["scaling"][0].endswith("3 questions") and not prompts["scaling"][1]
        assert prompts["attention"][0].endswith("1 question")
        assert prompts["testing"][0].startswith(BANK.claims.topics["testing"].label("en"))
        assert prompts["testing"][0].endswith(" 0 questions") and prompts["testing"][1]  # shown greyed out
        assert len({prompt.index("question") for prompt, _ in prompts.values()}) == 1  # counts in one column
        choices.highlighted = choices.get_option_index("scaling")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, QuestionScreen)
        assert app.screen.session.variant.question.topic == "scaling"


async def test_the_claim_picker_lists_only_cited_claims_with_counts_in_japanese():
    from quiz.ui.screens.pick import PickScreen

    app = make_app(seed=1, bank=BANK, lang="ja")
    async with app.run_test(size=SIZE) as pilot:
        await open_menu_entry(pilot, "practice_claim")
        assert isinstance(app.screen, PickScreen)
        choices = app.screen.query_one(OptionList)
        ids = [choices.get_option_at_index(i).id for i in range(choices.option_count)]
        cited = {claim for q in BANK.questions.values() for claim in q.refs}
        assert set(ids) == cited and len(ids) < len(BANK.claims.claims)
        b1 = str(choices.get_option_at_index(ids.index("B1")).prompt)
        assert b1.endswith("2 問")  # fx-truefalse and fx-explain


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
        assert "練習" in str(app.screen.query_one("#menu", OptionList).get_option_at_index(0).prompt)
    again = make_app(seed=1, bank=BANK)
    assert again.settings.language == "ja"


async def test_japanese_question_screen(isolated_user_dirs):
    app = start("fx-vector", lang="ja")
    async with app.run_test(size=SIZE) as pilot:
        assert "今日 0 問解答" in text_of(app, "#status") and "ヒント 0/2 · 目安時間 1:30" in text_of(app, "#status")
        await type_answer(pilot, "０．８８１　０．１１９")
        assert verdict(app).startswith("正解")


async def test_bank_browser_filters_and_opens_a_question():
    from quiz.ui.screens.browser import BrowserScreen

    app = make_app(seed=1, bank=BANK)
    async with app.run_test(size=SIZE) as pilot:
        await open_menu_entry(pilot, "browse")
        assert isinstance(app.screen, BrowserScreen)
        table = app.screen.query_one(DataTable)
        assert table.row_count == len(app.bank)
        assert table.columns["prompt"].content_width >= 40  # the question's start, not its first word
        app.screen.query_one("#type", Select).value = "order"
        await pilot.pause()
        assert table.row_count == 1
        assert table.get_row_at(0)[1] == "ordering"  # the type in words, in the interface language
        table.focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, QuestionScreen)
        assert app.screen.session.variant.question.id == "fx-order"


async def test_the_bank_loads_in_a_worker_behind_a_loading_screen(isolated_user_dirs):
    from quiz.base import locations

    pack = locations.user_packs_dir() / "mine.yaml"
    pack.parent.mkdir(parents=True, exist_ok=True)
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


# -- palette, quitting, screenshots -----------------------------------------------------------


async def palette_entries(pilot, search: str) -> list[str]:
    """Type `search` into the open command palette and read its entries once they are listed."""
    pilot.app.screen.query_one(Input).value = search
    await pilot.app.workers.wait_for_complete()  # the palette searches in a worker
    await settle(pilot)
    entries = pilot.app.screen.query_one(CommandList)
    return [str(entries.get_option_at_index(i).prompt) for i in range(entries.option_count)]


async def test_ctrl_p_opens_the_command_palette_in_the_interface_language(isolated_user_dirs):
    app = start("fx-vector", lang="ja")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        assert app.screen.query_one(Input).placeholder == "コマンドを検索…"
        assert await palette_entries(pilot, "終了") == ["終了\nアプリを終了する"]  # Textual's own, translated
        [hint] = await palette_entries(pilot, "ヒント")  # the question screen's own provider
        assert hint.startswith("ヒント\n")
        await pilot.press("down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, QuestionScreen) and len(app.screen.query(".hint")) == 1


@pytest.mark.parametrize(("lang", "words"), [("ja", "一致するコマンドはありません"), ("en", "No matches found")])
async def test_a_search_with_no_match_says_so_in_the_interface_language(isolated_user_dirs, lang, words):
    app = start("fx-vector", lang=lang)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        shown = await palette_entries(pilot, "zzqx")
        deadline = time.monotonic() + HANG_GUARD_SECONDS
        # Textual adds the line after its own half-second countdown; the line is centred: Align(Text(words)).
        while not (len(shown) == 1 and words in shown[0]) and time.monotonic() < deadline:
            await pilot.pause(0.1)
            shown = await palette_entries(pilot, "zzqx")
        assert len(shown) == 1 and words in shown[0]
        assert app.screen.query_one(CommandList).get_option_at_index(0).disabled


async def test_giving_up_from_the_palette_needs_no_second_press(isolated_user_dirs):
    app = start("fx-vector")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        [entry] = await palette_entries(pilot, "Give up")
        assert entry == "Give up\nShow the answer (scores 0)"
        await pilot.press("down", "enter")
        await settle(pilot)
        assert verdict(app) == "Answer shown"


async def test_ctrl_c_says_how_to_quit_in_the_interface_language(isolated_user_dirs):
    app = start("fx-truefalse", lang="ja")  # no text field: ctrl+c has nothing to copy
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.press("ctrl+c")
        await settle(pilot)
        [notice] = notices(app)
        assert "終了しますか？" in notice and "^q で終了します。" in notice


async def test_the_screenshot_command_creates_its_folder_and_says_where_it_saved(isolated_user_dirs, monkeypatch):
    folder = isolated_user_dirs / "shots" / "not yet made"
    monkeypatch.setenv("QUIZ_SCREENSHOTS_DIR", str(folder))
    app = start("fx-vector", lang="ja")
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        [entry] = await palette_entries(pilot, "スクリーンショット")
        assert entry.startswith("スクリーンショット\n")
        await pilot.press("down", "enter")
        await settle(pilot)
        [saved] = list(folder.glob("*.svg"))
        assert "<svg" in saved.read_text(encoding="utf-8")
        assert any(f"保存先：{saved}" in notice for notice in notices(app))


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_a_pushback_in_practice_holds_the_feedback_back_until_f7_holds_or_f8_revises(lang):
    from quiz.history.store import History, open_history

    app = make_app(start=Selection(key="prefill-compute-decode-bandwidth"), seed=7, lang=lang, bank=load_bank())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        variant = screen.session.variant
        right = correct_options(variant)[0]
        wrong = next(i for i, _ in shown(variant) if i != right)
        await pilot.press(letter_of(app, wrong), "ctrl+s")
        await settle(pilot)
        prompt = text_of(app, "#pushback")
        assert prompt.startswith("The interviewer pushes back: Are you sure? For one decode step" if lang == "en" else "面接官からの念押し：")
        assert not screen.answered and screen.challenged and not screen.query("#verdict")  # the feedback waits
        assert {b.binding.action for b in screen.active_bindings.values() if b.binding.show} >= {"hold", "revise"}
        assert not screen.check_action("more_worked", ()) and not screen.check_action("easy", ())  # F7 and F8 meet it
        await pilot.press("f3")  # giving up is not how a challenge is met
        await settle(pilot)
        assert screen.challenged
        await pilot.press(letter_of(app, right), "f8")
        await settle(pilot)
        assert not screen.query("#pushback") and screen.answered and screen.query("#verdict")
        corrected = {
            "en": "You corrected a wrong answer under pushback: right.",
            "ja": "念押しを受けて、誤った答えを正しく直せました。正解です。",
        }[lang]
        assert text_of(app, "#message") == corrected
    history = open_history()
    assert isinstance(history, History)
    with history:
        [met] = history.practice_pushbacks()
        assert (met.choice, met.verdict, met.question) == ("revise", "correct", "prefill-compute-decode-bandwidth")
