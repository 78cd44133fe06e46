"""The code editor in the real app: typing, Ctrl+S running the real sandbox in a worker, the checklist,
a file that cannot run, $EDITOR through App.suspend, and the draft surviving a restart."""

from __future__ import annotations

import asyncio
import os
import sys
import textwrap
from pathlib import Path

import pytest
from textual import events
from textual.drivers.headless_driver import HeadlessDriver
from textual.widgets import Static, TextArea

from pilot_waits import settle
from quiz.bank import Selection, load_bank
from quiz.practice.drafts import draft_path
from quiz.ui.answers.code import CodeEditorAnswer
from quiz.ui.app import QuizApp, make_app
from quiz.ui.widgets.feedback import FeedbackView

SIZE = (100, 40)
BANK = load_bank()
SOLUTIONS = Path(__file__).parent / "code_solutions"
INDENT = "\u00a0" * 4  # evidence sits under its check: spaces that wrapping keeps


def start(key: str, attempts: list | None = None, lang: str | None = None) -> QuizApp:
    on_attempt = None if attempts is None else attempts.append
    return make_app(start=Selection(key=key), seed=7, lang=lang, bank=BANK, on_attempt=on_attempt)


def solution(task: str, name: str) -> str:
    return (SOLUTIONS / task / f"{name}.py").read_text(encoding="utf-8")


def editor(app: QuizApp) -> TextArea:
    return app.screen.query_one("#code-editor", TextArea)


