"""The task list: starters, the mistake models built from the engine, and what the package may import."""

from __future__ import annotations

import ast
import json
import subprocess
import sys

import numpy as np
import pytest

import engine
from places import ROOT
from quiz.code import TASKS, default_starter, get_task, run_checks, starter_problems
from quiz.code.kinds.heads import mha, split_interleaved, split_reshaped
from quiz.code.kinds.online import flawed_online
from quiz.code.sandbox import Call

HARNESS = ROOT / "quiz" / "code" / "harness.py"


@pytest.mark.parametrize("task_id", sorted(TASKS))
def test_the_default_starter_fits_its_task_and_runs_into_not_implemented(task_id):
    task = get_task(task_id)
    starter = default_starter(task)
    assert starter_problems(task, starter) == []
    outcome = run_checks(task, starter, seed=0, checks=[task.checks[0]])
    error = outcome.checks[0].evidence.error
    assert (error.kind, error.detail, error.text) == ("exception", "NotImplementedError", "raise NotImplementedError")


@pytest.mark.parametrize(
    "starter, problem",
    [
        ("def attention(q, k, v):\n    pass\n", "line 1: attention takes (q, k, v); the checks call it as (q, k, v, mask)"),
        ("def attend(q, k, v, mask=None):\n    pass\n", "the starter does not define def attention(q, k, v, mask=None)"),
        ("def attention(q, k, v, mask=None)\n    pass\n", "the starter does not parse: line 1: expected ':'"),
        ("x = " + "(" * 500 + ")" * 500, "the starter does not parse"),
        ("#" * 30_000, "the starter is longer than 20000 characters"),
    ],
)
def test_a_starter_that_cannot_serve_says_why(starter, problem):
    problems = starter_problems(get_task("attention"), starter)
    assert problems and problems[0].startswith(problem)


def test_the_multi_head_model_without_a_mistake_is_the_engines_self_attention():
    rng = np.random.default_rng(0)
    x, w_q, w_k, w_v, w_o = rng.standard_normal((2, 5, 12)), *(rng.standard_normal((12, 12)) for _ in range(4))
    for causal in (False, True):
        call = Call("multi_head_attention", (x, w_q, w_k, w_v, w_o, 3, causal))
        expected = engine.self_attention(x, w_q, w_k, w_v, w_o, 3, is_causal=causal)
        np.testing.assert_allclose(mha(call)[0], expected, rtol=1e-12, atol=1e-12)


def test_the_online_model_without_a_mistake_is_the_engines_blockwise_attention():
    rng = np.random.default_rng(1)
    q, k, v = rng.standard_normal((2, 4, 3)), rng.standard_normal((2, 7, 3)), rng.standard_normal((2, 7, 2))
    for block in (1, 2, 3, 8):
        call = Call("online_attention", (q, k, v, block))
        np.testing.assert_allclose(flawed_online(call)[0], engine.blockwise_attention(q, k, v, block), rtol=1e-12)
    # dropping the last block is the same as attending to the whole blocks only
    dropped = flawed_online(Call("online_attention", (q, k, v, 3)), drop_last=True)[0]
    np.testing.assert_allclose(dropped, engine.scaled_dot_product_attention(q, k[:, :6], v[:, :6]), rtol=1e-12)


def test_the_wrong_splits_keep_the_shape_but_not_the_features():
    x = np.arange(2 * 6, dtype=float).reshape(2, 6)  # T = 2 positions, 3 heads of 2 features
    right = engine.split_heads(x, 3)
    np.testing.assert_array_equal(right[1], [[2, 3], [8, 9]])
    np.testing.assert_array_equal(split_reshaped(x, 3)[1], [[4, 5], [6, 7]])  # positions mixed
    np.testing.assert_array_equal(split_interleaved(x, 3)[1], [[1, 4], [7, 10]])  # every third feature


def loaded_by(statement: str) -> set[str]:
    """The quiz, Textual and YAML modules a fresh interpreter has loaded after `statement`."""
    code = f"import json, sys\n{statement}\nprint(json.dumps(sorted(m for m in sys.modules if m.startswith(('quiz', 'textual', 'yaml')))))"
    return set(json.loads(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout))


def test_the_code_package_uses_nothing_of_the_quiz_but_its_texts():
    texts = loaded_by("import quiz.locale.i18n")  # the catalogues and what keeps them parsed
    assert "quiz.locale.i18n" in texts and not any(m.startswith(("quiz.format", "quiz.bank", "quiz.ui", "textual", "yaml")) for m in texts)
    assert {m for m in loaded_by("from quiz.code import *") if not m.startswith("quiz.code")} == texts


def test_the_harness_imports_only_the_standard_library_and_numpy():
    tree = ast.parse(HARNESS.read_text(encoding="utf-8"))
    imported = {alias.name.partition(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.partition(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert imported - set(sys.stdlib_module_names) == {"numpy"}
