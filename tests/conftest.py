"""Shared fixtures: keep every test away from the developer's own config, data and packs."""

import itertools
import os
import shutil
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


def pytest_unconfigure(config):
    if _COLLECTION_HOME is not None:
        shutil.rmtree(_COLLECTION_HOME, ignore_errors=True)

# A counter names each test's user folder: `mktemp` would list the whole temporary folder on every
# call to find a free number, which over 5,000 tests cost more than half a minute.
_USER_FOLDERS = itertools.count()


@pytest.fixture(autouse=True)
def isolated_user_dirs(tmp_path_factory, monkeypatch):
    """Point the data, config and cache directories at fresh temporary folders for each test."""
    home = tmp_path_factory.getbasetemp() / f"user-{next(_USER_FOLDERS)}"
    home.mkdir()
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
