"""An author-defined code task: the function, its drawn inputs, the reference and the wrong variants, all data.

A pack that asks for a function none of the built-in tasks offers (`task:`) defines it under
`define:`. The reference and each named wrong variant are expressions of the restricted language
(`quiz.expressions`), evaluated by our evaluator on the drawn inputs: nothing in a pack runs as
Python; only the candidate's solution runs, in the sandbox. Light on purpose (no numpy): loading a
pack checks a definition's sizes, shapes and checks with these alone.
"""

from __future__ import annotations

import keyword
from dataclasses import field
from typing import ClassVar, Final, Literal

from quiz.base.fieldwise import Fieldwise, record
from quiz.code.checks import CHECKS
from quiz.code.interfaces import Function, Interface
from quiz.format.diagnostics import Report
from quiz.format.marks import Marks, Where
from quiz.format.model import INTERNAL, Expr, Misconception, Scalar, doc, error_at
from quiz.format.yaml_data import YamlMap

MAX_SIZE: Final = 64
"""The largest value a size may take: inputs stay small enough to draw and check in milliseconds."""
MAX_INPUT_ELEMENTS: Final = 4_096
"""The most entries one drawn input may have, at the sizes' largest values."""
MAX_TOTAL_ELEMENTS: Final = 16_384
"""The most entries all drawn inputs of one call may have together."""
MAX_INPUTS: Final = 8
MAX_MISTAKES: Final = 12


@record(slots=True, kw_only=True)
class TaskInput(Fieldwise):
    """One parameter of the function: an array drawn afresh for each check, or a value computed from the sizes."""

    yaml_label: ClassVar[str] = "input"
    shape: tuple[Scalar, ...] | None = field(
        default=None, metadata=doc("The drawn array's shape: names from `sizes` or whole numbers, such as [B, H, T, d].", maxItems=6)
    )
    dtype: Literal["float", "bool"] = field(
        default="float",
        metadata=doc(
            "float: standard normal entries; bool: a mask, True where a query may attend, with an allowed and a forbidden key in every row."
        ),
    )
    value: Expr | None = field(
        default=None, metadata=doc("Instead of a shape: an expression over the sizes giving the argument, such as T or arange(T).")
    )
    marks: Marks | None = field(default=None, compare=False, metadata=INTERNAL)

    def check(self, where: Where, raw: YamlMap, report: Report) -> bool | None:
        if (self.shape is None) == (self.value is None):
            error_at(where, raw, "value" if self.value is not None else "", f"{where.field}: give exactly one of shape or value", report)
            return False
        if self.value is not None and "dtype" in raw:
            error_at(where, raw, "dtype", f"{where.field}: dtype applies to a drawn array (shape), not to a value", report)
        return None


@record(slots=True, kw_only=True)
class AuthoredTask(Fieldwise):
    """A code task written as data: the function to write, its inputs, the engine's reference and the named wrong variants."""

    yaml_label: ClassVar[str] = "task definition"
    function: str = field(metadata=doc("The name of the function the candidate writes, such as decode_step.", pattern=r"[a-z_][a-z0-9_]*"))
    sizes: dict[str, tuple[int, ...]] = field(
        default_factory=dict,
        metadata=doc(f"The sizes the shapes name, each drawn for every check from [min, max] (1 to {MAX_SIZE}), such as T: [4, 8].", referenced=True),
    )
    choose: dict[str, tuple[int, ...]] = field(
        default_factory=dict,
        metadata=doc(f"Sizes picked for every check from a list of values (1 to {MAX_SIZE}), such as d: [4, 6, 8] for an even feature size."),
    )
    inputs: dict[str, TaskInput] = field(
        metadata=doc("The function's parameters in order, each drawn (shape, dtype) or computed (value).", minProperties=1, maxProperties=MAX_INPUTS)
    )
    reference: Expr = field(metadata=doc("The right output: an expression over the inputs by name, with the engine's functions."))
    mistakes: tuple[Misconception, ...] = field(
        default=(),
        metadata=doc(
            "Named wrong variants: each an expression over the inputs giving a mistaken output, with its label and feedback; "
            "a solution whose outputs match one is told that mistake.",
            maxItems=MAX_MISTAKES,
        ),
    )
    causal: tuple[str, ...] = field(
        default=(),
        metadata=doc(
            "The inputs whose axis −2 runs over positions, for causal_leak: changing their entries after position t "
            "must leave the output's rows (axis −2) up to t unchanged."
        ),
    )
    scores: tuple[str, ...] | None = field(
        default=None,
        metadata=doc(
            "[query, key]: the inputs whose last axes meet in the attention scores, for large_scores "
            "(float32 inputs whose scores share a large offset).",
            minItems=2,
            maxItems=2,
            reason="[query, key]",
        ),
    )
    marks: Marks | None = field(default=None, compare=False, metadata=INTERNAL)


def _python_name(name: str) -> bool:
    """A name a def line or an expression can use: an identifier, no keyword, no leading underscore."""
    return name.isidentifier() and not keyword.iskeyword(name) and not name.startswith("_")


