"""Answers as learners type them: option letters as shown, item numbers, true/false words in both
languages; and the feedback that says what was missed, what was wrong and what was close."""

import json

import numpy as np
import pytest

from quiz.answer_text import Invalid
from quiz.cli.main import main
from quiz.grading.result import Verdict
from quiz.types.draw import make_variant
from quiz.types.grade import grade
from quiz.types.options import letter, shown
from quiz.types.registry import type_of

PACK = """\
- id: pick
  type: choice
  topic: scaling
  prompt: Why scale?
  options:
    - {text: Keep the score variance near one, correct: true}
    - {text: Make the weights uniform, feedback: "No: that flattens attention."}
    - {text: Faster matmuls}
- id: several
  type: multi
  topic: diagnosis
  prompt: Which make NaN?
  options:
    - {text: Fully masked rows, correct: true}
    - {text: Overflow in float16, correct: true}
    - {text: Learning-rate warm-up, feedback: "It may matter, but not for NaN."}
    - {text: Dividing by sqrt(d_k)}
- id: steps
  type: order
  topic: implementation
  prompt: Order the steps.
  items:
    - {id: scores, text: scores}
    - {id: mask, text: mask}
    - {id: softmax, text: softmax}
    - {id: values, text: values}
  critical:
    - {pair: [mask, softmax], name: mask_after_softmax, label: masked late, feedback: Mask first., cap: 0.5}
    - {pair: [scores, values], name: values_first, label: values first, feedback: Scores first.}
- id: tf
  type: truefalse
  topic: scaling
  prompt: {en: Scaling makes attention uniform., ja: スケーリングは注意を一様にする。正しいか誤りか。}
  answer: false
- id: talk
  type: explain
  topic: scaling
  prompt: Why sqrt(d_k)?
  model_answer: Var(q.k) = d_k.
  rubric: [independence, variance d_k, saturation]
- id: p1
  type: number
  topic: softmax
  prompt: p_1 for [2, 0]?
  answer: softmax([2, 0])[0]
  tolerance: {rtol: 0.0001, atol: 0.0001}
"""


@pytest.fixture
def compiled(compile_yaml):
    return compile_yaml(PACK)


def read(variant, text):
    return type_of(variant.question).read(variant, text)


def a_shuffled_variant(compiled_question):
    """A variant whose first option shown is not the first written, so ids and letters differ."""
    for seed in range(50):
        variant = make_variant(compiled_question, seed)
        if shown(variant)[0][0] != "a":
            return variant
    raise AssertionError("50 seeds and never shuffled")


def test_the_letter_typed_is_the_option_shown_under_it_not_the_id_written(compiled):
    variant = a_shuffled_variant(compiled["pick"])
    ids = [i for i, _ in shown(variant)]
    for n, option_id in enumerate(ids):
        for typed in (letter(n), f"{letter(n)})", f"({letter(n)})", letter(n).upper(), chr(ord("ａ") + n), str(n + 1)):
            assert read(variant, typed) == option_id, typed
    right = letter(ids.index("a"))  # the right option was written first, with the id a
    assert grade(variant, read(variant, right)).verdict is Verdict.CORRECT
    assert grade(variant, read(variant, "a")).verdict is Verdict.INCORRECT  # a) shows another option
    assert isinstance(read(variant, "d"), Invalid)


def test_the_key_for_tools_is_the_letters_shown_and_grade_reads_it_back(capsys, tmp_path):
    path = tmp_path / "pack.yaml"
    path.write_text(PACK, encoding="utf-8")
    for question in ("pick", "several"):
        for seed in range(6):
            key = f"{question}#{seed}"
            assert main(["show", key, "--json", "--answer", "--bank", str(path)]) == 0
            shown_json = json.loads(capsys.readouterr().out)
            answer = shown_json["answer"]
            letters = {o["id"]: o["letter"] for o in shown_json["options"]}
            assert set(answer if isinstance(answer, list) else [answer]) <= set(letters.values())
            typed = " ".join(answer) if isinstance(answer, list) else answer
            assert main(["grade", key, "--answer", typed, "--json", "--bank", str(path)]) == 0
            assert json.loads(capsys.readouterr().out)["verdict"] == "correct", (key, typed)


