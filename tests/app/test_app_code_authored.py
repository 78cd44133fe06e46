"""A code question whose task the pack defines (`define:`), in the real app: the editor opens on the
def line its inputs make, Ctrl+S runs the real sandbox, and a named wrong variant is told by the
pack's own label and feedback, in Japanese too."""

from __future__ import annotations

from textual import events
from textual.widgets import Static, TextArea

from pilot_waits import settle
from places import TESTS
from quiz.bank import Selection, load_bank
from quiz.ui.app import QuizApp, make_app

PACK = TESTS / "fixtures" / "authored"
BANK = load_bank([PACK])


def start(key: str, attempts: list, lang: str | None = None) -> QuizApp:
    return make_app(start=Selection(key=key), seed=7, lang=lang, bank=BANK, on_attempt=attempts.append)


async def run(pilot, source: str) -> None:
    """Paste `source` over the editor's text, press Ctrl+S and wait for the sandbox's result."""
    pilot.app.screen.query_one("#code-editor", TextArea).select_all()
    pilot.app.post_message(events.Paste(source))
    await pilot.pause()
    await pilot.press("ctrl+s")
    await pilot.app.workers.wait_for_complete()
    await settle(pilot)


def shown(app: QuizApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def test_a_right_solution_to_a_packs_own_task_passes_every_check():
    attempts: list = []
    app = start("my-rope-decode#3", attempts)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        starter = app.screen.query_one("#code-editor", TextArea).text
        assert "def decode_step(q, k, v, k_cache, v_cache, position):" in starter
        await run(pilot, (PACK / "solutions" / "my-rope-decode" / "right.py").read_text(encoding="utf-8"))
        assert shown(app, "#verdict").startswith("Correct · Score 1.00")
        assert "2 of 2 checks passed" in shown(app, "#marks")
    [attempt] = attempts
    assert (attempt.score, attempt.misconception) == (1.0, None)


async def test_a_named_wrong_variant_is_told_with_the_packs_label_and_feedback_in_japanese():
    attempts: list = []
    app = start("my-rope-decode#3", attempts, lang="ja")
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        await run(pilot, (PACK / "solutions" / "my-rope-decode" / "new_key_not_rotated.py").read_text(encoding="utf-8"))
        assert shown(app, "#verdict").startswith("不正解")
        assert shown(app, "#misconception") == "よくある誤りと同じ答えです：新しいキーを回転していない"
        feedback = [str(s.render()) for s in app.screen.query(".option-feedback").results(Static)]
        assert feedback and feedback[0].startswith("新しいキーが回転されないままキャッシュに加わっています")
    [attempt] = attempts
    assert (attempt.misconception, attempt.score) == ("new_key_not_rotated", 0.0)
