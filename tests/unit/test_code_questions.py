"""Code questions through the whole stack: the bundled YAML questions, `quiz show --starter` and
`quiz grade ID --file`, with the real solutions in tests/code_solutions/ run in the real sandbox."""

from __future__ import annotations

import json
import os
import zlib

import pytest

from quiz.authoring.selftest import self_test
from quiz.bank import load_bank
from quiz.cli.main import main
from quiz.code import get_task
from quiz.format.checks import check_question
from quiz.format.diagnostics import Report
from quiz.history.store import open_history
from quiz.types.code import CodeAnswer, NotRunnable, run_answer
from quiz.types.draw import make_variant
from quiz.types.registry import type_of
from solution_files import WRONG, solution_path

BANK = load_bank()
CODE = {q.id: q for q in BANK.questions.values() if q.type == "code"}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def seed_for(question_id: str, name: str) -> int:
    """A different seed per question and solution, the same on every run."""
    return zlib.crc32(f"{question_id}/{name}".encode()) % 1000


def revealed(question) -> set[str]:
    """The mistakes the question's checks are drawn to show, under its policy."""
    task = get_task(question.task)
    policy = {**task.default_policy(), **question.policy}
    checks = question.checks or task.checks
    shown = {m for check in checks for m in task.reveals.get(check, ())}
    return {m.id for m in task.mistakes if m.id in shown and m.applies(policy)}


def solutions() -> list[tuple[str, str]]:
    return [(qid, path.stem) for qid, q in CODE.items() for path in sorted((WRONG / q.task).glob("*.py"))] + [
        (qid, "reference") for qid in CODE
    ]


def test_the_bank_has_a_code_question_for_every_task_in_both_languages():
    assert len(CODE) >= 8
    assert {q.task for q in CODE.values()} == {path.name for path in WRONG.iterdir() if path.is_dir()}
    for question in CODE.values():
        # Writing code is implementation, but a task on positions or cached decoding sits with the topic it teaches.
        assert question.topic in ("implementation", "testing", "positions", "decoding")
        assert question.prompt.ja and question.explanation.ja and question.refs
        assert 300 <= question.time <= 1800  # minutes, as an interview gives for writing code
        assert all(f in BANK.questions for f in question.follow_up_ids)


@pytest.mark.parametrize("question_id", sorted(CODE))
def test_every_seed_validate_draws_grades_the_engine_as_correct(question_id):
    compiled = check_question(BANK.questions[question_id], BANK.claims, Report())
    assert self_test(compiled, 20) == []


