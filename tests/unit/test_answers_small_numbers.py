"""Option and item numbers (issue class 8): one checked conversion for every digit class, used by
every type's reader, and `quiz grade` reads every answer text, also one starting with '-'."""

import json

import pytest

from quiz.answer_text import read_small_int
from quiz.cli.main import main


@pytest.mark.parametrize(("text", "number"), [("1", 1), ("12", 12), ("３", 3), ("１２", 12), ("9", 9)])
def test_ascii_and_full_width_digits_are_read(text, number):
    assert read_small_int(text, 12) == number


@pytest.mark.parametrize(
    "text",
    ["", "0", "01", "０１", "13", "100", "-1", "+1", " 1", "1 ", "1.0", "᧚", "➋", "❹", "०1", "0₁", "₁", "¹", "٣", "๓", "Ⅲ", "一", "9" * 4_301],
)
def test_every_other_digit_class_and_form_is_refused(text):
    assert read_small_int(text, 12) is None


def test_length_is_checked_before_conversion():
    # int() would refuse 4,301 digits with a ValueError; the length check returns first.
    assert read_small_int("1" * 10_000, 10**6) is None
    assert read_small_int("1000000", 10**6) == 10**6


def grade(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["grade", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("attention-pipeline-order", "1 2 3 ᧚"),
        ("attention-pipeline-order", "1 2 3 ➋"),
        ("attention-pipeline-order", "❹"),
        ("explain-why-sqrt-dk", "9" * 4_301),
        ("explain-why-sqrt-dk", "1 ᧚"),
        ("diagnose-faulty-layer", "᧚"),
        ("two-key-scaled-weights", "9" * 5_000),
        ("attention-pipeline-order", "०1 2 3 4 5 6 7 8"),
        ("diagnose-faulty-layer", "01"),
        ("diagnose-faulty-layer", "0₁"),
        ("nan-attention-checks", ""),
        ("nan-attention-checks", "   "),
    ],
    ids=["order-tai-tham", "order-circled", "order-dingbat", "explain-4301-digits", "explain-tai-tham", "choice-tai-tham",
         "numeric-5000-digits", "order-devanagari", "choice-leading-zero", "choice-subscript", "multi-empty", "multi-spaces"],
)
def test_unreadable_answers_exit_3_with_a_message(capsys, key, answer):
    code, out, err = grade(capsys, key, "--answer", answer)
    assert code == 3 and out == ""
    assert err.startswith("quiz: cannot read the answer: ") and "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["--answer", "-1.2e-02"],
        ["--answer=-1.2e-02"],
        ["--answer", "-sqrt(2)/100"],
        ["--json", "--answer", "-1.2e-02"],
        ["--answer", "-1.2e-02", "--json"],
    ],
    ids=["separate", "equals", "expression", "json-first", "json-after"],
)
def test_an_answer_starting_with_a_minus_is_graded(capsys, argv):
    code, out, err = grade(capsys, "scaling-gradient-two-keys", *argv)
    assert code == 0, err
    if "--json" in argv:
        result = json.loads(out)
        assert result["verdict"] == "incorrect" and result["answer"] == pytest.approx(0.0525, abs=1e-4)
    else:
        assert out.startswith("Incorrect") and "Answer: 0.0525" in out


def test_show_keeps_its_answer_flag(capsys):
    assert main(["show", "scaling-gradient-two-keys", "--answer", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["answer"] == pytest.approx(0.0525, abs=1e-4)
