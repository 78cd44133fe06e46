"""The interface catalogues kept as JSON in the cache folder: used while their TOML is unchanged,
parsed afresh when it changes, and a kept file that is damaged or not the owner's alone is ignored."""

from __future__ import annotations

import json
import os

import pytest

from quiz.base import locations
from quiz.locale.catalogue_cache import flat_catalogue, parse
from quiz.locale.i18n import LANGUAGES, LOCALE_DIR

# What a first start does with an empty cache folder is part of what these tests check.
pytestmark = pytest.mark.cold_cache


def kept_file(lang: str):
    return locations.cache_dir() / f"catalogue-{lang}.json"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_catalogue_is_parsed_once_then_read_from_its_kept_file(lang):
    source = (LOCALE_DIR / f"{lang}.toml").read_bytes()
    table = flat_catalogue(lang, source)
    assert table == parse(source) and table["ui.title"]
    assert kept_file(lang).stat().st_mode & 0o077 == 0  # its owner's alone
    # What the file holds is what the next start reads (altered here to tell it from a parse).
    kept = json.loads(kept_file(lang).read_text(encoding="utf-8"))
    kept["table"]["ui.title"] = "kept"
    kept_file(lang).write_text(json.dumps(kept), encoding="utf-8")
    assert flat_catalogue(lang, source)["ui.title"] == "kept"


def test_an_edited_catalogue_is_parsed_afresh_and_kept_again():
    flat_catalogue("en", b'[ui]\ntitle = "Before"\n')
    assert flat_catalogue("en", b'[ui]\ntitle = "After"\n') == {"ui.title": "After"}
    assert json.loads(kept_file("en").read_text(encoding="utf-8"))["table"] == {"ui.title": "After"}


@pytest.mark.parametrize(
    "damage",
    ["garbage", "not a table", "not text", "readable by others", "a symlink"],
)
def test_a_damaged_or_foreign_kept_file_is_ignored_and_written_afresh(damage, tmp_path):
    source = b'[ui]\ntitle = "Title"\n'
    flat_catalogue("en", source)
    path = kept_file("en")
    kept = json.loads(path.read_text(encoding="utf-8"))
    if damage == "garbage":
        path.write_bytes(b"\xff{not json")
    elif damage == "not a table":
        path.write_text(json.dumps({**kept, "table": ["ui.title", "Title"]}), encoding="utf-8")
    elif damage == "not text":
        path.write_text(json.dumps({**kept, "table": {"ui.title": {"format": "{0.__class__}"}}}), encoding="utf-8")
    elif damage == "readable by others":
        path.write_text(json.dumps({**kept, "table": {"ui.title": "planted"}}), encoding="utf-8")
        os.chmod(path, 0o644)
    else:
        planted = tmp_path / "planted.json"
        planted.write_text(json.dumps({**kept, "table": {"ui.title": "planted"}}), encoding="utf-8")
        os.chmod(planted, 0o600)
        path.unlink()
        path.symlink_to(planted)
    assert flat_catalogue("en", source) == {"ui.title": "Title"}
    assert json.loads(path.read_text(encoding="utf-8"))["table"] == {"ui.title": "Title"}
    assert not path.is_symlink() and path.stat().st_mode & 0o077 == 0


def test_a_cache_folder_that_cannot_be_written_costs_only_the_parse(tmp_path, monkeypatch):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("QUIZ_CACHE_DIR", str(blocked / "cache"))
    assert flat_catalogue("en", b'[ui]\ntitle = "Title"\n') == {"ui.title": "Title"}
