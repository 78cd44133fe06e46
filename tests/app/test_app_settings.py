"""Settings in the real app (issue class 9): an unknown theme, a damaged file, the palette's theme."""

from __future__ import annotations

import asyncio
import json

from textual.command import CommandPalette
from textual.widgets import Select

from pilot_waits import Heard
from quiz.history.settings import settings_path
from quiz.practice.session import Selection
from quiz.ui.app import make_app
from quiz.ui.messages import ChangeLanguage, ChangeTheme
from quiz.ui.screens.home import HomeScreen
from quiz.ui.screens.settings import SettingsScreen
from test_app import BANK, SIZE, palette_entries

HANG_GUARD_SECONDS = 60
"""Longest wait for the held packs to load once let go: only a hang takes that long."""


def write_settings(content: str | bytes) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")


async def test_an_unknown_theme_falls_back_and_settings_still_open(isolated_user_dirs):
    write_settings('{"theme": "no-such-theme", "language": "en", "kept": true}')
    app = make_app(seed=1, bank=BANK)
    async with app.run_test(size=SIZE, message_hook=(heard := Heard())) as pilot:
        assert app.theme == "textual-dark"
        assert any("no-such-theme" in n for n in heard.notices)
        await pilot.press("f8")  # raised InvalidSelectValueError before
        await pilot.pause()
        assert isinstance(app.screen, SettingsScreen)
        assert app.screen.query_one("#theme", Select).value == "textual-dark"
    saved = json.loads(settings_path().read_text(encoding="utf-8"))
    assert saved == {"theme": "no-such-theme", "language": "en", "kept": True}  # nothing was chosen: untouched


async def test_a_theme_picked_in_the_command_palette_is_saved_and_shown_in_settings(isolated_user_dirs):
    write_settings('{"language": "en", "window": {"width": 120}}')
    app = make_app(seed=1, bank=BANK)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert await palette_entries(pilot, "theme")
        await pilot.press("enter")  # the theme list
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        assert await palette_entries(pilot, "nord") == ["nord"]
        await pilot.press("enter")
        await pilot.pause()
        assert app.theme == "nord"
        await pilot.press("f8")
        await pilot.pause()
        assert app.screen.query_one("#theme", Select).value == "nord"
    saved = json.loads(settings_path().read_text(encoding="utf-8"))
    assert saved == {"language": "en", "theme": "nord", "window": {"width": 120}}
    assert make_app(bank=BANK).settings.theme == "nord"


async def test_a_settings_file_that_cannot_be_read_starts_the_app_and_is_left_alone(isolated_user_dirs):
    write_settings("[" * 30_000)
    app = make_app(start=Selection(key="two-key-scaled-weights"), seed=1, bank=BANK)
    async with app.run_test(size=SIZE, message_hook=(heard := Heard())) as pilot:
        assert any("could not read the settings" in n for n in heard.notices)
        app.post_message(ChangeTheme("nord"))
        await pilot.pause()
        assert any("Settings could not be saved" in n and "left as it is" in n for n in heard.notices)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
    assert settings_path().read_text(encoding="utf-8") == "[" * 30_000


async def test_a_byte_order_mark_is_read_and_the_file_kept(isolated_user_dirs):
    write_settings("\ufeff".encode() + b'{"language": "ja", "theme": "nord"}')
    app = make_app(seed=1, bank=BANK)
    async with app.run_test(size=SIZE, message_hook=(heard := Heard())) as pilot:
        await pilot.pause()
        assert app.lang == "ja" and app.theme == "nord"
        assert not heard.notices


async def test_switching_language_while_the_packs_load(isolated_user_dirs, monkeypatch):
    from quiz.bank.loading import HOLD_VARIABLE
    from quiz.ui.screens.loading import LoadingScreen

    hold = isolated_user_dirs / "hold-loading"
    hold.touch()
    monkeypatch.setenv(HOLD_VARIABLE, str(hold))  # the packs load once the file is gone
    app = make_app(seed=1)
    async with app.run_test(size=SIZE) as pilot:
        assert app.bank is None and isinstance(app.screen, LoadingScreen)
        app.post_message(ChangeLanguage("ja"))  # what the palette's language command sends
        await pilot.pause()
        assert app.bank is None, "the switch must come while the packs load"
        assert isinstance(app.screen_stack[-1], LoadingScreen) and app.screen_stack[-1].lang == "ja"
        hold.unlink()
        await asyncio.wait_for(app.workers.wait_for_complete(), HANG_GUARD_SECONDS)
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen) and app.screen.lang == "ja"
