"""The `quiz` command's basic contract."""

import subprocess
import sys

import quiz


def run_quiz(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "quiz", *args], capture_output=True, text=True)


def test_version_prints_the_package_version():
    result = run_quiz("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"quiz {quiz.__version__}"


def test_help_describes_the_command():
    result = run_quiz("--help")
    assert result.returncode == 0
    assert "usage: quiz" in result.stdout
