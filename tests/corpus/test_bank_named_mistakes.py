"""Issue 27: the wrong methods that graded as right in the bundled bank are now named mistakes.

For each one the issue's reproduction (`quiz grade ID#SEED --answer X`) no longer grades as right,
and on every served variant the mistake's value, as computed or as typed to 4 or 3 figures, is
graded as that named mistake and never as right.
"""

from __future__ import annotations

import pytest

from quiz.bank import load_bank
from quiz.cli.main import main
from quiz.grading.result import Verdict
from quiz.types.draw import make_variant
from quiz.types.registry import type_of

# (question, misconception, the issue's seed and the answer that graded as right there)
MISTAKES = [
    ("saturated-softmax-derivative", "dropped_p1", 0, "0.002343"),
    ("saturated-softmax-derivative", "dropped_p1", 1, "0.01041"),
    ("logit-growth-score-spread", "added_growths", 30, "4.231"),
    ("attention-output-variance", "output_std", 12, "1.008"),
    ("variance-test-standard-errors", "not_divided_by_standard_error", 45, "-2.66"),
    ("online-softmax-running-sum", "dropped_first_block", 42, "1.407"),
    ("cross-attention-output-entry", "other_query_row", 5, "-0.7993"),
    ("temperature-entropy-sensitivity", "entropy_itself", None, None),
    ("temperature-entropy-sensitivity", "sample_variance", None, None),
    ("entropy-padded-row", "not_normalised", None, None),
    ("entropy-padded-row", "max_weight", None, None),
]
SEEDS = range(60)


@pytest.fixture(scope="module")
def bank():
    return load_bank()


@pytest.mark.parametrize(("qid", "name", "seed", "answer"), [m for m in MISTAKES if m[2] is not None])
def test_the_issues_reproduction_no_longer_grades_as_right(qid, name, seed, answer, capsys):
    main(["grade", f"{qid}#{seed}", f"--answer={answer}"])
    out = capsys.readouterr().out
    assert not out.startswith("Correct"), out


@pytest.mark.parametrize(("qid", "name"), sorted({(m[0], m[1]) for m in MISTAKES}))
def test_the_mistake_is_named_and_never_graded_right_on_any_served_variant(bank, qid, name):
    question = bank.questions[qid]
    assert name in {m.name for m in question.misconceptions}
    kind = type_of(question)
    for seed in SEEDS:
        variant = make_variant(bank.compiled(qid), seed)
        value = float(variant.misconceptions[name])
        for typed in (value, float(f"{value:.4g}"), float(f"{value:.3g}")):
            result = kind.grade(variant, typed)
            assert result.verdict is not Verdict.CORRECT and not result.details.get("close"), (seed, typed)
        assert kind.grade(variant, value).misconception == name, seed
