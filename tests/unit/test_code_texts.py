"""Every check, mistake and error a learner can meet has its text in English and Japanese; the
checklist and JSON say what happened, where, and nothing of our own code."""

from __future__ import annotations

import json

import pytest

from quiz.code import (
    CHECKS,
    TASKS,
    check_label,
    check_problems,
    describe_error,
    mistake_label,
    mistake_sentence,
    outcome_to_json,
    render_checklist,
    run_checks,
)
from quiz.code.sandbox import RunError
from quiz.locale.i18n import LANGUAGES, catalogue

KINDS = ("syntax", "exception", "exit", "os_exit", "cpu_limit", "wall_limit", "memory", "recursion", "stdin",
         "refused", "forbidden_import", "missing_function", "not_callable", "too_long", "crash", "ended", "unreadable", "not_started",
         "stopped")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_check_mistake_and_error_kind_has_a_text(lang):
    texts = catalogue(lang)
    keys = [f"code.check_{c}" for c in CHECKS]
    keys += [f"code.mistake_{m.id}" for task in TASKS.values() for m in task.mistakes]
    keys += [f"code.run_{k}" for k in KINDS] + [f"code.run_bad_return_{d}" for d in ("array", "tuple", "numeric", "size")]
    assert [key for key in keys if key not in texts] == []


def test_every_task_check_is_a_known_check():
    for task in TASKS.values():
        assert set(task.checks) <= set(CHECKS)
        assert set(task.reveals) <= set(task.checks)


def test_the_fully_masked_rows_label_states_the_policy():
    assert check_label("fully_masked_rows", "en", {"empty_rows": "nan"}) == "A row with no allowed key gives NaN"
    assert check_label("fully_masked_rows", "ja") == "参照できるキーが一つもない行はゼロになる"
    assert mistake_sentence("missing_scale") == "Your function computes attention without the 1/√dₖ scale."


@pytest.mark.parametrize(
    "checks, policy, problem",
    [
        (["output", "gradient"], None, "unknown check 'gradient'"),
        (["gradients"], None, "check 'gradients' does not apply here"),
        ([], None, "name at least one check"),
        (["output", "output"], None, "named twice"),
        (None, {"empty_rows": "raise"}, "policy empty_rows must be one of zero, nan"),
        (None, {"causal": "yes"}, "unknown policy 'causal'"),
    ],
)
def test_a_bad_choice_of_checks_or_policy_is_a_problem_saying_which(checks, policy, problem):
    task = TASKS["attention"]
    problems = check_problems(task.checks, task.policies, checks, policy)
    assert any(problem in text for text in problems), problems
    with pytest.raises(ValueError, match="code task attention"):
        run_checks("attention", "", seed=0, checks=checks, policy=policy)


def test_an_unknown_task_is_an_error_listing_the_tasks():
    with pytest.raises(ValueError, match="unknown code task 'sdpa'; tasks: attention, softmax"):
        run_checks("sdpa", "", seed=0)


@pytest.mark.parametrize(
    "error, english, japanese",
    [
        (RunError("syntax", "SyntaxError: expected ':'", line=3, column=9, text="def f(x)"),
         "Line 3, column 9: Python cannot read this: SyntaxError: expected ':'\n    def f(x)",
         "3 行目 9 文字目：Python として読めません：SyntaxError: expected ':'\n    def f(x)"),
        (RunError("cpu_limit", "CpuLimit", line=7, function="attention", text="while True:", limit="5"),
         "Line 7, in attention: Still running after 5 s of CPU time: an endless loop?\n    while True:",
         "7 行目（attention 内）：CPU 時間 5 秒を使い切っても終わりません。無限ループではありませんか\n    while True:"),
        (RunError("refused", "os.fork", line=2, function="<module>"),
         "Line 2: os.fork is not allowed here: your code may not start processes, send signals or change its limits",
         "2 行目：os.fork はここでは使えません。プロセスの起動、シグナルの送信、制限の変更はできません"),
        (RunError("missing_function", "attention"), "Your file defines no function attention", "ファイルに関数 attention が定義されていません"),
        (RunError("bad_return", "tuple", got="ndarray", count=3),
         "attention_backward returned a value of type ndarray; it should return a tuple of 3 numpy arrays",
         "attention_backward が返した値の型は ndarray でした。numpy 配列 3 個のタプルを返してください"),
    ],
)
def test_errors_read_in_both_languages_with_their_place(error, english, japanese):
    assert describe_error(error, "en", "attention_backward") == english
    assert describe_error(error, "ja", "attention_backward") == japanese


