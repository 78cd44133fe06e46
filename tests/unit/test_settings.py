"""Settings files (issue class 9): whatever sits at the settings path, the app starts with usable
settings and a message, and saving never loses what someone else wrote there."""

import json
import os

import pytest

from quiz.history.settings import MAX_SETTINGS_BYTES, Settings, SettingsNotSaved, load_settings, save_settings


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("[" * 100_000, "64 KiB"),
        ("[" * 30_000 + "]" * 30_000, "nested too deeply"),
        ('{"language": ' + "1" * 5_000 + "}", "digits"),
        ("[1, 2]", "not a JSON object"),
        (b"\xff\xfe{}", "decode"),
        ("{not json", "Expecting"),
    ],
    ids=["100k-brackets", "nested-30k", "huge-number", "array", "utf16", "broken"],
)
def test_a_damaged_file_gives_the_defaults_and_says_why(tmp_path, content, reason):
    path = tmp_path / "settings.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    settings, problem = load_settings(path)
    assert settings == Settings()
    assert problem is not None and str(path) in problem
    if reason == "64 KiB":
        assert f"the limit is {MAX_SETTINGS_BYTES:,}" in problem
    else:
        assert reason in problem


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_symlink_to_an_endless_device_is_not_read(tmp_path, device):
    path = tmp_path / "settings.json"
    path.symlink_to(device)
    settings, problem = load_settings(path)
    assert settings == Settings() and "not a regular file" in problem


def test_a_fifo_is_not_waited_on(tmp_path):
    path = tmp_path / "settings.json"
    os.mkfifo(path)
    settings, problem = load_settings(path)
    assert settings == Settings() and "not a regular file" in problem
    with pytest.raises(SettingsNotSaved, match="left as it is"):
        save_settings(Settings(language="ja"), path)
    assert path.is_fifo()


def test_a_byte_order_mark_is_accepted_and_not_overwritten(tmp_path):
    path = tmp_path / "settings.json"
    path.write_bytes("\ufeff".encode() + json.dumps({"language": "ja", "theme": "nord"}).encode())
    assert load_settings(path) == (Settings(language="ja", theme="nord"), None)


def test_saving_keeps_unknown_keys_and_writes_through_a_symlink(tmp_path):
    real = tmp_path / "dotfiles" / "quiz.json"
    real.parent.mkdir()
    real.write_text(json.dumps({"language": "en", "font": "large", "future": {"x": [1, 2]}}), encoding="utf-8")
    link = tmp_path / "settings.json"
    link.symlink_to(real)
    save_settings(Settings(language="ja", theme="nord"), link)
    assert link.is_symlink()
    assert json.loads(real.read_text(encoding="utf-8")) == {"language": "ja", "theme": "nord", "font": "large", "future": {"x": [1, 2]}}
    assert sorted(p.name for p in real.parent.iterdir()) == ["quiz.json"]  # no temporary file left


def test_a_file_that_cannot_be_read_is_not_overwritten(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("{half written by hand", encoding="utf-8")
    with pytest.raises(SettingsNotSaved):
        save_settings(Settings(language="ja"), path)
    assert path.read_text(encoding="utf-8") == "{half written by hand"


def test_an_unknown_theme_is_kept_in_the_file_for_the_app_to_replace(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text('{"theme": "no-such-theme"}', encoding="utf-8")
    assert load_settings(path) == (Settings(theme="no-such-theme"), None)


def test_a_text_utf8_cannot_hold_is_kept_escaped(tmp_path):
    """A JSON escape may spell a lone surrogate, which UTF-8 cannot encode: saving keeps it,
    escaped, instead of failing (choosing a theme raised UnicodeEncodeError in the app)."""
    path = tmp_path / "settings.json"
    path.write_text('{"kept": "\\ud800", "note": "日本語"}', encoding="utf-8")
    save_settings(Settings(language="ja", theme="nord"), path)
    assert json.loads(path.read_text(encoding="utf-8")) == {"kept": "\ud800", "note": "日本語", "language": "ja", "theme": "nord"}
    plain = tmp_path / "plain.json"
    plain.write_text('{"note": "日本語"}', encoding="utf-8")
    save_settings(Settings(language="ja"), plain)
    assert '"note": "日本語"' in plain.read_text(encoding="utf-8")  # nothing UTF-8 cannot hold: written as it reads
