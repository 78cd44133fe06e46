"""The code editor in the real app: typing, Ctrl+S running the real sandbox in a worker, the checklist,
a file that cannot run, $EDITOR through App.suspend, and the draft in the real history file."""

from __future__ import annotations

import asyncio
import os
import sys
import textwrap
from pathlib import Path

import pytest
from textual import events
from textual.command import CommandPalette
from textual.drivers.headless_driver import HeadlessDriver
from textual.widgets import Markdown, Static, TextArea

from feedback_state import feedback_shown
from fixture_bank import code_fixture_bank
from history_records import stored_draft
from pilot_waits import Heard, settle, until
from quiz.bank import Selection
from quiz.history.store import history_path
from quiz.practice.drafts import draft_file
from quiz.ui.answer_widgets.code import CodeEditorAnswer
from quiz.ui.app import QuizApp, make_app
from sandbox_children import wait_for_harness_child
from solution_files import solution
from test_app_layout import assert_footer_keys_whole, footer_keys

SIZE = (100, 40)
BANK = code_fixture_bank()
INDENT = "\u00a0" * 4  # evidence sits under its check: spaces that wrapping keeps


def start(key: str, attempts: list | None = None, lang: str | None = None) -> QuizApp:
    on_attempt = None if attempts is None else attempts.append
    return make_app(start=Selection(key=key), seed=7, lang=lang, bank=BANK, on_attempt=on_attempt)


def editor(app: QuizApp) -> TextArea:
    return app.screen.query_one("#code-editor", TextArea)


def text_of(app: QuizApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def paste(pilot, text: str) -> None:
    """Replace the editor's text the way a terminal paste does: select all, then a Paste event."""
    editor(pilot.app).select_all()
    pilot.app.post_message(events.Paste(text))
    await pilot.pause()


async def run_checks(pilot) -> None:
    """Ctrl+S, then wait for the worker running the sandbox and for what it posts back."""
    await pilot.press("ctrl+s")
    await pilot.app.workers.wait_for_complete()
    await settle(pilot)


async def test_the_editor_opens_on_the_starter_with_python_highlighting_focus_and_its_keys():
    app = start("fx-code#2")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        area = editor(app)
        assert area.text == BANK.questions["fx-code"].starter
        assert area.language == "python" and area.is_syntax_aware and area.has_focus and not area.read_only
        first_line = area._highlights[0]  # tree-sitter's names for `import numpy as np`
        assert {"include", "variable"} <= {name for _, _, name in first_line}
        footer = {b.binding.description: key for key, b in app.screen.active_bindings.items() if b.binding.show}
        assert footer["Submit"] == "ctrl+s" and footer["Your editor"] == "f9"


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("width", [60, 80, 100, 120])
async def test_the_footer_fits_ctrl_s_with_f6_esc_and_f1_at_every_width(width, lang):
    """Enter is a new line in the editor, so Ctrl+S always shows; F9 does from 80 columns on (the
    help lists it below), and F5 only once graded (tests/app/test_app_code_runs.py)."""
    app = start("fx-code#2", lang=lang)
    async with app.run_test(size=(width, 24)) as pilot:
        await settle(pilot)
        shown = {"ctrl+s", "f6", "escape", "f1"} | ({"f9"} if width >= 80 else set())
        assert_footer_keys_whole(app, shown)
        assert "f5" not in footer_keys(app) and (width >= 80) == ("f9" in footer_keys(app))
        await pilot.press("end", "enter", "x")
        assert editor(app).text.startswith("import numpy as np\nx\n")  # Enter made a new line


async def test_the_help_says_how_to_answer_in_code():
    app = start("fx-code#2", lang="ja")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)
        shown = "\n".join(block.source for block in app.screen.query(Markdown))
        assert "Ctrl+S でコードのチェックを実行して採点し" in shown and "F9 で $EDITOR" in shown
        assert "| f9 | エディタ |" in shown and "| ^s | 提出 |" in shown