@pytest.mark.parametrize("question_id, name", solutions())
def test_a_solution_graded_through_the_command_line_scores_as_it_should(capsys, question_id, name):
    question = CODE[question_id]
    key = f"{question_id}#{seed_for(question_id, name)}"
    path = solution_path(question.task, name)
    code, out, err = run(capsys, "grade", key, "--file", str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["key"] == key and data["code"]["seed"] == int(key.split("#")[1])
    if name == "reference":
        assert (data["score"], data["verdict"], data["misconception"]) == (1.0, "correct", None)
    elif name in revealed(question):
        assert data["misconception"] == name and data["score"] < 1.0
        assert data["details"]["failed"]
    else:  # a mistake the question does not test: implement-sdpa asks for boolean masks only
        assert (question_id, name) == ("implement-sdpa", "mask_before_scale")
        assert (data["score"], data["misconception"]) == (1.0, None)


def test_the_text_report_is_the_checklist_then_the_mistake_named_in_the_learners_language(capsys):
    path = WRONG / "causal_mask" / "causal_mask_transposed.py"
    code, out, _ = run(capsys, "grade", "implement-causal-mask#3", "--file", str(path))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Incorrect · Score 0.00"
    assert lines[1].startswith("✗ Output matches the engine on drawn inputs")
    assert "That is the answer for a known mistake: transposed the causal mask." in lines
    assert "Your mask is transposed: it allows the keys at or after each query instead of at or before it." in lines
    assert "Your answer matches a known mistake" not in out  # named once, by the feedback
    code, out, _ = run(capsys, "grade", "implement-causal-mask#3", "--file", str(path), "--lang", "ja")
    assert "よくある誤りと同じ答えです：因果マスクを転置した" in out and "2 項目中 0 項目に合格" in out


def test_a_file_that_cannot_be_run_exits_3_with_its_line_and_records_nothing(capsys, tmp_path):
    broken = tmp_path / "solution.py"
    broken.write_text("import numpy as np\n\ndef softmax(x, axis=-1):\n    return np.exp(x) /\n", encoding="utf-8")
    code, out, err = run(capsys, "grade", "implement-stable-softmax", "--file", str(broken))
    assert (code, out) == (3, "")
    assert err.startswith(f"quiz: {broken}: Your file could not be run")
    assert "Line 4, column" in err and "return np.exp(x) /" in err
    code, out, _ = run(capsys, "grade", "implement-stable-softmax", "--file", str(broken), "--json")
    data = json.loads(out)
    assert code == 3 and data["invalid"] and "Line 4" in data["message"]


def test_an_unknown_id_exits_1_before_the_file_is_run(capsys, tmp_path):
    path = solution_path("softmax", "reference")
    code, out, err = run(capsys, "grade", "implement-stable-softmx#2", "--file", str(path))
    assert (code, out) == (1, "") and "implement-stable-softmx" in err and "implement-stable-softmax" in err


def test_record_keeps_the_graded_file_in_history_and_a_file_that_cannot_run_records_nothing(capsys, tmp_path):
    wrong = WRONG / "softmax" / "unstable_softmax.py"
    args = ("--file", str(wrong), "--record", "--mode", "mock", "--seconds", "400", "--json")
    code, out, err = run(capsys, "grade", "implement-stable-softmax#4", *args)
    assert code == 0, err
    data = json.loads(out)
    assert data["misconception"] == "unstable_softmax" and data["not_saved"] is None
    broken = tmp_path / "solution.py"
    broken.write_text("def softmax(x, axis=-1):\n    return (\n", encoding="utf-8")
    assert run(capsys, "grade", "implement-stable-softmax#4", "--file", str(broken), "--record")[0] == 3
    history = open_history()
    try:
        [attempt] = history.attempts()
    finally:
        history.close()
    assert attempt.id == data["attempt_id"] and attempt.key == "implement-stable-softmax#4"
    assert (attempt.mode, attempt.misconception, attempt.score) == ("mock", "unstable_softmax", data["score"])
    assert attempt.response == wrong.read_text(encoding="utf-8")  # the file as it was graded
    assert attempt.duration_ms == 400_000


def test_an_import_that_fails_is_located_in_the_candidates_file(capsys, tmp_path):
    failing = tmp_path / "solution.py"
    failing.write_text("import numpy as np\nimport torch\n\ndef softmax(x, axis=-1):\n    return x\n", encoding="utf-8")
    code, _, err = run(capsys, "grade", "implement-stable-softmax", "--file", str(failing), "--lang", "ja")
    assert code == 3
    assert "ファイルを実行できなかったため" in err and "2 行目" in err and "import torch" in err


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "cannot read it: No such file or directory"),
        (b"\xff\xfe not text", "not UTF-8 text (byte 0)"),
        (b"#" * (1 << 20) + b"\n", "cannot read it: it is 1,048,577 bytes; the limit is 1,048,576"),
        ("fifo", "cannot read it: it is not a regular file (a folder, device, FIFO or socket)"),
        ("zero", "cannot read it: it is not a regular file (a folder, device, FIFO or socket)"),
    ],
    ids=["missing", "not-utf8", "too-large", "fifo", "dev-zero"],
)
def test_an_answer_file_that_cannot_be_read_exits_3(capsys, tmp_path, content, message):
    path = tmp_path / "solution.py"
    if content == "fifo":
        os.mkfifo(path)  # opening it to read would wait for a writer forever
    elif content == "zero":
        path.symlink_to("/dev/zero")  # reading it would never end
    elif content is not None:
        path.write_bytes(content)
    code, _, err = run(capsys, "grade", "implement-stable-softmax", "--file", str(path))
    assert code == 3 and err == f"quiz: {path}: {message}\n"


