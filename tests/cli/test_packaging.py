"""The wheel carries the bundled bank and every stylesheet, so `pip install .` works anywhere.

The wheel is built once, into the test's temporary folder, and installed from there with pip's
cache turned off and pointed into that folder too: nothing is written outside it (the user's
pip cache kept every wheel these tests built before).
"""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from places import ROOT

pytestmark = pytest.mark.slow  # a wheel built and installed


def build_env(scratch: Path) -> dict[str, str]:
    """The environment of the build and of pip: every cache they might keep inside `scratch`."""
    return {
        **os.environ,
        "PIP_NO_CACHE_DIR": "1",
        "PIP_CACHE_DIR": str(scratch / "pip-cache"),
        "XDG_CACHE_HOME": str(scratch / "cache"),
    }


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    scratch = tmp_path_factory.mktemp("build")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(scratch / "dist"), str(ROOT)],
        check=True,
        capture_output=True,
        env=build_env(scratch),
    )
    [built] = (scratch / "dist").glob("*.whl")
    return built


def test_wheel_contains_question_bank_and_tcss(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    bank = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "questions").rglob("*.yaml"))
    assert bank and {f"quiz/{p}" for p in bank} <= names
    stylesheets = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "quiz").rglob("*.tcss"))
    assert set(stylesheets) <= names
    assert "quiz/cli/main.py" in names and "engine/__init__.py" in names


def test_installed_package_finds_the_bundled_bank(wheel, tmp_path):
    """A plain, non-editable install into a fresh target finds its bank inside the package."""
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-cache-dir", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        capture_output=True,
        env=build_env(tmp_path),
    )
    code = "from quiz.base import locations; print(locations.bundled_bank_dir())"
    env = {"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env, cwd=tmp_path)
    bank_dir = Path(out.stdout.strip())
    assert bank_dir == target / "quiz" / "questions"
    assert (bank_dir / "claims.yaml").is_file()
    assert not (tmp_path / "pip-cache").exists() or not any((tmp_path / "pip-cache").rglob("*.whl"))