def text_of(app: QuizApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def paste(pilot, text: str) -> None:
    """Replace the editor's text the way a terminal paste does: select all, then a Paste event."""
    area = editor(pilot.app)
    area.select_all()
    pilot.app.post_message(events.Paste(text))
    await pilot.pause()


async def run_checks(pilot) -> None:
    """Ctrl+S, then wait for the worker running the sandbox and for what it posts back."""
    await pilot.press("ctrl+s")
    await pilot.app.workers.wait_for_complete()
    await settle(pilot)


async def test_the_editor_opens_on_the_starter_with_python_highlighting_and_focus():
    app = start("implement-sdpa#2")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        area = editor(app)
        assert area.text == BANK.questions["implement-sdpa"].starter
        assert area.language == "python" and area.has_focus and not area.read_only
        assert "Write attention(q, k, v, mask=None). Ctrl+S runs the checks" in text_of(app, "#code-help")
        assert {"Submit", "Your editor"} <= {b.binding.description for b in app.screen.active_bindings.values() if b.binding.show}


async def test_typing_a_right_solution_and_ctrl_s_shows_a_passing_checklist_and_records_it():
    attempts: list = []
    app = start("implement-causal-mask#5", attempts)
    async with app.run_test(size=SIZE) as pilot:
        await paste(pilot, solution("causal_mask", "reference").replace("    return", "    # keys j <= i\n    return"))
        await pilot.press("end", "space", "x")  # typed keys reach the editor …
        assert editor(app).text.rstrip().endswith("x")
        await pilot.press("backspace", "backspace")  # … and are taken back
        await run_checks(pilot)
        assert str(app.screen.query_one("#verdict").render()).startswith("Correct · Score 1.00")
        checklist = text_of(app, "#marks")
        assert checklist.startswith(f"✓ Output matches the engine on drawn inputs\n{INDENT}0 of ")
        assert "✓ Shapes beyond the square case" in checklist and "2 of 2 checks passed" in checklist
        assert editor(app).read_only  # graded: the code that was checked stays on screen
        checked = editor(app).text
    [attempt] = attempts
    assert (attempt.key, attempt.score, attempt.misconception) == ("implement-causal-mask#5", 1.0, None)
    assert attempt.response == checked


async def test_a_wrong_solution_gets_its_checklist_and_its_mistake_named_in_japanese():
    attempts: list = []
    app = start("implement-gqa#3", attempts, lang="ja")
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
    app = start("implement-stable-softmax#1", attempts)
    async with app.run_test(size=SIZE) as pilot:
        await paste(pilot, "import numpy as np\n\ndef softmax(x, axis=-1):\n    return np.exp(x) /\n")
        await run_checks(pilot)
        status = text_of(app, "#code-status")
        assert status.startswith("Your file could not be run, so nothing was graded or recorded")
        assert "Line 4, column" in status and "return np.exp(x) /" in status
        assert not app.screen.query(FeedbackView) and attempts == []
        assert not editor(app).read_only and editor(app).has_focus
        await paste(pilot, solution("softmax", "reference"))
        await run_checks(pilot)
        assert str(app.screen.query_one("#verdict").render()).startswith("Correct")
        assert not app.screen.query_one("#code-status").display
    assert [a.score for a in attempts] == [1.0]


async def test_the_untouched_starter_asks_for_code_first():
    attempts: list = []
    app = start("implement-causal-mask", attempts)
    async with app.run_test(size=SIZE) as pilot:
        await run_checks(pilot)
        assert text_of(app, "#code-status") == "This is the starter as given: write your function first."
        assert attempts == []


async def test_the_app_stays_responsive_while_checks_run_and_quitting_kills_the_child(tmp_path):
    # The candidate's code reports its pid through one FIFO, then waits on another that nobody
    # ever writes: the checks cannot finish until the child is killed.
    pid_fifo, held = tmp_path / "pid", tmp_path / "held"
    os.mkfifo(pid_fifo)
    os.mkfifo(held)
    source = textwrap.dedent(
        f"""\
        import os
        import numpy as np
        with open({str(pid_fifo)!r}, "w") as out:
            out.write(str(os.getpid()))
        open({str(held)!r}).read()

        def causal_mask(L, S):
            return np.tri(L, S, dtype=bool)
        """
    )
    app = start("implement-causal-mask#1")
    async with app.run_test(size=SIZE) as pilot:
        await paste(pilot, source)
        await pilot.press("ctrl+s")
        pid = int(await asyncio.to_thread(pid_fifo.read_text))  # the child is running now
        await pilot.pause()
        assert text_of(app, "#code-status").startswith("Running the checks…")
        assert editor(app).read_only
        await pilot.press("ctrl+s")  # nothing new starts while one run is going
        await pilot.press("ctrl+p")  # the event loop still answers keys: the palette opens
        await pilot.pause()
        assert app.screen.__class__.__name__ == "CommandPalette"
        await pilot.press("escape")
        await pilot.press("ctrl+q")
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


@pytest.fixture
def suspendable(monkeypatch):
    """Textual's headless test driver has no terminal to hand over; give it the ability the real
    Linux driver has, so App.suspend() runs its real path around the editor."""
    monkeypatch.setattr(HeadlessDriver, "can_suspend", property(lambda self: True))
    monkeypatch.delenv("VISUAL", raising=False)


def fake_editor(tmp_path: Path, body: str) -> str:
    """A command for $EDITOR: a small Python script that edits the file named last."""
    script = tmp_path / "editor.py"
    script.write_text("import sys\nfrom pathlib import Path\npath = Path(sys.argv[-1])\n" + body, encoding="utf-8")
    return f"{sys.executable} {script}"


async def test_f7_opens_the_code_in_editor_and_loads_it_back(tmp_path, monkeypatch, suspendable):
    seen = tmp_path / "seen.py"
    reference = solution("causal_mask", "reference")
    body = f"Path({str(seen)!r}).write_text(path.read_text())\npath.write_text({reference!r})\n"
    monkeypatch.setenv("EDITOR", fake_editor(tmp_path, body))
    app = start("implement-causal-mask#2")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("end", "#")
        typed = editor(app).text
        await pilot.press("f7")
        await settle(pilot)
        assert seen.read_text(encoding="utf-8") == typed  # the editor got what was on screen
        assert editor(app).text == reference  # and the pane has what it saved
        assert draft_path("implement-causal-mask").read_text(encoding="utf-8") == reference
        await run_checks(pilot)
        assert str(app.screen.query_one("#verdict").render()).startswith("Correct")


async def test_an_editor_that_fails_leaves_the_code_as_it_was(tmp_path, monkeypatch, suspendable):
    monkeypatch.setenv("EDITOR", fake_editor(tmp_path, "path.write_text('lost')\nsys.exit(1)\n"))
    app = start("implement-causal-mask#2")
    async with app.run_test(size=SIZE) as pilot:
        before = editor(app).text
        await pilot.press("f7")
        await settle(pilot)
        assert editor(app).text == before
        assert any("exited with status 1" in str(n.message) for n in app._notifications)
        monkeypatch.setenv("EDITOR", str(tmp_path / "no-such-editor"))
        await pilot.press("f7")
        await settle(pilot)
        assert any("could not be started" in str(n.message) for n in app._notifications)
        monkeypatch.delenv("EDITOR")
        await pilot.press("f7")
        await settle(pilot)
        assert any("Set the EDITOR environment variable" in str(n.message) for n in app._notifications)


async def test_without_a_terminal_to_hand_over_f7_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("EDITOR", fake_editor(tmp_path, "path.write_text('changed')\n"))
    app = start("implement-causal-mask#2")
    async with app.run_test(size=SIZE) as pilot:
        before = editor(app).text
        await pilot.press("f7")
        await settle(pilot)
        assert editor(app).text == before
        assert any("cannot hand over to another program" in str(n.message) for n in app._notifications)


async def test_on_a_small_terminal_typing_brings_the_editor_into_view():
    app = start("implement-sdpa#1")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        body = app.screen.query_one("#question-body")
        assert not body.region.contains_region(editor(app).region)  # the prompt comes first
        await pilot.press("x")
        await settle(pilot)
        assert body.region.contains_region(editor(app).region)  # the whole pane, where the typing is


async def test_the_draft_is_on_disk_as_soon_as_it_is_typed_and_survives_a_restart():
    app = start("implement-sdpa#1")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("end", *"# half done")
        await pilot.pause()
        typed = editor(app).text
        assert typed.startswith("import numpy as np# half done\n")
        # Saved while the app still runs: a crash now would lose nothing.
        assert draft_path("implement-sdpa").read_text(encoding="utf-8") == typed
    again = start("implement-sdpa#4")
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert editor(again).text == typed


async def test_an_unreadable_draft_is_kept_aside_and_the_starter_shown(isolated_user_dirs):
    path = draft_path("implement-causal-mask")
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xff\xfe")
    app = start("implement-causal-mask")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert editor(app).text.startswith("import numpy as np")
        assert any("kept as implement-causal-mask.unreadable-1.py" in str(n.message) for n in app._notifications)
    assert (path.parent / "implement-causal-mask.unreadable-1.py").read_bytes() == b"\xff\xfe"


async def test_giving_up_while_checks_run_stops_them_and_shows_what_the_checks_expect(tmp_path):
    held = tmp_path / "held"
    os.mkfifo(held)
    app = start("implement-causal-mask#1")
    async with app.run_test(size=SIZE) as pilot:
        await paste(pilot, f"open({str(held)!r}).read()\ndef causal_mask(L, S):\n    return None\n")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen.query_one(CodeEditorAnswer).running
        await pilot.press("f3")
        await app.workers.wait_for_complete()
        await settle(pilot)
        assert not app.screen.query_one(CodeEditorAnswer).running
        answer = text_of(app, "#answer-key")
        assert answer.startswith("Answer: def causal_mask(L, S) that passes every check:\n\n- Output matches the engine")
