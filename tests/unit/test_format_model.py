"""Converting YAML into the question model: types by field, defaults, and messages with lines."""

from pathlib import Path
from textwrap import dedent

import pytest

from quiz.format.diagnostics import Report
from quiz.format.marks import Where, located
from quiz.format.model import Text, Tolerance, option_ids
from quiz.format.scalars import INVALID
from quiz.format.yaml_source import read_yaml_file
from quiz.models.questions import ChoiceQuestion, NumberQuestion, TrueFalseQuestion
from quiz.types.registry import convert_question

BASE = """\
id: q1
topic: softmax
prompt: What is $p_1$?
"""


def convert(tmp_path: Path, text: str) -> tuple[object, Report]:
    path = tmp_path / "q.yaml"
    path.write_text(dedent(text), encoding="utf-8")
    data = read_yaml_file(path)
    report = Report()
    return convert_question(data, Where(path, (1, 1), ""), report), report


def errors(report: Report) -> list[tuple[int, str]]:
    return [(d.location.line, d.message) for d in report.errors]


def test_a_minimal_number_question_gets_documented_defaults(tmp_path):
    question, report = convert(tmp_path, BASE + "type: number\nanswer: 0.881\n")
    assert report.diagnostics == []
    assert isinstance(question, NumberQuestion)
    assert (question.difficulty, question.time, question.hint_penalty) == (2, 120, 0.25)
    assert question.tolerance == Tolerance(rtol=5e-3, atol=5e-4)
    assert question.answer.source == "0.881"
    assert question.prompt == Text(en="What is $p_1$?")
    assert not question.is_parametric


def test_yaml_1_1_surprises_do_not_reach_authors(tmp_path):
    text = BASE + "type: truefalse\nanswer: yes\ndifficulty: 03\ntags: [no, on, 010, 1:30]\ntime: 1e2\n"
    question, report = convert(tmp_path, text)
    # `yes` is true only in a boolean field; `03` is three; tags stay the text written.
    assert errors(report) == [(8, "time: expected a whole number, got '1e2'")]
    text = text.replace("time: 1e2", "time: 90")
    question, report = convert(tmp_path, text)
    assert isinstance(question, TrueFalseQuestion)
    assert question.answer is True and question.difficulty == 3 and question.time == 90
    assert question.tags == ("no", "on", "010", "1:30")


def test_sexagesimal_is_never_ninety(tmp_path):
    _, report = convert(tmp_path, BASE + "type: number\nanswer: 1\ntime: 1:30\n")
    assert errors(report) == [(6, "time: expected a whole number, got '1:30'")]


def test_scientific_notation_is_a_number_where_one_is_due(tmp_path):
    question, report = convert(tmp_path, BASE + "type: number\nanswer: 1\ntolerance: {rtol: 1e-3, atol: 2.5E-4}\n")
    assert report.diagnostics == []
    assert question.tolerance.rtol == 1e-3 and question.tolerance.atol == 2.5e-4


def test_unknown_field_suggests_the_close_name(tmp_path):
    _, report = convert(tmp_path, BASE + "type: number\nanswer: 1\nexplantion: oops\n")
    assert errors(report) == [(6, "unknown field 'explantion' in question (did you mean 'explanation'?)")]


def test_field_of_another_type_is_unknown_here(tmp_path):
    _, report = convert(tmp_path, BASE + "type: truefalse\nanswer: false\ntolerance: {atol: 1}\n")
    assert errors(report) == [(6, "unknown field 'tolerance' in question")]


def test_unknown_type_suggests_one(tmp_path):
    _, report = convert(tmp_path, BASE + "type: numbr\nanswer: 1\n")
    expected = "expected one of number, vector, matrix, choice, multi, order, truefalse, explain, code, evidence (did you mean 'number'?)"
    assert errors(report) == [(4, f"type: unknown type 'numbr'; {expected}")]


def test_missing_required_fields_are_all_reported(tmp_path):
    question, report = convert(tmp_path, "id: q1\ntype: explain\nrubric: [a]\n")
    assert question is INVALID
    messages = [m for _, m in errors(report)]
    assert messages == [
        "question: missing required field 'topic'",
        "question: missing required field 'prompt'",
        "question: missing required field 'model_answer'",
    ]


def test_wrong_types_name_field_and_value(tmp_path):
    _, report = convert(tmp_path, BASE + "type: number\nanswer: 1\ndifficulty: hard\nhints: a hint\n")
    assert errors(report) == [
        (6, "difficulty: expected a whole number, got 'hard'"),
        (7, "hints: expected a list, got 'a hint'"),
    ]


def test_texts_take_languages_and_need_english(tmp_path):
    question, report = convert(tmp_path, BASE.replace("prompt: What is $p_1$?", "prompt:\n  en: Hi\n  ja: こんにちは") + "type: number\nanswer: 1\n")
    assert report.diagnostics == [] and question.prompt.get("ja") == "こんにちは"
    assert question.prompt.get("fr") == "Hi"
    _, report = convert(tmp_path, BASE.replace("prompt: What is $p_1$?", "prompt:\n  ja: こんにちは\n  de: Hallo") + "type: number\nanswer: 1\n")
    assert [m for _, m in errors(report)] == [
        "prompt: unknown language 'de'; expected en or ja",
        "prompt: English text ('en') is required; other languages fall back to it",
    ]


