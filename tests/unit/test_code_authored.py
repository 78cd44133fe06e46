"""Code tasks a pack defines as data (`define:`): the fixture pack's tasks load and validate clean,
real solutions run in the real sandbox score as they should (each named wrong variant is told by
its name), and hostile or weak definitions fail `quiz validate` at their file, line and column."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import numpy as np
import pytest

from places import TESTS
from quiz.authoring.selftest import self_test
from quiz.bank import load_bank
from quiz.bank.cache import BankCache
from quiz.cli.main import main
from quiz.code import plan as code_plan
from quiz.format.checks import check_question
from quiz.format.diagnostics import Report
from quiz.types.code import CodeAnswer, run_answer, task_of
from quiz.types.draw import make_variant
from quiz.types.registry import type_of

PACK = TESTS / "fixtures" / "authored"
SOLUTIONS = PACK / "solutions"
BANK = load_bank([PACK])

GOOD = """\
- id: mine
  type: code
  topic: implementation
  refs: [X10]
  define:
    function: causal_attention
    sizes: {H: [1, 3], T: [4, 8], d: [4, 8]}
    inputs:
      q: {shape: [H, T, d]}
      k: {shape: [H, T, d]}
      v: {shape: [H, T, d]}
    causal: [q, k, v]
    reference: scaled_dot_product_attention(q, k, v, is_causal=True)
    mistakes:
      - name: unscaled
        label: {en: the scores left unscaled, ja: スコアをスケールしていない}
        answer: scaled_dot_product_attention(q, k, v, is_causal=True, scale=1.0)
        feedback: {en: Divide the scores by √d., ja: スコアを √d で割ってください。}
  prompt: {en: Write it., ja: 書いてください。}
  explanation: {en: Mask the future and scale., ja: 未来をマスクしてスケールします。}
