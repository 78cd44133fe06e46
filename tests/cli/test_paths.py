"""`quiz paths` says where settings, history and packs live; an empty or missing packs folder is normal."""

import json
import tempfile
from pathlib import Path

import platformdirs

from quiz.base import locations
from quiz.cli.main import main


def test_paths_follow_the_environment_and_say_what_exists(capsys, isolated_user_dirs):
    data, config = isolated_user_dirs / "data", isolated_user_dirs / "config"
    assert main(["paths", "--json"]) == 0
    places = json.loads(capsys.readouterr().out)
    assert places["settings"] == str(config / "settings.json")
    assert places["history"] == str(data / "history.sqlite3")
    assert places["packs"] == str(data / "packs")
    assert places["cache"] == str(isolated_user_dirs / "cache")
    assert main(["paths"]) == 0
    text = capsys.readouterr().out
    assert f"packs     {data / 'packs'}  (not created yet: make the folder" in text
    (data / "packs" / "mine").mkdir(parents=True)
    (data / "packs" / "mine" / "a.yaml").write_text("id: a\n", encoding="utf-8")
    main(["paths"])
    assert "(1 question file)" in capsys.readouterr().out


def test_an_empty_packs_folder_is_not_an_error(capsys, isolated_user_dirs):
    (isolated_user_dirs / "data" / "packs").mkdir(parents=True)
    assert main(["validate", "--seeds", "0"]) == 0
    out, _ = capsys.readouterr()
    assert " 0 errors" in out and "packs" not in out
    assert main(["list"]) == 0
    assert "skipped" not in capsys.readouterr().err


# Read while this module is imported, as a test module's own `BANK = load_bank()` would run.
_CACHE_WHILE_COLLECTED = locations.cache_dir()


def test_test_modules_are_collected_with_temporary_folders_not_the_users():
    """A bank loaded while the tests are collected writes its cache in a temporary folder."""
    temporary = Path(tempfile.gettempdir()).resolve()
    assert _CACHE_WHILE_COLLECTED.resolve().is_relative_to(temporary)
    assert not _CACHE_WHILE_COLLECTED.resolve().is_relative_to(Path(platformdirs.user_cache_dir()).resolve())
