"""More than one convention graded right, each labelled (issue 32): FLOPs as 2mnk or multiply-adds.

An answer in an accepted convention scores 1 and says which convention it was read in; the key
is shown beside the others with their labels; a misconception that gives another convention's
answer is a clash, never a right answer for the mistake; and half the key, a trivial answer,
is no clash when it is the multiply-add count.
"""

from pathlib import Path

import pytest

from quiz.authoring.selftest import self_test
from quiz.bank import load_bank
from quiz.base.numbers import format_array_inline
from quiz.format.checks import check_question
from quiz.format.diagnostics import Report
from quiz.grading.result import Verdict
from quiz.types.draw import make_variant
from quiz.types.present import feedback_parts
from quiz.types.registry import type_of

FLOPS = """\
- id: flops
  type: number
  topic: efficient
  prompt: "FLOPs of QK^T for {{ L }}, {{ S }}, {{ d }}, as 2mnk or as multiply-adds?"
  params:
    L: {choice: [128, 256, 512]}
    S: {choice: [384, 640, 1536]}
    d: {choice: [64, 128]}
  answer: 2 * L * S * d
  convention: {en: "FLOPs, 2mnk", ja: "FLOPs、2mnk"}
  also_accepted:
    - name: multiply_adds
      label: {en: "counted as multiply-adds, mnk", ja: "積和の回数、mnk"}
      answer: L * S * d
  misconceptions:
    - {name: squared, answer: 2 * L * L * d, feedback: Use S.}
"""


def grade(compiled, seed: int, text: str):
    variant = make_variant(compiled, seed)
    kind = type_of(variant.question)
    return variant, kind.grade(variant, kind.read(variant, text))


def test_an_answer_in_either_convention_is_right_and_says_which(compile_yaml):
    compiled = compile_yaml(FLOPS)["flops"]
    variant = make_variant(compiled, 3)
    L, S, d = (variant.inputs[n] for n in ("L", "S", "d"))
    _, key = grade(compiled, 3, str(2 * L * S * d))
    assert (key.verdict, key.score, key.details) == (Verdict.CORRECT, 1.0, {})
    _, other = grade(compiled, 3, str(L * S * d))
    assert (other.verdict, other.score, other.details) == (Verdict.CORRECT, 1.0, {"convention": "multiply_adds"})
    parts = dict(feedback_parts(variant, other, L * S * d, "en"))
    assert parts["convention"] == "Right, in another convention: counted as multiply-adds, mnk."
    assert dict(feedback_parts(variant, other, L * S * d, "ja"))["convention"] == "別の数え方で正解です：積和の回数、mnk。"
    _, wrong = grade(compiled, 3, str(3 * L * S * d))
    assert wrong.verdict is Verdict.INCORRECT


def test_the_key_is_shown_with_every_accepted_convention_and_its_label(compile_yaml):
    variant = make_variant(compile_yaml(FLOPS)["flops"], 0)
    L, S, d = (variant.inputs[n] for n in ("L", "S", "d"))
    kind = type_of(variant.question)
    text = kind.answer_text(variant, "en")
    key, other = format_array_inline(variant.answer, 4), format_array_inline(float(L * S * d), 4)
    assert text == f"{key} (FLOPs, 2mnk); also right: {other} (counted as multiply-adds, mnk)"
    listed = {"name": "multiply_adds", "label": "counted as multiply-adds, mnk", "answer": L * S * d}
    assert kind.extra_json(variant, "en")["also_accepted"] == [listed]


def test_half_the_key_is_no_trivial_clash_when_it_is_an_accepted_answer(compile_yaml):
    assert self_test(compile_yaml(FLOPS)["flops"], 30) == []


def test_a_mistake_that_gives_another_conventions_answer_is_drawn_again_and_reported(compile_yaml):
    # S = 2L makes 2·L·L·d the multiply-add count: graded right, the mistake would be taught.
    pack = FLOPS.replace("S: {choice: [384, 640, 1536]}", "S: {choice: [256, 640, 1536]}")
    compiled = compile_yaml(pack)["flops"]
    for seed in range(40):
        variant = make_variant(compiled, seed)
        assert not (variant.inputs["L"] == 128 and variant.inputs["S"] == 256), seed
    found = [d.message for d in self_test(compiled, 40)]
    assert any("misconception squared grades as right" in m for m in found), found


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('  convention: {en: "FLOPs, 2mnk", ja: "FLOPs、2mnk"}\n', ""), "also_accepted needs `convention`"),
        (("name: multiply_adds", "name: squared"), "accepted convention names must be unique and differ from the misconceptions': squared"),
        (("answer: L * S * d\n", "answer: L * Q\n"), "also_accepted.multiply_adds.answer: unknown name `Q`"),
        (("answer: L * S * d\n", "answer: [L, S]\n"), "also_accepted.multiply_adds gave shape (2,); a number question needs a number"),
    ],
)
def test_an_accepted_convention_written_wrong_is_an_error(tmp_path: Path, change, message):
    path = tmp_path / "pack.yaml"
    path.write_text(FLOPS.replace(*change), encoding="utf-8")
    bank = load_bank([path])
    report = Report()
    compiled = [check_question(q, bank.claims, report) for q in bank.questions.values()]
    found = [str(e) for e in [*bank.report.errors, *report.errors]]
    if not found and compiled and compiled[0] is not None:
        found = [d.message for d in self_test(compiled[0], 5)]
    assert any(message in f for f in found), found