def test_tolerance_atol_must_stay_above_zero(tmp_path):
    _, report = convert(tmp_path, BASE + "type: number\nanswer: 0\ntolerance:\n  atol: 0\n")
    assert errors(report) == [(7, "tolerance.atol must be above 0 (so an answer of 0 can be graded)")]


def test_decimals_and_sigfigs_only_widen_the_tolerance():
    assert Tolerance(decimals=2).effective_atol == 0.005
    assert Tolerance(decimals=6).effective_atol == 5e-4  # narrower than the default: ignored
    assert Tolerance(sigfigs=2).effective_rtol == pytest.approx(0.05)
    assert Tolerance(sigfigs=5).effective_rtol == 5e-3


def test_param_needs_exactly_one_kind(tmp_path):
    text = BASE + "type: number\nanswer: s\nparams:\n  s: {integer: [1, 3], choice: [1, 2]}\n  t: {}\n"
    _, report = convert(tmp_path, text)
    messages = [m for _, m in errors(report)]
    assert "params.s: give exactly one of integer, decimal, normal, choice, fault (found integer, choice)" in messages
    assert "params.t: give exactly one of integer, decimal, normal, choice, fault (found none)" in messages


def test_parametric_fields_keep_declaration_order(tmp_path):
    text = BASE + dedent("""\
        type: vector
        params:
          d_k: {choice: [4, 16, '64']}
          s: {normal: [2], decimals: 1}
        derived:
          z: s / sqrt(d_k)
          p: softmax(z)
        answer: p
        """)
    question, report = convert(tmp_path, text)
    assert report.diagnostics == []
    assert list(question.params) == ["d_k", "s"] and list(question.derived) == ["z", "p"]
    assert [c.value for c in question.params["d_k"].choice] == [4, 16, "64"]  # quoted stays text
    assert question.params["s"].kind == "normal" and question.is_parametric


def test_list_answers_become_list_expressions(tmp_path):
    question, _ = convert(tmp_path, BASE + "type: matrix\nanswer: [[1, 0.5], [0, 1]]\n")
    assert question.answer.source == "[[1, 0.5], [0, 1]]"


def test_choice_needs_exactly_one_correct_option_or_an_answer(tmp_path):
    options = "options:\n  - text: A\n    correct: true\n  - text: B\n    correct: true\n"
    _, report = convert(tmp_path, BASE + "type: choice\n" + options)
    assert [m for _, m in errors(report)] == ["mark exactly one option `correct: true` (found 2), or give an `answer` expression"]
    question, report = convert(tmp_path, BASE + "type: choice\nanswer: \"'b'\"\n" + options.replace("    correct: true\n", ""))
    assert report.diagnostics == [] and isinstance(question, ChoiceQuestion)
    assert option_ids(question.options) == ["a", "b"]


def test_every_problem_in_a_question_is_reported_at_once(tmp_path):
    _, report = convert(tmp_path, "id: Bad Id\ntype: order\ntopic: t\nprompt: p\nitems: [one]\ncolour: red\n")
    assert errors(report) == [
        (6, "unknown field 'colour' in question"),
        (5, "items must list between 2 and 12 entries, found 1"),
        (1, "id 'Bad Id' must be lower-case letters, digits, - or _ (it names the question in history)"),
    ]


def test_a_misspelt_field_is_reported_and_read_as_the_field_it_means(tmp_path):
    text = BASE + "type: number\nparms:\n  s: {integer: [1, 5]}\nanser: s\ndifficulty: 9\n"
    question, report = convert(tmp_path, text)
    assert errors(report) == [
        (5, "unknown field 'parms' in question (did you mean 'params'?)"),
        (7, "unknown field 'anser' in question (did you mean 'answer'?)"),
        (8, "difficulty must be between 1 and 3"),
    ]  # no "missing required field 'answer'", and `s` is a parameter: nothing in the typos' wake
    assert question.params["s"].kind == "integer" and question.answer.source == "s"
    assert located(question, "params").line == 5  # later checks point at the misspelt line


def test_a_bad_optional_field_leaves_the_rest_of_the_question_to_check(tmp_path):
    text = BASE + "type: number\nanswer: 1\nhints: {a: b}\nmisconceptions:\n  - name: m\n"
    question, report = convert(tmp_path, text)
    assert [line for line, _ in errors(report)] == [6, 8, 8]  # hints not a list; the mistake lacks answer and feedback
    assert question.hints == () and question.misconceptions == ()  # built, so claims and expressions get checked
    _, report = convert(tmp_path, BASE + "type: number\nanswer: s\nparams:\n  s: {integer: 3}\n")
    assert report.errors and _ is INVALID  # a broken parameter stops the question: its name is used elsewhere


def test_names_must_be_free(tmp_path):
    from quiz.bank import load_bank
    from quiz.format.checks import check_question
    from quiz.format.diagnostics import Report

    path = tmp_path / "names.yaml"
    path.write_text(
        "id: q\ntype: number\ntopic: softmax\nprompt: p\n"
        "params:\n  answer: {integer: [1, 2]}\n  softmax: {integer: [1, 2]}\n"
        "derived:\n  s: '1'\n  s2: s\n"
        "answer: s\n",
        encoding="utf-8",
    )
    bank = load_bank([path])
    report = Report()
    assert check_question(bank.questions["q"], bank.claims, report) is None
    messages = [d.message for d in report.errors]
    assert "q: params.answer: 'answer' is reserved for the answer key" in messages
    assert any(m.startswith("q: params.softmax: 'softmax' cannot be a name here") for m in messages)