def test_the_starter_unchanged_or_an_empty_file_is_not_graded(capsys, tmp_path):
    starter = tmp_path / "solution.py"
    code, out, _ = run(capsys, "show", "implement-sdpa", "--starter")
    assert code == 0
    starter.write_text(out, encoding="utf-8")
    code, _, err = run(capsys, "grade", "implement-sdpa", "--file", str(starter))
    assert code == 3 and "This is the starter as given: write your function first." in err
    starter.write_text("\n\n", encoding="utf-8")
    code, _, err = run(capsys, "grade", "implement-sdpa", "--file", str(starter))
    assert code == 3 and "There is no code to run yet." in err


def test_show_starter_prints_a_file_that_defines_the_functions_and_nothing_else(capsys, tmp_path):
    code, out, _ = run(capsys, "show", "implement-split-merge-heads", "--starter")
    assert code == 0
    assert out == (
        "import numpy as np\n\n\n"
        "def split_heads(x, n_heads):\n    raise NotImplementedError\n\n\n"
        "def merge_heads(x):\n    raise NotImplementedError\n"
    )
    code, out, _ = run(capsys, "show", "implement-sdpa", "--starter")
    assert code == 0 and out == CODE["implement-sdpa"].starter
    code, _, err = run(capsys, "show", "softmax-jacobian-entry", "--starter")
    assert code == 1 and "only code questions have a starter" in err
    assert run(capsys, "show", "no-such-question", "--starter")[0] == 1


def test_show_lists_the_function_and_the_checks_and_json_carries_the_starter(capsys):
    code, out, _ = run(capsys, "show", "implement-sdpa#4")
    assert code == 0
    assert "Write def attention(q, k, v, mask=None) in Python with numpy." in out
    assert "- No causal leak: changing the tokens after position t leaves the outputs up to t unchanged" in out
    assert "Float masks" not in out  # the question leaves additive masks out
    code, out, _ = run(capsys, "show", "implement-sdpa#4", "--json", "--answer", "--lang", "ja")
    data = json.loads(out)
    assert data["key"] == "implement-sdpa#4" and data["task"] == "attention"
    assert data["policy"] == {"empty_rows": "zero"} and data["starter"] == CODE["implement-sdpa"].starter
    assert [c["id"] for c in data["checks"]] == list(CODE["implement-sdpa"].checks)
    assert data["checks"][3]["label"] == "参照できるキーが一つもない行はゼロになる"
    assert data["answer"]["functions"] == ["def attention(q, k, v, mask=None)"]


def test_the_seed_in_the_key_draws_the_inputs_and_grading_refuses_another_variants_run():
    compiled = check_question(CODE["implement-gqa"], BANK.claims, Report())
    first, second = make_variant(compiled, 1), make_variant(compiled, 2)
    assert (first.key, second.key) == ("implement-gqa#1", "implement-gqa#2")
    source = (WRONG / "gqa_attention" / "missing_scale.py").read_text(encoding="utf-8")
    ones, twos = run_answer(first, source), run_answer(second, source)
    assert isinstance(ones, CodeAnswer) and isinstance(twos, CodeAnswer)
    assert ones.outcome.checks[0].evidence.max_error != twos.outcome.checks[0].evidence.max_error
    kind = type_of(first.question)
    assert kind.grade(first, ones).misconception == "missing_scale"
    with pytest.raises(ValueError, match="seed 2, not for implement-gqa#1"):
        kind.grade(first, twos)
    assert kind.read(first, kind.response_text(first, ones)).source == source == kind.response_json(ones)


