"""Each check tests its own thing: the modelled mistakes (the engine's faults among them) graded as a
candidate's results fail "a row with no allowed key" only when those rows are wrong, and every check's
label fits its task (a softmax has no L ≠ S, E ≠ Ev or mask)."""

from __future__ import annotations

import pytest

from quiz.code import TASKS, check_label
from quiz.code.run import grade, modelled_results, plan

SEEDS = range(20)
EMPTY_ROWS = ("empty_rows_nan", "empty_rows_zero", "empty_rows_uniform")
# Mistakes away from the rows with no allowed key: the scale, the softmax's axis, the mask's use.
# (A global max gives those rows zeros, which is right under the zero policy and wrong under NaN.)
ELSEWHERE = {
    "attention": {"zero": ("missing_scale", "double_scale", "softmax_over_queries", "scale_by_value_dim", "mask_before_scale")},
    "softmax": {"zero": ("softmax_axis_ignored", "softmax_global_max"), "nan": ("softmax_axis_ignored",)},
}


def failed_checks(task_id: str, mistake: str, seed: int, empty_rows: str) -> list[str]:
    planned = plan(task_id, seed=seed, policy={"empty_rows": empty_rows})
    return [c.check for c in grade(planned, modelled_results(planned, mistake)).checks if not c.passed]


@pytest.mark.parametrize("task_id", sorted(ELSEWHERE))
@pytest.mark.parametrize("empty_rows", ["zero", "nan"])
def test_a_mistake_elsewhere_leaves_the_rows_with_no_allowed_key_passing(task_id, empty_rows):
    elsewhere = ELSEWHERE[task_id]
    for mistake in elsewhere.get(empty_rows, elsewhere["zero"]):
        for seed in SEEDS:
            failed = failed_checks(task_id, mistake, seed, empty_rows)
            assert failed and "fully_masked_rows" not in failed, (mistake, seed, failed)


@pytest.mark.parametrize("task_id", sorted(ELSEWHERE))
def test_a_wrong_policy_for_those_rows_fails_that_check_alone(task_id):
    task = TASKS[task_id]
    for mistake in task.mistakes:
        if mistake.id not in EMPTY_ROWS:
            continue
        for empty_rows in task.policies["empty_rows"]:
            if not mistake.applies({"empty_rows": empty_rows}):
                continue
            for seed in SEEDS:
                assert failed_checks(task_id, mistake.id, seed, empty_rows) == ["fully_masked_rows"], (mistake.id, seed)


SOFTMAX_HAS_NO = ("L ≠ S", "E ≠ Ev", "mask", "マスク", "キー")
NO_WIDTHS = ("causal_mask", "batch_mask", "alibi_bias", "split_merge_heads", "softmax", "softmax_backward", "attention_entropy")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_checks_label_fits_its_task(lang):
    for task_id, task in TASKS.items():
        for check in task.checks:
            label = check_label(check, lang, task.default_policy(), task_id)
            if task_id == "softmax":
                assert not any(word in label for word in SOFTMAX_HAS_NO), (check, label)
            if task_id in NO_WIDTHS:
                assert "E ≠ Ev" not in label and "Ev ≠ E" not in label, (task_id, check, label)