async def test_typing_a_right_solution_and_ctrl_s_shows_a_passing_checklist_and_records_it():
    attempts: list = []
    app = start("fx-code-mask#5", attempts)
    async with app.run_test(size=SIZE) as pilot:
        await paste(pilot, solution("causal_mask", "reference").replace("    return", "    # keys j <= i\n    return"))
        await pilot.press("end", "space", "x")  # typed keys reach the editor …
        assert editor(app).text.rstrip().endswith("x")
        await pilot.press("backspace", "backspace")  # … and are taken back
        await run_checks(pilot)
        assert str(app.screen.query_one("#verdict").render()).startswith("Correct · Score 1.00")
        checklist = text_of(app, "#marks")
        assert checklist.startswith(f"✓ Output matches the engine on drawn inputs\n{INDENT}0 of ")
        assert "✓ Rectangular masks: more keys than queries" in checklist and "2 of 2 checks passed" in checklist
        assert not editor(app).read_only and editor(app).has_focus  # graded: the code can be fixed and run again
        checked = editor(app).text
    [attempt] = attempts
    assert (attempt.key, attempt.score, attempt.misconception) == ("fx-code-mask#5", 1.0, None)
    assert attempt.response == checked
    assert stored_draft("fx-code-mask") == checked  # kept, for the learner to come back to


async def test_a_wrong_solution_gets_its_checklist_and_its_mistake_named_in_japanese():
    attempts: list = []
    app = start("fx-code-gqa#3", attempts, lang="ja")
    async with app.run_test(size=SIZE) as pilot:
        await paste(pilot, solution("gqa_attention", "gqa_tiled"))
        await run_checks(pilot)
        assert str(app.screen.query_one("#verdict").render()).startswith("不正解")
        checklist = text_of(app, "#marks")
        assert checklist.startswith(f"✗ 無作為に選んだ入力で、出力がエンジンの計算と一致する\n{INDENT}最大誤差 ")
        assert "下に示す誤りと一致します" in checklist
        assert text_of(app, "#misconception") == "よくある誤りと同じ答えです：キー・バリューのヘッドを一つずつ繰り返さずに並べた"
        feedback = [str(s.render()) for s in app.screen.query(".option-feedback").results(Static)]
        assert feedback and feedback[0].startswith("キー・バリューのヘッドを各々繰り返す")
    [attempt] = attempts
    assert (attempt.misconception, attempt.score) == ("gqa_tiled", 0.0)


async def test_a_file_that_cannot_run_is_shown_at_its_line_records_nothing_and_can_be_fixed():
    attempts: list = []
    app = start("fx-code-softmax#1", attempts)
    async with app.run_test(size=SIZE) as pilot:
        await paste(pilot, "import numpy as np\n\ndef softmax(x, axis=-1):\n    return np.exp(x) /\n")
        await run_checks(pilot)
        status = text_of(app, "#code-status")
        assert status.startswith("Your file could not be run, so nothing was graded or recorded")
        assert "Line 4, column" in status and "return np.exp(x) /" in status
        assert not feedback_shown(app.screen) and attempts == []
        assert not editor(app).read_only and editor(app).has_focus
        await paste(pilot, solution("softmax", "reference"))
        await run_checks(pilot)
        assert str(app.screen.query_one("#verdict").render()).startswith("Correct")
        assert not app.screen.query_one("#code-status").display
    assert [a.score for a in attempts] == [1.0]


async def test_the_untouched_starter_asks_for_code_first():
    attempts: list = []
    app = start("fx-code-mask", attempts)
    async with app.run_test(size=SIZE) as pilot:
        await run_checks(pilot)
        assert text_of(app, "#code-status") == "This is the starter as given: write your function first."
        assert attempts == []


HELD_SOURCE = textwrap.dedent(
    """\
    import time
    import numpy as np
    time.sleep(1000)  # the checks cannot finish until the process is killed

    def causal_mask(L, S):
        return np.tri(L, S, dtype=bool)
    """
)


async def test_the_app_stays_responsive_while_checks_run_and_quitting_kills_the_child():
    app = start("fx-code-mask#1")
    async with app.run_test(size=SIZE) as pilot:
        await paste(pilot, HELD_SOURCE)
        await pilot.press("ctrl+s")
        pid = await asyncio.to_thread(wait_for_harness_child)  # the child is running now
        await pilot.pause()
        assert text_of(app, "#code-status").startswith("Running the checks…")
        assert editor(app).read_only
        await pilot.press("ctrl+s")  # nothing new starts while one run is going
        await pilot.press("ctrl+p")  # the event loop still answers keys: the palette opens
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press("escape")
        await pilot.press("ctrl+q")
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


async def test_moving_on_while_checks_run_kills_the_child_and_records_nothing():
    attempts: list = []
    app = start("fx-code-mask#1", attempts)
    async with app.run_test(size=SIZE) as pilot:
        await paste(pilot, HELD_SOURCE)
        await pilot.press("ctrl+s")
        pid = await asyncio.to_thread(wait_for_harness_child)
        await pilot.press("f5")  # new numbers: the question's answer widget is replaced
        await app.workers.wait_for_complete()
        await settle(pilot)
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
        assert editor(app).text == HELD_SOURCE and not editor(app).read_only  # the draft came along
    assert attempts == []