def applicable_checks(task: AuthoredTask) -> tuple[str, ...]:
    """The checks of the generic list that apply to the definition's signature, in the list's order.

    output always; shapes (every size drawn different, float32) when an input has two axes or more;
    boolean_mask when an input is a mask; causal_leak when `causal` names the position inputs;
    large_scores when `scores` names the query and the key.
    """
    arrays = [i for i in task.inputs.values() if i.shape is not None]
    applies = {
        "output": True,
        "shapes": any(len(i.shape or ()) >= 2 for i in arrays),
        "boolean_mask": any(i.dtype == "bool" for i in arrays),
        "causal_leak": bool(task.causal),
        "large_scores": task.scores is not None,
    }
    return tuple(check for check in CHECKS if applies.get(check, False))


def authored_interface(task_id: str, task: AuthoredTask) -> Interface:
    """The definition as an author and the loader see a task: its one function and the checks that apply."""
    return Interface(task_id, (Function(task.function, tuple(task.inputs)),), applicable_checks(task))


def definition_problems(task: AuthoredTask) -> list[tuple[str, tuple[str | int, ...], str]]:
    """What is wrong with a definition's sizes, shapes and named inputs, before anything is drawn:
    (field, where inside it, message) for each problem. Shapes are bounded at the sizes' largest values."""
    problems: list[tuple[str, tuple[str | int, ...], str]] = []
    if not _python_name(task.function):
        problems.append(("function", (), f"function: '{task.function}' is not a name a def line can give (letters, digits and _)"))
    for name, bounds in task.sizes.items():
        if not _python_name(name):
            problems.append(("sizes", (name,), f"size name '{name}' must be a Python name (letters, digits and _, no keyword)"))
        elif len(bounds) != 2 or not 1 <= bounds[0] <= bounds[1] <= MAX_SIZE:
            problems.append(("sizes", (name,), f"sizes.{name}: give [min, max] with 1 ≤ min ≤ max ≤ {MAX_SIZE}, not {list(bounds)}"))
    for name, values in task.choose.items():
        if not _python_name(name):
            problems.append(("choose", (name,), f"size name '{name}' must be a Python name (letters, digits and _, no keyword)"))
        elif name in task.sizes:
            problems.append(("choose", (name,), f"size '{name}' is in sizes already"))
        elif not values or not all(1 <= v <= MAX_SIZE for v in values):
            problems.append(("choose", (name,), f"choose.{name}: give values from 1 to {MAX_SIZE}, not {list(values)}"))
    largest_of = {**{name: max(b) for name, b in task.sizes.items() if b}, **{name: max(v) for name, v in task.choose.items() if v}}
    for name in task.inputs:
        if not _python_name(name):
            problems.append(("inputs", (name,), f"input name '{name}' must be a Python name (letters, digits and _, no keyword)"))
        elif name in largest_of:
            problems.append(("inputs", (name,), f"input '{name}' has the name of a size; give it a name of its own"))
    total = 0
    for name, spec in task.inputs.items():
        if spec.shape is None:
            continue
        largest = 1
        for axis in spec.shape:
            value = axis.value
            if isinstance(value, int):
                if not 1 <= value <= MAX_SIZE:
                    problems.append(("inputs", (name,), f"inputs.{name}.shape: an axis of {value} is outside 1 … {MAX_SIZE}"))
                largest *= max(value, 1)
            elif isinstance(value, str) and value in largest_of:
                largest *= max(largest_of[value], 1)
            else:
                known = ", ".join(largest_of) or "none"
                problems.append(("inputs", (name,), f"inputs.{name}.shape: '{value}' is not a size (sizes: {known}) or a whole number"))
        if spec.dtype == "bool" and len(spec.shape) < 2:
            problems.append(("inputs", (name,), f"inputs.{name}: a mask needs two axes or more (queries, keys)"))
        if largest > MAX_INPUT_ELEMENTS:
            problems.append(("inputs", (name,), f"inputs.{name}: {largest:,} entries at the largest sizes; the limit is {MAX_INPUT_ELEMENTS:,}"))
        total += largest
    if total > MAX_TOTAL_ELEMENTS:
        problems.append(("inputs", (), f"the inputs hold {total:,} entries at the largest sizes; the limit is {MAX_TOTAL_ELEMENTS:,}"))
    drawn = [name for name, spec in task.inputs.items() if spec.shape is not None and spec.dtype == "float"]
    for field_name, named in (("causal", task.causal), ("scores", task.scores or ())):
        for index, name in enumerate(named):
            if name not in drawn:
                problems.append((field_name, (index,), f"{field_name}: '{name}' is not a drawn float input (those: {', '.join(drawn) or 'none'})"))
            elif len(task.inputs[name].shape or ()) < 2:
                problems.append((field_name, (index,), f"{field_name}: '{name}' needs two axes or more (positions, features)"))
    for index, mistake in enumerate(task.mistakes):
        if mistake.credit:
            problems.append(
                ("mistakes", (index,), f"mistakes.{mistake.name}: credit does not apply; a code answer scores the share of checks passed")
            )
    names = [m.name for m in task.mistakes]
    for name in sorted({n for n in names if names.count(n) > 1}):
        problems.append(("mistakes", (), f"mistake names must be unique: {name}"))
    return problems
