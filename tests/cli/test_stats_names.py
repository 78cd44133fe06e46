"""`quiz stats` as learners read it: topics, claims and mistakes by their names, one mistake
under one name, claims in natural order with their maths rendered and never cut (issue 33)."""

from __future__ import annotations

from history_records import DAY_MS, START_MS, attempt, open_store
from quiz.cli.main import main
from quiz.history.store import history_path


def stats_text(capsys, *argv: str) -> str:
    code = main(["stats", *argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def record_history() -> None:
    """Attempts at fixed past times: the same mistake under the name a question gives it
    (`no_scaling`) and the name a code task gives it (`missing_scale`); claims X3, X10 and C6."""
    with open_store(history_path()) as history:
        at = START_MS - 3 * DAY_MS
        history.record(attempt("two-key-scaled-weights", at, score=0.0, verdict="incorrect", misconception="no_scaling"))
        history.record(attempt("scaling-gradient-two-keys", at + 1, score=0.0, verdict="incorrect", misconception="no_scaling"))
        history.record(attempt("implement-sdpa", at + 2, score=0.5, verdict="partial", misconception="missing_scale", key="implement-sdpa#7"))
        history.record(attempt("causal-leak-test-design", at + 3))


def test_stats_names_topics_and_mistakes_as_learners_read_them_and_merges_one_mistake(capsys):
    record_history()
    out = stats_text(capsys)
    assert "no_scaling" not in out and "missing_scale" not in out
    [mistake] = [line for line in out.splitlines() if "forgot the 1/√dₖ scale" in line]
    assert mistake.split()[-1] == "3"  # two under one name, one under the other: one mistake
    assert "\nSoftmax and its gradient  " in out and "\nImplementing attention correctly  " in out
    assert "\nsoftmax " not in out and "\nimplementation " not in out  # never the topics' ids


def test_stats_sorts_claims_naturally_and_prints_their_texts_whole_with_maths(capsys):
    record_history()
    out = stats_text(capsys)
    claims = [line.split()[0] for line in out.split("Claim ")[1].split("\n\n")[0].splitlines()[1:]]
    assert claims.index("X3") < claims.index("X10")
    c6 = next(line for line in out.splitlines() if line.startswith("C6 "))
    assert c6.endswith("halved ≈ [0.881, 0.119]; values [10, 0] give 9.82 → 8.81.")
    assert "∂pᵢ/∂zⱼ = pᵢ(δᵢⱼ − pⱼ)" in out and "δ_ij" not in out  # C4, rendered


def test_stats_says_what_due_now_counts_against_today(capsys):
    out = stats_text(capsys)
    assert "Due for review now: 0" in out
    assert "today's count is what is due now, overdue included, plus what falls due later today" in out
    japanese = stats_text(capsys, "--lang", "ja")
    assert "今日このあと期限が来る数" in japanese
