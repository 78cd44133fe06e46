"""`quiz optimize` and the FSRS part of `quiz stats`, run in-process on a real history file in the
test's data directory, holding attempts drawn from a known memory model."""

from __future__ import annotations

import json
import sys

from history_records import open_store
from quiz.cli.main import main
from quiz.history.personal import MIN_REVIEWS
from quiz.history.store import history_path
from synthetic_reviews import synthetic_attempts


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def seed(count: int) -> None:
    with open_store(history_path()) as history:
        history.add_attempts([(a, False) for a in synthetic_attempts(count, seed=11)])


def test_optimize_fits_and_prints_both_sets_and_the_one_in_use(capsys):
    seed(1500)
    code, out, err = run(capsys, "optimize", "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["used"] == "fitted" and result["needed"] == MIN_REVIEWS and result["reviews"] >= MIN_REVIEWS
    fit = result["fit"]
    assert fit["fitted"]["log_loss"] < fit["default"]["log_loss"] and len(fit["parameters"]) == 21
    assert result["desired_retention"] == 0.9
    code, out, _ = run(capsys, "optimize")
    lines = out.splitlines()
    assert lines[0] == "Review scheduling (FSRS) on your history; lower is better"
    assert lines[1].split() == ["FSRS", "parameters", "Log-loss", "RMSE", "(bins)"]
    assert lines[2].startswith("FSRS's defaults  ") and f"{fit['default']['log_loss']:.4f}" in lines[2]
    assert lines[3].startswith("fitted to you (in use)") and f"{fit['fitted']['rmse']:.4f}" in lines[3]
    assert lines[4].startswith("Scheduling with the parameters fitted to you")
    assert lines[5] == "Desired retention: 0.90"


def test_stats_shows_the_last_fit_beside_the_reviews_there_are_now(capsys):
    seed(1500)
    run(capsys, "optimize")
    code, out, _ = run(capsys, "stats", "--json")
    assert code == 0
    fsrs = json.loads(out)["fsrs"]
    assert fsrs["used"] == "fitted" and fsrs["fit"]["reviews"] == fsrs["reviews"]
    code, out, _ = run(capsys, "stats", "--lang", "ja")
    assert "あなたに合わせた値（使用中）" in out and "目標定着率：0.90" in out


def test_a_short_history_keeps_the_defaults_and_says_how_many_reviews_are_needed(capsys):
    seed(30)
    code, out, _ = run(capsys, "optimize")
    assert code == 0
    assert "FSRS's defaults (in use)" in out and "fitted to you  " in out
    assert "Scheduling with FSRS's defaults: " in out and f"of the {MIN_REVIEWS} a fit needs" in out


def test_stats_before_any_fit_says_so(capsys):
    seed(30)
    code, out, _ = run(capsys, "stats")
    assert code == 0 and "Not fitted yet: " in out and "`quiz optimize` fits now" in out


def test_without_the_optimizer_optimize_says_so_and_keeps_the_defaults(capsys, monkeypatch):
    seed(300)
    monkeypatch.setitem(sys.modules, "fsrs_rs_python", None)  # as on a platform without its wheel
    code, out, _ = run(capsys, "optimize")
    assert code == 0 and "cannot be loaded on this platform" in out
    assert json.loads(run(capsys, "optimize", "--json")[1])["used"] == "default"
