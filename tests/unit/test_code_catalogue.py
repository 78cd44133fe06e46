"""Issue 27: every modelled mistake a question's checks are meant to reveal fails a check and is named
as itself, on 50 seeds of every task and policy; a catalogue where one hides or is named wrong is found."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest

from quiz.cli.main import main
from quiz.code import TASKS, catalogue_findings, plan, tasks
from quiz.code.catalogue import in_scope
from quiz.code.kinds.masks import CAUSAL_MASK
from quiz.code.probes import ProbeSpec
from quiz.code.sandbox import Call
from quiz.code.spec import Mistake

SEEDS = range(50)


def policies(task_id: str) -> list[dict[str, str]]:
    task = TASKS[task_id]
    names = sorted(task.policies)
    return [dict(zip(names, values)) for values in itertools.product(*(task.policies[n] for n in names))]


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_no_mistake_of_any_task_scores_full_marks_or_is_named_wrong_on_fifty_seeds(task_id):
    for policy in policies(task_id):
        for seed in SEEDS:
            planned = plan(task_id, seed=seed, policy=policy)
            assert in_scope(planned)
            assert catalogue_findings(planned) == [], (policy, seed)


def test_each_task_models_at_least_five_mistakes():
    for task_id, task in TASKS.items():
        assert len(task.mistakes) >= 5, task_id


def test_a_mistake_the_inputs_never_show_scores_full_marks_and_is_found():
    # Square masks only: aligning to the last key changes nothing, so the checks cannot see it.
    square = replace(CAUSAL_MASK, draw=lambda check, rng: [ProbeSpec((Call("causal_mask", (4, 4)),))])
    [found] = [f for f in catalogue_findings(plan(square, seed=0)) if f.mistake == "causal_mask_bottom_right"]
    assert found.full_marks and found.named is None


def test_a_mistake_whose_outputs_are_another_s_is_found_named_as_that_one():
    strict = CAUSAL_MASK.mistakes[0]
    twin = Mistake("causal_mask_twin", strict.run)
    task = replace(CAUSAL_MASK, mistakes=(*CAUSAL_MASK.mistakes, twin), reveals={"output": ("causal_mask_strict", "causal_mask_twin")})
    [found] = catalogue_findings(plan(task, seed=3, checks=["output"]))
    assert (found.mistake, found.named, found.full_marks) == ("causal_mask_twin", strict.id, False)


def test_a_mistake_no_chosen_check_is_meant_to_reveal_is_out_of_scope():
    planned = plan("attention", seed=0, checks=["output", "boolean_mask"])
    assert "mask_before_scale" not in in_scope(planned)  # only an additive mask shows it
    assert "mask_before_scale" in in_scope(plan("attention", seed=0))
    assert np.all([f.mistake != "mask_before_scale" for f in catalogue_findings(planned)])


def test_validate_fails_a_code_question_whose_checks_let_a_mistake_score_full_marks(monkeypatch, tmp_path, capsys):
    """The rule as `quiz validate` applies it: a causal-mask task that draws only square masks (a
    weakened copy, put in the registry for this test) cannot tell the bottom-right mask apart."""
    square = replace(CAUSAL_MASK, draw=lambda check, rng: [ProbeSpec((Call("causal_mask", (4, 4)),))])
    monkeypatch.setattr(tasks, "TASKS", {**tasks.TASKS, "causal_mask": square})
    path = tmp_path / "pack.yaml"
    path.write_text(
        "id: weak\ntype: code\ntopic: implementation\nrefs: [E4]\ntask: causal_mask\n"
        "prompt: {en: Write it., ja: 書いてください。}\nexplanation: {en: Like so., ja: こうです。}\n",
        encoding="utf-8",
    )
    assert main(["validate", "--strict", "--seeds", "3", str(path)]) == 1
    [error] = [line for line in capsys.readouterr().out.splitlines() if ": error: " in line]
    assert error.startswith(f"{path}:5:")  # the task: line
    assert "the mistake causal_mask_bottom_right scores full marks" in error and "3 of 3 seeds" in error