def test_multi_feedback_names_the_right_options_missed_and_the_wrong_ones_picked(compiled):
    variant = make_variant(compiled["several"], 3)
    letters = {i: letter(n) for n, (i, _) in enumerate(shown(variant))}
    response = read(variant, f"{letters['a']} {letters['c']}")  # one right, one wrong, one right missed
    result = grade(variant, response)
    assert result.score == 0.0 and result.feedback[0].en == "It may matter, but not for NaN."
    marked = type_of(variant.question).marked_response(variant, result, response, "en").splitlines()
    assert marked[0] == "Your answer:"
    assert f"{letters['a']}) Fully masked rows  ✓" in marked
    assert f"{letters['c']}) Learning-rate warm-up  ✗" in marked
    assert f"{letters['b']}) Overflow in float16  missed: this one is right too" in marked
    assert not any("Dividing" in line for line in marked)  # neither picked nor right: not listed
    assert read(variant, "none") == frozenset() and read(variant, "なし") == frozenset()
    assert isinstance(read(variant, " "), Invalid)  # nothing typed: asked for an answer, no crash


@pytest.mark.parametrize("form", ["{}", "[{}]", "({})", "{}, ", "{}、"])
def test_order_answers_take_brackets_commas_or_spaces(compiled, form):
    variant = make_variant(compiled["steps"], 0)
    kind = type_of(variant.question)
    numbers = [str(n) for n in kind.answer_json(variant, "en")]
    sep = ", " if "," in form else ("、" if "、" in form else " ")
    typed = form.format(sep.join(numbers)) if "{}" in form else form
    typed = typed.rstrip(", ").rstrip("、") if form in ("{}, ", "{}、") else typed
    assert read(variant, typed) == (0, 1, 2, 3)
    full_width = " ".join(numbers).translate(str.maketrans("0123456789", "０１２３４５６７８９"))
    assert read(variant, full_width) == (0, 1, 2, 3)
    assert isinstance(read(variant, " ".join(numbers[:-1])), Invalid)  # each item once


def test_the_reversed_order_scores_nothing_and_the_lowest_cap_names_the_mistake(compiled):
    variant = make_variant(compiled["steps"], 0)
    assert grade(variant, (3, 2, 1, 0)).score == 0.0
    both = grade(variant, (3, 2, 0, 1))  # values before scores (cap 0) and softmax before mask (cap 0.5)
    assert both.score == 0.0 and both.misconception == "values_first" and both.label.en == "values first"
    assert [f.en for f in both.feedback] == ["Scores first.", "Mask first."]
    late = grade(variant, (0, 2, 1, 3))  # 5 of 6 pairs right, but the mask after the softmax
    assert late.score == 0.5 and late.misconception == "mask_after_softmax"


@pytest.mark.parametrize(
    ("typed", "value"),
    [("正しい", True), ("誤り", False), ("はい", True), ("いいえ", False), ("正", True), ("誤", False),
     ("誤り。", False), ("ただしい", True), ("○", True), ("×", False), ("False", False), ("t", True), ("ｙｅｓ", True)],
)
def test_true_false_accepts_the_words_of_the_prompt_and_the_key_in_both_languages(compiled, typed, value):
    assert read(make_variant(compiled["tf"], 0), typed) is value


def test_true_false_refuses_other_words_saying_what_to_type(compiled):
    refused = read(make_variant(compiled["tf"], 0), "maybe")
    assert isinstance(refused, Invalid) and "true" in refused.message("en") and "はい" in refused.message("ja")


def test_explain_feedback_lists_the_points_not_ticked(compiled):
    variant = make_variant(compiled["talk"], 0)
    response = read(variant, "1 3")
    result = grade(variant, response)
    assert result.score == pytest.approx(2 / 3)
    marked = type_of(variant.question).marked_response(variant, result, response, "en")
    assert marked.splitlines() == ["Points your answer did not make:", "✗ variance d_k"]


@pytest.mark.parametrize(
    ("typed", "close"),
    [(0.88, True), (0.881, True), (0.9, True), (1, False), (0.8, False), (0.87, False), (0, False)],
)
def test_a_number_right_to_the_figures_given_is_close_not_just_wrong(compiled, typed, close):
    variant = make_variant(compiled["p1"], 0)  # key 0.880797...; within 0.000188 of it is right
    result = grade(variant, float(typed))
    assert result.verdict is Verdict.INCORRECT and result.details.get("close", False) is close
    assert np.isclose(variant.answer, 0.8807970779778823)


def test_the_close_message_reads_in_both_languages(capsys, tmp_path):
    path = tmp_path / "pack.yaml"
    path.write_text(PACK, encoding="utf-8")
    assert main(["grade", "p1", "--answer", "0.88", "--bank", str(path)]) == 0
    assert "Close: the key rounds to your answer, but give more significant figures." in capsys.readouterr().out
    assert main(["grade", "p1", "--answer", "0.88", "--lang", "ja", "--bank", str(path)]) == 0
    assert "有効数字をもっと増やしてください" in capsys.readouterr().out
    assert main(["grade", "tf", "--answer", "たぶん", "--lang", "ja", "--bank", str(path)]) == 3
    assert capsys.readouterr().err.startswith("quiz: 解答を読み取れません：")
