"""`quiz serve` in a real browser: the system's Chromium, driven by Playwright, on the real server
and the real app. Skipped, with the reason, only where no Chromium is installed."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page

from fixture_bank import PACK, fixture_bank
from quiz.locale.i18n import tr
from serve_session import ServeProcess, chromium, wait_for_screen

pytestmark = pytest.mark.slow
QUESTION = "fx-matrix#1"


def right_answer() -> str:
    """The key of QUESTION as a learner types it, from the engine (through the variant)."""
    from quiz.types.draw import make_variant

    variant = make_variant(fixture_bank().compiled("fx-matrix"), 1)
    return "; ".join(" ".join(f"{value:.6f}" for value in row) for row in variant.answer)


def open_question(page: Page, key: str) -> None:
    """From home, open one question by its key, as a learner does: the menu, then the key."""
    wait_for_screen(page, "Pick how to practise")
    page.focus(".xterm-helper-textarea")  # keys to the terminal; a click could pick a menu entry
    wait_for_screen(page, "One question by id or key")
    for _ in range(6):  # the menu's seventh entry
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    wait_for_screen(page, "Question id or variant key")
    page.keyboard.type(key)
    page.keyboard.press("Enter")
    wait_for_screen(page, "Read as")


def answer(page: Page, text: str) -> str:
    page.keyboard.type(text)
    page.keyboard.press("Enter")
    return wait_for_screen(page, "Score")


def history(env: dict[str, str]) -> list[dict[str, object]]:
    """The attempts `quiz history --json` reads from the folders `env` names."""
    done = subprocess.run([sys.executable, "-m", "quiz", "history", "--json"], env={**os.environ, **env}, capture_output=True, text=True, check=True)
    return list(json.loads(done.stdout))


def test_a_question_answered_in_the_browser_shows_its_feedback(tmp_path: Path):
    with ServeProcess(["--bank", str(PACK)]) as server, chromium() as browser:
        page = browser.new_page(viewport={"width": 1100, "height": 760})
        response = page.goto(server.url)
        assert response is not None and response.ok
        assert page.url == server.base  # the token has left the address bar
        assert page.title() == "Attention quiz"
        open_question(page, QUESTION)
        screen = answer(page, right_answer())
        assert "Correct · Score 1.00" in screen
        shot = tmp_path / "quiz-serve-feedback.png"
        page.screenshot(path=str(shot))
        print(f"screenshot: {shot}")
        assert shot.stat().st_size > 10_000
        page.keyboard.press("F5")  # kept by the page for the app: new numbers, not a reload
        wait_for_screen(page, "Correct", gone=True)
        assert page.url == server.base and not re.search(rf"{QUESTION}\b", wait_for_screen(page, "Read as"))
    (attempt,) = history({})
    assert attempt["question"] == "fx-matrix" and attempt["score"] == 1.0


def test_a_screenshot_is_delivered_to_the_browser_and_to_its_session_only(tmp_path: Path):
    """Downloads go through Textual's deliver_text: the page opens the file from the server, below
    the page's own path; another browser without the session's cookie cannot fetch it."""
    with ServeProcess([]) as server, chromium() as browser:
        page = browser.new_page()
        page.goto(server.url)
        wait_for_screen(page, "Pick how to practise")
        page.focus(".xterm-helper-textarea")  # keys to the terminal; a click could pick a menu entry
        page.keyboard.press("F1")  # the browser's help key, kept by the page for the app's help
        wait_for_screen(page, tr("ui.help_keys_title"))
        page.keyboard.press("Escape")
        wait_for_screen(page, tr("ui.help_keys_title"), gone=True)
        page.keyboard.press("Control+p")  # the browser's print key, kept for the app's palette
        wait_for_screen(page, "Search for commands")
        with page.expect_popup() as opened:
            page.keyboard.type("Screenshot")
            wait_for_screen(page, "Save a picture of the screen")
            page.keyboard.press("Enter")
        popup = opened.value
        popup.wait_for_load_state()
        assert popup.url.startswith(server.base + "download/")
        assert "<svg" in popup.content()
        stranger = browser.new_context().new_page()
        response = stranger.goto(popup.url)
        assert response is not None and response.status == 403
        assert not list(Path(os.environ["QUIZ_DATA_DIR"]).rglob("*.svg"))  # nothing left on the server's disk


def test_a_wrong_token_gets_the_403_page(tmp_path: Path):
    with ServeProcess([]) as server, chromium() as browser:
        page = browser.new_page()
        response = page.goto(server.base + "?token=not-the-token")
        assert response is not None and response.status == 403
        assert page.title() == "Attention quiz · Wrong token"
        assert "open the link it printed last" in page.inner_text("main")
        assert not server.sessions()


def test_closing_the_tab_ends_the_session_process(tmp_path: Path):
    with ServeProcess(["--idle-timeout", "1"]) as server, chromium() as browser:
        page = browser.new_page()
        page.goto(server.url)
        wait_for_screen(page, "Pick how to practise")
        (pid,) = server.sessions()
        page.close()
        deadline = time.monotonic() + 60  # the idle timeout: closing must end it well before
        while server.sessions() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not server.sessions(), "the app process outlived its tab"
        assert not Path(f"/proc/{pid}").exists(), "an orphan app process remains"


def test_two_users_never_see_each_others_history(tmp_path: Path):
    users = tmp_path / "users.txt"
    for name in ("alice", "bob"):
        command = [sys.executable, "-m", "quiz", "serve", "adduser", name, "--users", str(users)]
        done = subprocess.run(command, input=f"{name}-password\n", capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    root = Path(os.environ["QUIZ_DATA_DIR"]) / "users"
    with ServeProcess(["--users", str(users), "--bank", str(PACK)]) as server, chromium() as browser:
        assert "?token=" not in server.url
        for name, answered in [("alice", right_answer()), ("bob", "1 0 0; 1 0 0; 1 0 0")]:
            context = browser.new_context()  # a browser of their own: no cookie of the other
            page = context.new_page()
            page.goto(server.url)
            page.fill("input[name=name]", name)
            page.fill("input[name=password]", f"{name}-password")
            page.click("button[type=submit]")
            open_question(page, QUESTION)
            screen = answer(page, answered)
            assert "Today 1 answered" in screen  # their own answer only, not the other's too
            context.close()
    folders = {name: {"QUIZ_DATA_DIR": str(root / name / "data"), "QUIZ_CONFIG_DIR": str(root / name / "config")} for name in ("alice", "bob")}
    assert [a["score"] for a in history(folders["alice"])] == [1.0]
    assert [a["score"] for a in history(folders["bob"])] != [1.0] and len(history(folders["bob"])) == 1
    assert history({}) == []  # the server's own user has none of theirs either