async def test_giving_up_while_checks_run_stops_them_and_shows_what_the_checks_expect():
    app = start("fx-code-mask#1")
    async with app.run_test(size=SIZE) as pilot:
        await paste(pilot, "import time\ntime.sleep(1000)\ndef causal_mask(L, S):\n    return None\n")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen.query_one(CodeEditorAnswer).running
        await pilot.press("f3", "f3")
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert not app.screen.query_one(CodeEditorAnswer).running
        answer = text_of(app, "#answer-key")
        assert answer.startswith("Answer:\ndef causal_mask(L, S) that passes every check:\n- Output matches the engine")


@pytest.fixture
def suspendable(monkeypatch):
    """Textual's headless test driver has no terminal to hand over; give it the ability the real
    Linux driver has, so App.suspend() runs its real path around the editor."""
    monkeypatch.setattr(HeadlessDriver, "can_suspend", property(lambda self: True))


def fake_editor(tmp_path: Path, body: str) -> str:
    """A command for $EDITOR: a small Python script that edits the file named last."""
    script = tmp_path / "editor.py"
    script.write_text("import sys\nfrom pathlib import Path\npath = Path(sys.argv[-1])\n" + body, encoding="utf-8")
    return f"{sys.executable} {script}"


async def test_f9_opens_the_code_in_editor_and_loads_it_back(tmp_path, monkeypatch, suspendable):
    seen = tmp_path / "seen.py"
    reference = solution("causal_mask", "reference")
    body = f"Path({str(seen)!r}).write_text(path.read_text())\npath.write_text({reference!r})\n"
    monkeypatch.setenv("EDITOR", fake_editor(tmp_path, body))
    app = start("fx-code-mask#2")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("end", "#")
        typed = editor(app).text
        await pilot.press("f9")
        await settle(pilot)
        assert seen.read_text(encoding="utf-8") == typed  # the editor got what was on screen
        assert editor(app).text == reference  # and the pane has what it saved
        await pilot.press("ctrl+z")  # one edit: undo brings back what was typed before
        assert editor(app).text == typed
        await pilot.press("ctrl+y")
        await run_checks(pilot)
        assert str(app.screen.query_one("#verdict").render()).startswith("Correct")
    assert stored_draft("fx-code-mask") == reference


async def test_an_editor_that_fails_leaves_the_code_as_it_was(tmp_path, monkeypatch, suspendable):
    monkeypatch.setenv("EDITOR", fake_editor(tmp_path, "path.write_text('lost')\nsys.exit(1)\n"))
    app = start("fx-code-mask#2")
    async with app.run_test(size=SIZE, message_hook=(heard := Heard())) as pilot:
        before = editor(app).text
        await pilot.press("f9")
        await settle(pilot)
        assert editor(app).text == before
        assert any("exited with status 1; your code was left as it was" in n for n in heard.notices)
        monkeypatch.setenv("EDITOR", str(tmp_path / "no-such-editor"))
        await pilot.press("f9")
        await settle(pilot)
        assert any("no-such-editor could not be started" in n for n in heard.notices)
        monkeypatch.setenv("EDITOR", fake_editor(tmp_path, "path.write_bytes(b'\\xff')\n"))
        await pilot.press("f9")
        await settle(pilot)
        assert any("could not be loaded back from the editor: not UTF-8 text (byte 0)" in n for n in heard.notices)
        assert editor(app).text == before
        monkeypatch.delenv("EDITOR")
        await pilot.press("f9")
        await settle(pilot)
        assert any("Set the EDITOR environment variable" in n for n in heard.notices)


async def test_without_a_terminal_to_hand_over_f9_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("EDITOR", fake_editor(tmp_path, "path.write_text('changed')\n"))
    app = start("fx-code-mask#2")
    async with app.run_test(size=SIZE, message_hook=(heard := Heard())) as pilot:
        before = editor(app).text
        await pilot.press("f9")
        await settle(pilot)
        assert editor(app).text == before
        assert any("cannot hand over to another program" in n for n in heard.notices)


async def test_on_an_80x24_terminal_the_question_and_the_editor_are_both_on_screen():
    app = start("fx-code#1")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen.region
        body, area = app.screen.query_one("#question-body").region, editor(app).region
        assert screen.contains_region(area) and area.height >= 8
        assert body.height >= 5  # room to read the question above it (it scrolls with PageUp/PageDown)