"""


def validate(tmp_path: Path, capsys, text: str, *args: str) -> tuple[int, str]:
    path = tmp_path / "pack.yaml"
    path.write_text(text, encoding="utf-8")
    code = main(["validate", str(path), *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out + err


def line_of(text: str, needle: str) -> int:
    """The 1-based line of `text` that holds `needle`."""
    return next(number for number, line in enumerate(text.splitlines(), 1) if needle in line)


def graded(question_id: str, solution: Path, seed: int):
    question = BANK.questions[question_id]
    variant = make_variant(check_question(question, BANK.claims, Report()), seed)
    answer = run_answer(variant, solution.read_text(encoding="utf-8"))
    assert isinstance(answer, CodeAnswer), answer
    return type_of(question).grade(variant, answer)


def test_a_pack_with_its_own_tasks_loads_and_validates_clean(capsys):
    assert not BANK.report.errors, [str(e) for e in BANK.report.errors]
    assert {q.id for q in BANK.questions.values() if q.define is not None} == {"my-rope-decode", "my-causal-attention"}
    assert main(["validate", "--strict", str(PACK)]) == 0
    assert "0 errors, 0 warnings" in capsys.readouterr().out


def test_a_task_offers_the_checks_its_signature_takes():
    assert task_of(BANK.questions["my-rope-decode"]).checks == ("output", "shapes")
    causal = task_of(BANK.questions["my-causal-attention"])
    assert causal.checks == ("output", "shapes", "boolean_mask", "causal_leak", "large_scores")
    assert [f.signature for f in causal.functions] == ["def causal_attention(q, k, v, padding)"]


@pytest.mark.parametrize("question_id", ["my-rope-decode", "my-causal-attention"])
def test_the_reference_passes_its_checks_and_every_variant_is_told_on_every_seed(question_id):
    assert self_test(check_question(BANK.questions[question_id], BANK.claims, Report()), 20) == []


def test_the_shapes_check_draws_every_size_different_in_float32():
    task = task_of(BANK.questions["my-causal-attention"])
    q, _, _, padding = task.draw("shapes", np.random.default_rng(4))[0].calls[0].args
    B, H, T, d = q.shape
    assert len({B, H, T, d}) == 4 and q.dtype.name == "float32" and padding.shape == (B, 1, 1, T)


def test_large_scores_share_an_offset_past_exp_overflow():
    task = task_of(BANK.questions["my-causal-attention"])
    q, k, *_ = task.draw("large_scores", np.random.default_rng(1))[0].calls[0].args
    scaled = q.astype(np.float64) @ np.swapaxes(k, -1, -2).astype(np.float64) / np.sqrt(q.shape[-1])
    assert scaled.min() > 900 > np.log(np.finfo(np.float64).max)  # exp of every score overflows unless the max is subtracted


@pytest.mark.slow  # runs the sandbox
@pytest.mark.parametrize("solution", sorted(SOLUTIONS.glob("*/*.py")), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_a_real_solution_scores_as_it_should_and_a_named_variant_is_told_by_name(solution):
    question_id, name = solution.parent.name, solution.stem
    result = graded(question_id, solution, seed=7)
    mistakes = {m.name: m for m in BANK.questions[question_id].define.mistakes}
    if name == "right":
        assert (result.score, result.misconception) == (1.0, None)
    elif name == "unstable":  # no named variant: only large_scores fails
        assert (result.score, result.misconception, result.details["failed"]) == (0.8, None, ["large_scores"])
    else:
        assert result.misconception == name and result.score < 1.0
        assert result.label == mistakes[name].label and result.feedback == (mistakes[name].feedback,)


REFERENCE = "reference: scaled_dot_product_attention(q, k, v, is_causal=True)"


@pytest.mark.parametrize(
    "old, new, at, message",
    [
        ("scale=1.0)", "scale=1.0) + softmx(q)", "softmx", "define.mistakes.unscaled.answer: unknown function `softmx`; did you mean `softmax`?"),
        ("  define:", "  checks: [output, boolean_mask]\n  define:", "checks:",
         "checks: check 'boolean_mask' does not apply here; it takes: output, shapes, causal_leak"),
        ("is_causal=True, scale=1.0)", "is_causal=True) * 1.0", "* 1.0", "the wrong variant unscaled gives the reference's outputs on every draw"),
        (REFERENCE, "reference: scaled_dot_product_attention(q, k, v)", "reference:",
         "the reference's own outputs fail checks, so the answer key does not grade as correct (seed 0: failing: causal_leak;"),
        ("  define:", "  checks: [causal_leak]\n  define:", "checks:",
         "the checks chosen accept a wrong solution: the mistake unscaled scores full marks (seed 0; 20 of 20 seeds); add output, shapes to checks"),
        (REFERENCE, "reference: (q, k)", "reference:", "define.reference: gives 2 values; a task of your own returns one array"),
        (REFERENCE, "reference: attention(q, k, v)", "reference:",
         "define.reference: gives AttentionTrace, not an array (an attention run's output is `.output`)"),
        (REFERENCE, "reference: concatenate([q, q[0]])", "reference:", "define.reference: cannot evaluate `concatenate([q, q[0]])`"),
    ],
    ids=["unknown-function", "check-not-for-signature", "identical-variant", "reference-fails-its-checks", "checks-accept-a-variant",
         "reference-tuple", "reference-attention-run", "reference-not-computable"],
)  # fmt: skip
def test_a_weak_or_broken_definition_is_an_error_at_its_line(tmp_path, capsys, old, new, at, message):
    assert old in GOOD
    text = GOOD.replace(old, new, 1)
    code, out = validate(tmp_path, capsys, text)
    assert code == 1
    assert f"pack.yaml:{line_of(text, at)}:" in out and message in out, out


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("d: [4, 8]", "d: [4, 100000]", "sizes.d: give [min, max] with 1 ≤ min ≤ max ≤ 64, not [4, 100000]"),
        ("q: {shape: [H, T, d]}", "q: {shape: [H, T, d, 64, 64, 40]}", "inputs.q: 31,457,280 entries at the largest sizes; the limit is 4,096"),
        ("q: {shape: [H, T, d]}", "q: {shape: [H, T, D]}", "inputs.q.shape: 'D' is not a size (sizes: H, T, d) or a whole number"),
        ("q: {shape: [H, T, d]}", "q: {shape: [H, T, d], value: T}", "give exactly one of shape or value"),
        ("causal: [q, k, v]", "causal: [x, k, v]", "causal: 'x' is not a drawn float input (those: q, k, v)"),
        ("function: causal_attention", "function: lambda", "function: 'lambda' is not a name a def line can give"),
        ("is_causal=True)\n", "is_causal=True)" + ")" * 150 + "\n", "define.reference: invalid syntax"),
        ("reference: s", "reference: " + "softmax(" * 120 + "q" + ")" * 120 + " + s", "define.reference: the expression is nested more than"),
    ],
    ids=["huge-size", "huge-input", "unknown-size", "shape-and-value", "unknown-causal-input", "keyword-function", "unbalanced", "deep-reference"],
)
def test_hostile_definitions_fail_validation_cleanly(tmp_path, capsys, old, new, message):
    assert old in GOOD
    code, out = validate(tmp_path, capsys, GOOD.replace(old, new, 1))
    assert code == 1
    assert message in out
    assert re.search(r"pack\.yaml:\d+:\d+: error: mine: ", out)


def test_a_value_input_computed_from_the_sizes_reaches_the_function(tmp_path, capsys):
    text = textwrap.dedent("""\
        - id: mine
          type: code
          topic: implementation
          refs: [Y9]
          define:
            function: rotate
            sizes: {T: [3, 6]}
            choose: {d: [4, 8]}
            inputs:
              x: {shape: [T, d]}
              positions: {value: arange(T) + 2}
            reference: apply_rotary(x, positions)
            mistakes:
              - name: from_zero
                label: {en: positions from zero, ja: 位置を 0 から数えた}
                answer: apply_rotary(x, positions - 2)
                feedback: {en: Use the positions given., ja: 与えられた位置を使ってください。}
          prompt: {en: Rotate x., ja: x を回転してください。}
          explanation: {en: RoPE., ja: RoPE です。}
        """)
    code, out = validate(tmp_path, capsys, text, "--strict")
    assert code == 0, out
    bank = load_bank([tmp_path / "pack.yaml"])
    x, positions = task_of(bank.questions["mine"]).draw("output", np.random.default_rng(0))[0].calls[0].args
    assert positions.tolist() == list(range(2, x.shape[0] + 2))


def test_a_warm_load_gives_the_same_definitions_with_their_places(tmp_path):
    for _ in range(2):  # cold, then from the cache
        cache = BankCache(tmp_path)
        warm = load_bank([PACK], cache=cache)
        cache.save()
    assert cache.status == "used"
    assert [repr(q) for q in warm.questions.values()] == [repr(q) for q in BANK.questions.values()]
    assert task_of(warm.questions["my-causal-attention"]).checks == task_of(BANK.questions["my-causal-attention"]).checks


@pytest.mark.slow  # runs the sandbox
def test_the_command_line_tells_a_named_variant_by_the_packs_own_texts(capsys):
    solution = SOLUTIONS / "my-rope-decode" / "new_key_not_rotated.py"
    code = main(["grade", "my-rope-decode#3", "--bank", str(PACK), "--file", str(solution), "--json", "--lang", "ja"])
    data = json.loads(capsys.readouterr().out)
    feedback = "新しいキーが回転されないままキャッシュに加わっています。クエリと同じく位置 t で回転してください。"
    assert code == 0 and data["misconception"] == "new_key_not_rotated" and data["code"]["misconception_text"] == feedback
    assert data["code"]["task"] == "own:my-rope-decode"  # never a built-in task's id
    code = main(["grade", "my-rope-decode#3", "--bank", str(PACK), "--file", str(solution)])
    out = capsys.readouterr().out
    assert "That is the answer for a known mistake: the new key left unrotated." in out


def test_grading_refuses_cleanly_where_the_reference_cannot_be_computed(tmp_path):
    path = tmp_path / "pack.yaml"
    path.write_text(GOOD.replace(REFERENCE, "reference: concatenate([q, q[0]])"), encoding="utf-8")
    bank = load_bank([path])  # loading reads no expression's value: the question stands
    variant = make_variant(check_question(bank.questions["mine"], bank.claims, Report()), 3)
    refused = run_answer(variant, "def causal_attention(q, k, v):\n    return q\n")
    assert not isinstance(refused, CodeAnswer) and refused.key == "code.task_broken"
    assert refused.message("ja").startswith("この問題が独自に定義したタスクを入力に対して計算できないため（cannot evaluate")


def test_the_evaluations_of_a_check_share_one_cpu_budget(monkeypatch):
    import quiz.types.code_authored as authored

    monkeypatch.setattr(authored, "CHECK_SECONDS", 0.0)  # spent before the first step: no clock speed decides
    task = authored.authored_task("mine", BANK.questions["my-causal-attention"].define)
    with pytest.raises(authored.DefinitionError, match="CPU-time budget of 0 s") as raised:
        code_plan(task, seed=0)
    assert raised.value.field == "reference"


def test_a_variant_without_a_label_is_warned_about_like_any_named_mistake(tmp_path, capsys):
    text = GOOD.replace("        label: {en: the scores left unscaled, ja: スコアをスケールしていない}\n", "")
    code, out = validate(tmp_path, capsys, text, "--strict")
    assert code == 1 and f"pack.yaml:{line_of(text, '- name: unscaled')}:9: warning: mine: mistake unscaled has no label" in out
