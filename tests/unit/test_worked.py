"""Worked values: the few a question names in `worked:` are featured with their labels, in the
author's order; the other steps of its attention runs are kept for a fold, worded by the
catalogue; a value without words is never shown; an attention run's weights know which cells
the mask forbade. Questions are real YAML files, compiled and drawn as the app does."""

from __future__ import annotations

import numpy as np
import pytest

from quiz.bank import load_bank
from quiz.types.draw import make_variant
from quiz.types.present import worked_words
from quiz.variants.worked import worked_values

CAUSAL = """
- id: causal
  type: matrix
  topic: implementation
  prompt: Give the causal weights.
  params:
    S: {normal: [3, 3], std: 2, decimals: 0}
  derived:
    half: 0.5
    run: attention(S, eye(3), eye(3), is_causal=True, scale=half)
    unmasked: softmax(S / 2)
  %s
  answer: run.weights
"""


def variant_of(compile_yaml, text: str, seed: int = 3):
    [compiled] = compile_yaml(text).values()
    return make_variant(compiled, seed)


def test_named_values_are_featured_in_the_authors_order_with_their_labels(compile_yaml):
    worked = """worked:
    run.weights: {en: "the weights", ja: "重み"}
    half: {en: "the factor 1/√dₖ", ja: "係数"}"""
    variant = variant_of(compile_yaml, CAUSAL % worked)
    values = worked_values(variant)
    assert [t.name for t in values.featured] == ["run.weights", "half"]
    assert [t.label.get("en") for t in values.featured] == ["the weights", "the factor 1/√dₖ"]
    assert values.featured[1].value.ndim == 0 and float(values.featured[1].value) == 0.5  # a named scalar is shown
    folded = [t.name for t in values.more]
    assert folded == ["run.scores", "run.scaled", "run.output"]  # S and unmasked have no words: not shown
    assert all(t.label is None and t.run is None for t in values.more)
    assert [worked_words(variant, t, "en") for t in values.more] == ["raw scores QKᵀ", "scaled scores", "output, the weights times V"]
    assert [worked_words(variant, t, "ja") for t in values.more] == ["生スコア QKᵀ", "スケーリング後のスコア", "出力（重み × V）"]


def test_a_runs_weights_know_which_cells_the_mask_forbade(compile_yaml):
    variant = variant_of(compile_yaml, CAUSAL % "")
    [weights] = [t for t in worked_values(variant).featured if t.name == "run.weights"]
    assert weights.is_weights and weights.allowed is not None
    np.testing.assert_array_equal(weights.allowed, np.tril(np.ones((3, 3), dtype=bool)))
    assert np.allclose(weights.value, variant.answer)


DERIVED_MASK = """
- id: derived-mask
  type: matrix
  topic: implementation
  prompt: Give the causal weights.
  params:
    S: {normal: [3, 3], std: 2, decimals: 0}
  derived:
    %s: causal_mask(3)
    w: softmax(where(%s, S, -inf))
    leaky: softmax(where(%s, S, S - 30))
  worked:
    w: {en: "the weights", ja: "重み"}
    leaky: {en: "weights with a finite mask", ja: "有限のマスクの重み"}
  answer: w
"""


def test_a_derived_weight_matrix_takes_the_questions_allowed_as_its_mask(compile_yaml):
    variant = variant_of(compile_yaml, DERIVED_MASK % (("allowed",) * 3))
    weights, leaky = worked_values(variant).featured
    assert weights.is_weights and leaky.is_weights
    np.testing.assert_array_equal(weights.allowed, np.tril(np.ones((3, 3), dtype=bool)))
    # Above the diagonal these weights are tiny but not 0: they were allowed, so no cell is marked masked.
    assert leaky.allowed is None and (leaky.value[~np.tril(np.ones((3, 3), dtype=bool))] > 0).all()


def test_a_boolean_matrix_under_another_name_marks_no_cell(compile_yaml):
    [weights, _] = worked_values(variant_of(compile_yaml, DERIVED_MASK % (("causal",) * 3))).featured
    assert weights.is_weights and weights.allowed is None


@pytest.mark.parametrize("question_id", ["causal-weights-3x3", "padding-mask-batch-weights"])
def test_the_banks_masked_weight_questions_mark_their_masked_cells(question_id):
    from quiz.base import locations

    compiled = load_bank([locations.bundled_bank_dir()]).compiled(question_id)
    assert compiled is not None
    variant = make_variant(compiled, 3)
    [weights] = [t for t in worked_values(variant).featured if t.is_weights]
    assert weights.allowed is not None and not weights.allowed.all()
    assert (weights.value[~weights.allowed] == 0).all()


def test_without_worked_the_weights_are_featured_and_the_rest_folded(compile_yaml):
    values = worked_values(variant_of(compile_yaml, CAUSAL % ""))
    assert [t.name for t in values.featured] == ["run.weights"]  # unmasked is a weight matrix too, but has no words
    assert [t.name for t in values.more] == ["run.scores", "run.scaled", "run.output"]


def test_steps_of_several_runs_say_which_run_they_come_from(compile_yaml):
    variant = variant_of(compile_yaml, CAUSAL.replace("    unmasked:", "    again: attention(S, eye(3), eye(3))\n    unmasked:") % "")
    values = worked_values(variant)
    assert [worked_words(variant, t, "en") for t in values.featured] == [
        "attention weights (rows: queries, columns: keys), run 1 of 2",
        "attention weights (rows: queries, columns: keys), run 2 of 2",
    ]
    assert worked_words(variant, values.more[0], "ja") == "生スコア QKᵀ（2 回の計算のうち 1 回目）"


def test_values_without_words_are_never_shown(compile_yaml):
    text = """
- id: plain
  type: vector
  topic: softmax
  prompt: Give z.
  params:
    a: {normal: [3]}
  derived:
    b: a * 2
    c: a * 3
    d: a * 4
    z: a * 5
  answer: z
"""
    values = worked_values(variant_of(compile_yaml, text))
    assert values.featured == [] and values.more == []  # `a`, `b`, `c` would mean nothing to a learner
    labelled = worked_values(variant_of(compile_yaml, text + "  worked: {c: {en: three times a, ja: a の 3 倍}}\n"))
    assert [t.name for t in labelled.featured] == ["c"] and labelled.more == []


@pytest.mark.parametrize(
    ("worked", "message"),
    [
        ("worked: {nosuch: {en: x}}", "worked: 'nosuch' is not a parameter, a derived value or a step of an attention run"),
        (
            "worked: {run.weight: {en: x}}",
            "worked: 'run.weight' is not a parameter, a derived value or a step of an attention run (run.weights) (did you mean 'run.weights'?)",
        ),
        # A step the worked values cannot show (the scalar scale, the boolean mask) is refused too.
        ("worked: {run.allowed: {en: x}}", "worked: 'run.allowed' is not a parameter, a derived value or a step of an attention run"),
    ],
)
def test_a_worked_name_that_names_nothing_is_reported_at_its_line(tmp_path, worked, message):
    from quiz.format.checks import check_question
    from quiz.format.diagnostics import Report

    path = tmp_path / "pack.yaml"
    path.write_text(CAUSAL % worked, encoding="utf-8")
    bank = load_bank([path])
    report = Report()
    assert check_question(bank.questions["causal"], bank.claims, report) is None
    [error] = report.errors
    assert message in str(error) and str(error).startswith(f"{path}:")
