"""The wheel carries the bundled bank and every stylesheet, so `pip install .` works anywhere."""

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_contains_question_bank_and_tcss(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    [wheel] = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    bank = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "questions").rglob("*.yaml"))
    assert bank and {f"quiz/{p}" for p in bank} <= names
    stylesheets = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "quiz").rglob("*.tcss"))
    assert set(stylesheets) <= names
    assert "quiz/cli/main.py" in names and "engine/__init__.py" in names


def test_installed_package_finds_the_bundled_bank(tmp_path):
    """A plain, non-editable install into a fresh target finds its bank inside the package."""
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--target", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
    )
    code = "from quiz.base import locations; print(locations.bundled_bank_dir())"
    env = {"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, env=env, cwd=tmp_path)
    bank_dir = Path(out.stdout.strip())
    assert bank_dir == tmp_path / "quiz" / "questions"
    assert (bank_dir / "claims.yaml").is_file()
