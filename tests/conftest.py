"""Shared fixtures: keep every test away from the developer's own config, data and packs."""

import itertools
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

USER_VARIABLES = ("QUIZ_DATA_DIR", "QUIZ_CONFIG_DIR", "QUIZ_CACHE_DIR")
_COLLECTION_HOME: str | None = None


def pytest_configure(config):
    """Before any test module is imported: test modules load banks while they are collected, and
    that load must not write the bank cache (or anything) into the developer's own folders."""
    global _COLLECTION_HOME
    _COLLECTION_HOME = tempfile.mkdtemp(prefix="quiz-tests-")
    for variable in USER_VARIABLES:
        os.environ[variable] = os.path.join(_COLLECTION_HOME, variable.removeprefix("QUIZ_").lower())


SLOW_FOLDERS = frozenset({"app", "snapshots"})
"""Kinds of test that each start the real app: all `slow` (see pyproject's markers)."""


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.parent.name in SLOW_FOLDERS:
            item.add_marker(pytest.mark.slow)


def pytest_unconfigure(config):
    if _COLLECTION_HOME is not None:
        shutil.rmtree(_COLLECTION_HOME, ignore_errors=True)

# A counter names each test's user folder: `mktemp` would list the whole temporary folder on every
# call to find a free number, which over 5,000 tests cost more than half a minute.
_USER_FOLDERS = itertools.count()


# What a first start leaves in the cache folder: the bundled bank and both catalogues, as the
# `quiz` command writes them.
WARMING = """
import argparse
from quiz.cli.common import load
from quiz.locale.i18n import tr
load(argparse.Namespace(bank=[]))
for lang in ("en", "ja"):
    tr("ui.title", lang)
"""


@pytest.fixture(scope="session")
def warm_cache_files(tmp_path_factory):
    """The cache files of a first start, made once per test process in a folder of its own: a
    test starts with them, as a learner's second start does, unless it is marked `cold_cache`."""
    home = tmp_path_factory.mktemp("warm")
    env = {**os.environ, **{variable: str(home / variable.lower()) for variable in USER_VARIABLES}}
    subprocess.run([sys.executable, "-c", WARMING], env=env, check=True, timeout=300)
    files = sorted((home / "quiz_cache_dir").iterdir())
    assert {f.name.split("-")[0] for f in files} == {"bank", "catalogue"}, files
    key = home / "quiz_data_dir" / "cache.key"  # what the bank cache is sealed with (quiz.base.cache_key)
    return {f: f.read_bytes() for f in [*files, key]}


def _restore(warm: dict) -> None:
    """Put back what a test changed in a linked file itself (written into, its mode or owner
    changed, to test a damaged or foreign cache), so the next test starts warm again."""
    for path, content in warm.items():
        if path.read_bytes() != content:
            path.write_bytes(content)
        status = path.stat()
        if status.st_mode & 0o777 != 0o600:
            path.chmod(0o600)
        if status.st_uid != os.getuid():
            os.chown(path, os.getuid(), os.getgid())


@pytest.fixture(autouse=True)
def isolated_user_dirs(request, tmp_path_factory, monkeypatch):
    """Point the data, config and cache directories at fresh temporary folders for each test; the
    cache holds the bundled bank and the catalogues unless the test is marked `cold_cache`."""
    home = tmp_path_factory.getbasetemp() / f"user-{next(_USER_FOLDERS)}"
    home.mkdir()
    if request.node.get_closest_marker("cold_cache") is None:
        warm = request.getfixturevalue("warm_cache_files")
        cache, data = home / "cache", home / "data"
        cache.mkdir(mode=0o700)
        for kept in warm:
            # A link, not a 700 kB copy per test: the cache replaces its files by renaming them.
            # The key the bank cache is sealed with goes to the data directory, as a first start leaves it.
            if kept.name == "cache.key":
                data.mkdir(mode=0o700)
            os.link(kept, (data if kept.name == "cache.key" else cache) / kept.name)
        request.addfinalizer(lambda: _restore(warm))
    monkeypatch.setenv("QUIZ_DATA_DIR", str(home / "data"))
    monkeypatch.setenv("QUIZ_CONFIG_DIR", str(home / "config"))
    monkeypatch.setenv("QUIZ_CACHE_DIR", str(home / "cache"))
    monkeypatch.delenv("COLUMNS", raising=False)  # printed text is fitted to it: the shell's must not count
    return home


@pytest.fixture
def compile_yaml(tmp_path):
    """Write YAML to a real file, load it as a pack and return its questions compiled by id."""
    from textwrap import dedent

    from quiz.bank import load_bank
    from quiz.format.checks import check_question
    from quiz.format.diagnostics import Report

    def compile_(text: str, name: str = "pack.yaml"):
        path = tmp_path / name
        path.write_text(dedent(text), encoding="utf-8")
        bank = load_bank([path])
        assert bank.report.errors == [], [str(e) for e in bank.report.errors]
        report = Report()
        compiled = {qid: check_question(q, bank.claims, report) for qid, q in bank.questions.items()}
        assert report.errors == [], [str(e) for e in report.errors]
        return compiled

    return compile_
