"""The `quiz` command's basic contract."""

import re
import subprocess
import sys

import pytest

import quiz
from quiz.cli.main import COMMANDS


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


def test_help_lists_every_command_in_order():
    listed = re.findall(r"^    (\S+)", run_quiz("--help").stdout, flags=re.MULTILINE)
    assert listed == list(COMMANDS)


def test_an_unknown_command_is_refused_with_the_list_of_commands():
    result = run_quiz("--bank", "x.yaml", "pratice")
    assert result.returncode == 2
    assert "invalid choice: 'pratice' (choose from " + ", ".join(repr(name) for name in COMMANDS) + ")" in result.stderr


COMMANDS_IMPORTED = """
import sys
from quiz.cli import main
try:
    main.main(sys.argv[1:])
except SystemExit:
    pass
MACHINERY = {"quiz.cli.main", "quiz.cli.arguments"}  # what reads the arguments, not a command
print(sorted(m.rsplit(".", 1)[1] for m in sys.modules if m.startswith("quiz.cli.") and m not in MACHINERY))
"""


@pytest.mark.parametrize(
    ("args", "modules"),
    [
        (["paths"], ["paths"]),
        (["--bank", "list", "schema"], ["schema"]),  # --bank's value is not the command
        (["grade", "--help"], ["grade", "history_access"]),  # what grade's own module imports
        (["show", "--bogus"], ["show"]),
    ],
)
def test_a_command_imports_its_own_module_alone(args, modules):
    """`quiz practice` opens the app without loading the code of fifteen other commands."""
    result = subprocess.run([sys.executable, "-c", COMMANDS_IMPORTED, *args], capture_output=True, text=True)
    assert result.stdout.splitlines()[-1] == repr(modules)


ENTRY = """
import gc, sys
from quiz.cli import entry
from quiz.base.collector import STARTING
from quiz.cli import paths

seen = []
paths.run = lambda args: seen.append(gc.isenabled()) or 0
assert gc.isenabled()
code = entry.main(["paths"])
print(code, seen, gc.isenabled(), STARTING.holding, gc.get_freeze_count() > 0)
"""


def test_the_entry_point_holds_the_collector_only_until_a_command_that_opens_no_app_runs():
    # In a process of its own: the entry point freezes what exists, which a test run's heap should not be.
    result = subprocess.run([sys.executable, "-c", ENTRY], capture_output=True, text=True)
    # The command ran with the collector running; after it, the hold is released and what was
    # imported is frozen out of the collector's way.
    assert result.stdout.split() == ["0", "[True]", "True", "False", "True"], result.stderr


def test_python_dash_m_quiz_runs_the_command():
    result = run_quiz("paths")
    assert result.returncode == 0 and "data" in result.stdout.lower()
