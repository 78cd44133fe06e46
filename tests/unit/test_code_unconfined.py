"""Issue 34: where bubblewrap is missing (or fails its probe) code still runs, under today's guards,
the sandbox says how it runs and why, and the learner is told once. `quiz serve` and a live
interview will ask `confinement()` before running anyone's code but the local user's."""

from __future__ import annotations

import numpy as np
import pytest

from quiz.cli.main import main
from quiz.code import bubblewrap, confine, confinement_note
from quiz.code.sandbox import Call, Limits, confinement, run_calls
from solution_files import solution_path


@pytest.fixture
def no_bwrap(monkeypatch):
    """This process as on a machine without bwrap: the cached probe is cleared before and after."""
    monkeypatch.setattr(bubblewrap, "executable", lambda: None)
    bubblewrap.probe.cache_clear()
    yield
    bubblewrap.probe.cache_clear()


def test_without_bwrap_code_runs_under_the_guards_and_says_it_is_not_isolated(no_bwrap):
    result = run_calls("def f(x):\n    return x + 1\n", [Call("f", (np.zeros(2),))], limits=Limits(cpu_seconds=60, wall_seconds=120))
    assert result.load_error is None and not result.isolated
    np.testing.assert_array_equal(result.calls[0].arrays[0], np.ones(2))
    state = confinement()
    assert not state.isolated
    assert state.level == ("landlock" if confine.abi_version() >= 1 else "none")
    assert "bubblewrap (bwrap) is not installed" in state.reason


def test_the_note_names_the_reason_and_the_package_in_both_languages(no_bwrap):
    assert "bubblewrap (bwrap) is not installed" in confinement_note("en") and "bubblewrap" in confinement_note("ja")


def test_a_probe_that_fails_is_a_reason_not_an_error(no_bwrap, monkeypatch, tmp_path):
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setattr(bubblewrap, "executable", lambda: str(fake))
    bwrap, why = bubblewrap.probe()
    assert bwrap is None and why.startswith("bubblewrap could not start a sandbox here")


def test_quiz_grade_says_once_that_code_runs_unconfined(no_bwrap, capsys):
    solution = solution_path("causal_mask", "reference")
    assert main(["grade", "implement-causal-mask#3", "--file", str(solution)]) == 0
    err = capsys.readouterr().err
    assert err.count("without a sandbox of its own") == 1 and "bubblewrap" in err


def test_isolated_code_grading_says_nothing_of_confinement(capsys):
    if bubblewrap.probe()[0] is None:
        pytest.skip(f"no bubblewrap confinement here: {bubblewrap.probe()[1]}")
    assert confinement_note("en") is None
    solution = solution_path("causal_mask", "reference")
    assert main(["grade", "implement-causal-mask#3", "--file", str(solution)]) == 0
    assert "sandbox" not in capsys.readouterr().err