def test_the_checklist_of_a_wrong_answer_names_its_mistake_and_evidence():
    source = "import numpy as np\n\ndef causal_mask(L, S):\n    print('building', L, S)\n    return np.triu(np.ones((L, S), dtype=bool), k=1)\n"
    outcome = run_checks("causal_mask", source, seed=1)
    text = render_checklist(outcome, "en")
    assert text.startswith("✗ Output matches the engine on drawn inputs\n    25 of 25 entries differ from the engine's")
    assert "Your answer matches a known mistake: Your mask is True where attending is forbidden; True means allowed." in text
    assert "0 of 2 checks passed" in text and "Your code printed:\nbuilding" in text
    japanese = render_checklist(outcome, "ja")
    assert "解答はよくある誤りと一致します：マスクが、参照できない位置で True になっています。" in japanese
    assert "2 項目中 0 項目に合格" in japanese
    unnamed = render_checklist(outcome, "en", name_mistake=False)
    assert "known mistake" not in unnamed and "matches the mistake named below" in unnamed


def test_every_mistake_has_a_short_label_in_both_languages():
    for lang in LANGUAGES:
        labels = {m.id: mistake_label(m.id, lang) for task in TASKS.values() for m in task.mistakes}
        assert all(not label.startswith("code.") and len(label) < 60 for label in labels.values()), lang
    assert mistake_label("missing_scale", "ja") == "1/√dₖ のスケーリングを忘れた"


def test_the_checklist_of_a_file_that_does_not_run_says_so_once_at_its_line():
    outcome = run_checks("softmax", "import numpy as np\nnp.exp(\n", seed=0)
    assert not outcome.runnable and outcome.score == 0.0
    text = render_checklist(outcome, "en")
    assert text.count("Line 2") == 1 and "Your file could not be run, so no check passed." in text
    assert all(line.startswith("✗") for line in text.splitlines()[: len(outcome.checks)])


def test_the_json_is_plain_data_with_ids_numbers_and_texts():
    source = "import numpy as np\n\ndef softmax(x, axis=-1):\n    e = np.exp(x)\n    return e / e.sum(axis=axis, keepdims=True)\n"
    outcome = run_checks("softmax", source, seed=2)
    data = json.loads(json.dumps(outcome_to_json(outcome, "ja"), allow_nan=False))
    assert data["misconception"] == "unstable_softmax" and data["error"] is None
    assert data["misconception_text"] == mistake_sentence("unstable_softmax", "ja")
    by_id = {check["id"]: check for check in data["checks"]}
    assert list(by_id) == list(TASKS["softmax"].checks)
    assert by_id["large_scores"]["passed"] is False and by_id["large_scores"]["evidence"]["nonfinite"] is True
    assert by_id["output"]["evidence"]["tolerance"] == {"atol": 1e-8, "rtol": 1e-6}
    assert data["score"] == pytest.approx(4 / 6)


def test_a_wrong_shape_names_the_function_and_both_shapes():
    source = "def attention(q, k, v, mask=None):\n    return q[..., :1]\n"
    outcome = run_checks("attention", source, seed=6, checks=["output"])
    evidence = outcome.checks[0].evidence
    expected = str(evidence.mismatch.expected)
    assert evidence.mismatch.kind == "shape" and evidence.mismatch.got.endswith(", 1)")
    assert render_checklist(outcome).splitlines()[1] == f"    attention returned shape {evidence.mismatch.got}; expected {expected}"


def test_a_leak_names_the_first_position_that_changed():
    source = (
        "import numpy as np\n\n"
        "def attention(q, k, v, mask=None):\n"
        "    s = q @ k.T / np.sqrt(q.shape[-1])\n"
        "    w = np.exp(s - s.max(-1, keepdims=True))\n"
        "    return w / w.sum(-1, keepdims=True) @ v\n"
    )
    outcome = run_checks("attention", source, seed=9, checks=["causal_leak"])
    evidence = outcome.checks[0].evidence
    assert evidence.leak_position == 0 and evidence.changed_after >= 1
    assert f"changing the tokens after position {evidence.changed_after} changed the output at position 0" in render_checklist(outcome)
    assert outcome.misconception == "no_causal_mask"


def test_rows_that_do_not_sum_to_one_say_by_how_much():
    source = "import numpy as np\n\ndef softmax(x, axis=-1):\n    return np.exp(x) / np.exp(x).sum(axis=-1, keepdims=True)\n"
    outcome = run_checks("softmax", source, seed=3, checks=["rows_sum_to_one"])
    [check] = outcome.checks
    assert not check.passed and check.evidence.row_sum_error > 0.01
    assert render_checklist(outcome, "ja").splitlines()[1].startswith("    |行の和 − 1| の最大値は ")