def test_a_file_that_cannot_run_is_invalid_and_says_where_in_both_languages():
    variant = make_variant(check_question(CODE["implement-stable-softmax"], BANK.claims, Report()), 0)
    invalid = run_answer(variant, "import numpy as np\nprint('loading')\nraise ValueError('no')\n")
    assert isinstance(invalid, NotRunnable)
    english = invalid.message("en").splitlines()
    assert english[1:] == ["Line 3: ValueError: no", "    raise ValueError('no')", "Your code printed:", "loading"]
    assert invalid.message("ja").splitlines()[1] == "3 行目：ValueError: no"


PACK_HEADER = """\
id: broken
type: code
topic: implementation
refs: [E2]
prompt: {en: Write it., ja: 書いてください。}
explanation: {en: Like so., ja: こうです。}
"""


@pytest.mark.parametrize(
    "body, line, message",
    [
        ("task: atention\n", 7, "task: expected one of attention, softmax"),
        ("task: attention\nchecks: [output, gradients]\n", 8, "checks: check 'gradients' does not apply here; it takes: output, shapes"),
        ("task: attention\nchecks: [outputs]\n", 8, "checks[0]: expected one of output, shapes"),
        ("task: attention\nchecks: []\n", 8, "checks: name at least one check, or leave checks out to run them all"),
        ("task: attention\nchecks: [output, output]\n", 8, "checks: a check is named twice"),
        ("task: attention\npolicy: {empty_rows: uniform}\n", 8, "policy: policy empty_rows must be one of zero, nan, not 'uniform'"),
        ("task: causal_mask\npolicy: {empty_rows: zero}\n", 8, "policy: unknown policy 'empty_rows'; policies here: none"),
        ("task: softmax\nstarter: |\n  def softmax(x):\n      pass\n", 8, "starter: line 1: softmax takes (x); the checks call it as (x, axis)"),
        ("task: softmax\nstarter: |\n  def softmax(x, axis=-1):\n      return (\n", 8, "starter: the starter does not parse: line 2"),
        ("task: softmax\nstarter: 'import os'\n", 8, "starter: the starter does not define def softmax(x, axis=-1)"),
        ('task: softmax\nstarter: "def softmax(x, axis=-1):\\n    return x  # \\e[2J"\n', 8, "starter: line 2 holds the control character U+001B"),
        ('task: softmax\nstarter: "def softmax(x, axis=-1):\\n    return x  # \\u202e"\n', 8, "starter: line 2 holds the control character U+202E"),
        ("task: softmax\nstarter: '" + "#" * 20_001 + "'\n", 8, "starter: a text of 20,001 characters; the limit is 20,000"),
    ],
    ids=["unknown-task", "check-not-for-task", "unknown-check", "no-checks", "check-twice", "bad-policy", "policy-not-for-task",
         "starter-signature", "starter-syntax", "starter-no-function", "starter-escape", "starter-bidi", "starter-too-long"],
)
def test_a_broken_code_question_is_reported_at_its_line(capsys, tmp_path, body, line, message):
    path = tmp_path / "pack.yaml"
    path.write_text(PACK_HEADER + body, encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 1
    errors = [entry for entry in out.splitlines() if ": error: " in entry]
    assert len(errors) == 1, out
    assert errors[0].startswith(f"{path}:{line}:") and message in errors[0], errors[0]


def test_one_broken_code_question_does_not_stop_the_rest_of_its_pack(capsys, tmp_path):
    path = tmp_path / "pack.yaml"
    good = PACK_HEADER.replace("id: broken", "id: fine") + "task: causal_mask\n"
    bad = PACK_HEADER + "task: nonsense\n"
    path.write_text("- " + good.replace("\n", "\n  ").rstrip() + "\n- " + bad.replace("\n", "\n  ").rstrip() + "\n", encoding="utf-8")
    code, out, _ = run(capsys, "show", "fine", "--starter", "--bank", str(path))
    assert code == 0 and out.startswith("import numpy as np\n")
