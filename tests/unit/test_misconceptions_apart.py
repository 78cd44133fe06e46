"""A variant in which a named mistake would grade as right is never served: it is drawn again, and
`quiz validate` says on how many seeds that happened, at the misconception."""

import json

import numpy as np
import pytest

from quiz.cli.main import main
from quiz.grading.result import Verdict
from quiz.types.draw import make_variant
from quiz.types.registry import type_of
from quiz.variants.variant import VariantError

PACK = """\
- id: near-one
  type: number
  topic: softmax
  prompt: "What is {{ x }}?"
  params:
    x: {decimal: [0.5, 1.5], step: 0.01}
  answer: x
  tolerance: {rtol: 0.01}
  misconceptions:
    - name: mirrored
      label: {en: mirrored, ja: 鏡像}
      answer: 2 - x
      feedback: {en: mirrored, ja: 鏡像}
- id: always-alike
  type: number
  topic: softmax
  prompt: "What is {{ x }}?"
  params:
    x: {decimal: [0.5, 1.5], step: 0.01}
  answer: x
  tolerance: {rtol: 0.01}
  misconceptions:
    - name: almost
      label: {en: almost, ja: ほぼ}
      answer: x * 1.004
      feedback: {en: almost, ja: ほぼ}
"""


def typed_grades(variant, name):
    """The verdicts of the misconception's value as computed and as typed to 4 and 3 figures."""
    kind, value = type_of(variant.question), float(variant.misconceptions[name])
    return [kind.grade(variant, float(f"{value:.{d}g}") if d else value) for d in (None, 4, 3)]


def test_a_draw_whose_misconception_grades_as_right_is_drawn_again(compile_yaml):
    compiled = compile_yaml(PACK)["near-one"]
    redrawn = 0
    for seed in range(300):
        variant = make_variant(compiled, seed)
        for result in typed_grades(variant, "mirrored"):
            assert result.verdict is not Verdict.CORRECT and not result.details.get("close"), (seed, variant.inputs)
        redrawn += bool(variant.redrawn)
    # x within about 1 % of 1 makes 2 − x the answer: those draws (a few in a hundred) are redrawn.
    assert 0 < redrawn < 30


def test_a_misconception_right_on_every_draw_is_an_error_naming_it(compile_yaml):
    compiled = compile_yaml(PACK)["always-alike"]
    with pytest.raises(VariantError, match="misconception almost grades as right") as caught:
        make_variant(compiled, 0)
    assert caught.value.field == "misconceptions.almost"


def test_validate_says_on_how_many_seeds_a_misconception_was_drawn_again(tmp_path, capsys):
    path = tmp_path / "pack.yaml"
    path.write_text(PACK.split("- id: always-alike")[0], encoding="utf-8")
    assert main(["validate", "--strict", "--seeds", "300", "--format", "json", str(path)]) == 1
    [found] = [d for d in json.loads(capsys.readouterr().out)["diagnostics"] if "misconception mirrored" in d["message"]]
    assert found["severity"] == "warning" and found["line"] == 10  # the misconception's own line
    assert "of 300 seeds, which are drawn again when served" in found["message"]


def test_a_fixed_question_or_one_without_clashes_draws_as_before(compile_yaml):
    compiled = compile_yaml(PACK)["near-one"]
    clean = [seed for seed in range(50) if not make_variant(compiled, seed).redrawn]
    first = make_variant(compiled, clean[0])
    again = make_variant(compiled, clean[0])
    assert first.inputs == again.inputs and np.isclose(first.answer, again.answer)
