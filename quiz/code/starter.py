"""Starters: the Python a candidate begins from, and the reference solution shown once they pass or give up.

A starter is checked by parsing only and never run here. The reference solutions ship with the quiz
as data, one file per task in quiz/code/solutions/ (never imported: the sandbox runs them in the tests).
"""

from __future__ import annotations

import ast
from pathlib import Path

from quiz.code.interfaces import Interface

MAX_STARTER_CHARS = 20_000
SOLUTIONS = Path(__file__).resolve().parent / "solutions"
"""One reference solution per task, `<task id>.py`; every one passes every check of its task (tests/corpus/test_code_solutions.py)."""


def reference_solution(task_id: str) -> str:
    """The reference solution of the task `task_id`, as the candidate is shown it."""
    return (SOLUTIONS / f"{task_id}.py").read_text(encoding="utf-8")


def default_starter(task: Interface) -> str:
    """A starter with numpy imported and each function's def line over a body that raises NotImplementedError."""
    functions = "\n\n\n".join(f"{f.signature}:\n    raise NotImplementedError" for f in task.functions)
    return f"import numpy as np\n\n\n{functions}\n"


def starter_problems(task: Interface, starter: str) -> list[str]:
    """What keeps `starter` from serving `task`: it must parse and define each function with its parameters.

    Parsing builds a syntax tree and runs nothing; over-long or over-nested text is refused.
    """
    if len(starter) > MAX_STARTER_CHARS:
        return [f"the starter is longer than {MAX_STARTER_CHARS} characters"]
    try:
        tree = ast.parse(starter, filename="starter")
    except SyntaxError as error:
        return [f"the starter does not parse: line {error.lineno}: {error.msg}"]
    except (ValueError, RecursionError, MemoryError) as error:
        return [f"the starter does not parse: {error}"]
    defined = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    problems = []
    for function in task.functions:
        node = defined.get(function.name)
        if node is None:
            problems.append(f"the starter does not define {function.signature}")
            continue
        wanted = [parameter.split("=")[0] for parameter in function.parameters]
        given = [argument.arg for argument in node.args.posonlyargs + node.args.args]
        if given != wanted:
            problems.append(
                f"line {node.lineno}: {function.name} takes ({', '.join(given)}); "
                f"the checks call it as ({', '.join(wanted)})"
            )
    return problems