async def test_the_draft_is_in_the_history_file_as_soon_as_it_is_typed_and_survives_a_restart():
    app = start("fx-code#1")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("end", *"# half done")
        await pilot.pause()
        typed = editor(app).text
        assert typed.startswith("import numpy as np# half done\n")
        # Committed while the app still runs (the saver's thread takes a moment): a crash now loses nothing.
        await until(pilot, lambda: stored_draft("fx-code") == typed, "the draft was committed", delay=0.01)
    again = start("fx-code#4")  # other numbers, the same code
    async with again.run_test(size=SIZE, message_hook=(heard_again := Heard())) as pilot:
        await settle(pilot)
        assert editor(again).text == typed
        assert not heard_again.notices
    assert not draft_file("fx-code").exists()


async def test_a_damaged_history_file_keeps_the_draft_in_a_file_the_learner_is_told_about_in_one_notice():
    history_path().parent.mkdir(parents=True, exist_ok=True)
    damaged = b"my notes, not a database\n" * 40
    history_path().write_bytes(damaged)
    app = start("fx-code#1")
    async with app.run_test(size=SIZE, message_hook=(heard := Heard())) as pilot:
        await settle(pilot)
        await app.workers.wait_for_complete()  # the app's own opening of the file has failed too
        await settle(pilot)
        # One notice says both: answers are not being saved, and where the draft goes instead.
        [notice] = heard.notices
        assert heard.titles == ["History is not being saved"]
        assert notice.startswith(f"{history_path()} is not a quiz history file. It was left as it is")
        assert notice.endswith(f"Your code draft is being saved in {draft_file('fx-code')} instead.")
        await pilot.press("end", "#")
        typed = editor(app).text
    assert draft_file("fx-code").read_text(encoding="utf-8") == typed
    assert history_path().read_bytes() == damaged
    assert heard.notices == [notice]  # said once, not again for each save
    again = start("fx-code#1", lang="ja")
    async with again.run_test(size=SIZE, message_hook=(heard_again := Heard())) as pilot:
        await settle(pilot)
        await again.workers.wait_for_complete()
        await settle(pilot)
        assert editor(again).text == typed
        [notice] = heard_again.notices
        assert heard_again.titles == ["学習履歴は保存されていません"]
        assert "このクイズの履歴ファイルではありません" in notice and "コードの下書きは代わりに" in notice


async def test_an_unreadable_draft_file_is_kept_aside_and_the_starter_shown():
    path = draft_file("fx-code-mask")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\xff\xfe")
    app = start("fx-code-mask")
    async with app.run_test(size=SIZE, message_hook=(heard := Heard())) as pilot:
        await settle(pilot)
        assert editor(app).text.startswith("import numpy as np")
        assert any("kept as fx-code-mask.unreadable-1.py" in n for n in heard.notices)
    assert (path.parent / "fx-code-mask.unreadable-1.py").read_bytes() == b"\xff\xfe"


async def test_f7_is_not_the_editors_so_the_next_key_typed_does_not_replace_the_code():
    """TextArea binds F7 to select all; with the screen's F7 idle the next key replaced the solution."""
    app = start("fx-code-mask#2")
    async with app.run_test(size=SIZE) as pilot:
        await paste(pilot, solution("causal_mask", "reference"))
        typed = editor(app).text
        await pilot.press("f7", "x")
        assert editor(app).text == typed + "x"  # typed at the cursor, the solution kept


@pytest.mark.parametrize(
    ("keys", "text"),
    [
        ([*"def f(x):", "enter", *"return x"], "def f(x):\n    return x"),
        ([*"def f(x):  # doubles", "enter", *"return 2 * x"], "def f(x):  # doubles\n    return 2 * x"),
        ([*"    y = x", "enter", *"return y"], "    y = x\n    return y"),
    ],
)
async def test_enter_keeps_the_indentation_and_indents_after_a_colon(keys, text):
    app = start("fx-code-mask#2")
    async with app.run_test(size=SIZE) as pilot:
        await paste(pilot, "")
        await pilot.press(*keys)
        assert editor(app).text == text


async def test_a_missing_scale_fails_what_it_breaks_and_passes_the_rows_with_no_allowed_key():
    """The masked rows' zeros are compared, not the whole output: that branch is right without the scale."""
    app = start("fx-code#1")
    async with app.run_test(size=SIZE) as pilot:
        await paste(pilot, solution("attention", "missing_scale"))
        await run_checks(pilot)
        checklist = text_of(app, "#marks")
        assert "✓ A row with no allowed key gives zeros" in checklist and "✗ Output matches the engine" in checklist
        assert "2 of 6 checks passed" in checklist
