"""The layers stay apart: the engine knows nothing of the quiz, and the quiz core nothing of Textual."""

import json
import pkgutil
import subprocess
import sys

import quiz

UI_PACKAGE = "quiz.ui"


def modules_after_import(*modules: str) -> set[str]:
    """Names in sys.modules after a fresh interpreter imports `modules`."""
    code = f"import json, sys\nfor m in {list(modules)!r}: __import__(m)\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return set(json.loads(out.stdout))


def loaded(modules: set[str], package: str) -> set[str]:
    return {m for m in modules if m == package or m.startswith(package + ".")}


def core_modules() -> list[str]:
    """Every module of the quiz package outside the UI."""
    found = pkgutil.walk_packages(quiz.__path__, prefix="quiz.")
    return sorted(
        m.name
        for m in found
        if m.name != "quiz.__main__" and not (m.name == UI_PACKAGE or m.name.startswith(UI_PACKAGE + "."))
    )


def test_engine_loads_no_quiz_textual_or_yaml():
    modules = modules_after_import("engine")
    for forbidden in ("quiz", "textual", "yaml"):
        assert not loaded(modules, forbidden), forbidden


def test_quiz_core_loads_no_textual():
    core = core_modules()
    assert "quiz.bank" in core and "quiz.format.model" in core
    assert not loaded(modules_after_import(*core), "textual")
