"""Drawing a variant's parameters for a seed and computing its values, answer and misconceptions."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Final

import numpy as np

from engine import Fault
from quiz.expressions import Expression, ExpressionError
from quiz.format.compile import ANSWER_NAME, CompiledParam, CompiledQuestion
from quiz.types.registry import type_of
from quiz.variants.keys import generator_seed
from quiz.variants.variant import Variant, VariantError

MAX_DRAWS: Final = 100
"""How many draws constraints may reject before the question is declared broken."""


def make_variant(compiled: CompiledQuestion, seed: int = 0) -> Variant:
    """Draw the variant of `compiled` for `seed` (fixed questions ignore the seed)."""
    question = compiled.question
    seed = seed if question.has_variants else 0
    rng = np.random.default_rng(generator_seed(question.id, seed))
    for _ in range(MAX_DRAWS):
        inputs = draw_inputs(compiled, rng)
        values = _evaluate_derived(compiled, _as_values(inputs))
        if all(_holds(compiled, i, values) for i in range(len(compiled.constraints))):
            return _finish(compiled, seed, inputs, values)
    message = f"the constraints rejected {MAX_DRAWS} draws in a row; draw the parameters from where the constraints hold, or relax the constraints"
    raise VariantError(question.id, message, "constraints")


def constraint_outcomes(compiled: CompiledQuestion, inputs: dict[str, Any]) -> list[bool | None]:
    """Whether each constraint holds for these drawn inputs (None where it cannot be evaluated).

    Self-tests use it to measure how many draws the constraints reject, and which values.
    """
    try:
        values = _evaluate_derived(compiled, _as_values(inputs))
    except VariantError:
        return [None] * len(compiled.constraints)
    outcomes: list[bool | None] = []
    for index in range(len(compiled.constraints)):
        try:
            outcomes.append(_holds(compiled, index, values))
        except VariantError:
            outcomes.append(None)
    return outcomes


def rebuild_variant(compiled: CompiledQuestion, seed: int, inputs: Mapping[str, Any]) -> Variant:
    """The variant with these stored inputs, computed again without drawing (history uses it)."""
    missing = [p.name for p in compiled.params if p.name not in inputs]
    if missing:
        raise VariantError(compiled.question.id, f"stored inputs lack {', '.join(missing)}")
    stored = {p.name: inputs[p.name] for p in compiled.params}
    return _finish(compiled, seed, stored, _evaluate_derived(compiled, _as_values(stored)))


def _evaluate(compiled: CompiledQuestion, expression: Expression, values: Mapping[str, Any], what: str) -> Any:
    try:
        return expression.evaluate(values)
    except ExpressionError as exc:
        raise VariantError(compiled.question.id, f"{what}: {exc.message} in `{expression.source}`", what) from None


def _holds(compiled: CompiledQuestion, index: int, values: Mapping[str, Any]) -> bool:
    constraint = compiled.constraints[index]
    what = f"constraints[{index}]"
    result = _evaluate(compiled, constraint, values, what)
    try:
        return bool(result)
    except ValueError:  # an array's truth is ambiguous
        raise VariantError(compiled.question.id, f"{what} `{constraint.source}` gives an array; use all(...) or any(...)", what) from None


def draw_inputs(compiled: CompiledQuestion, rng: np.random.Generator) -> dict[str, Any]:
    """One draw of every parameter from `rng`, before any constraint is applied."""
    inputs: dict[str, Any] = {}
    for param in compiled.params:
        inputs[param.name] = _draw_one(compiled, param, rng, _as_values(inputs))
    return inputs


def _draw_one(compiled: CompiledQuestion, param: CompiledParam, rng: np.random.Generator, values: dict[str, Any]) -> Any:
    spec = param.spec
    what = f"params.{param.name}"
    if spec.kind == "choice":
        assert spec.choice is not None  # the kind names the one field given
        return spec.choice[int(rng.integers(len(spec.choice)))].value
    if spec.kind == "fault":
        assert spec.fault is not None
        names = [f.value for f in Fault] if "all" in spec.fault else list(spec.fault)
        return names[int(rng.integers(len(names)))]
    bounds = [_evaluate(compiled, b, values, what) for b in param.bounds]
    if spec.kind == "integer":
        low, high = (_whole(compiled, b, what) for b in bounds)
        if low > high:
            raise VariantError(compiled.question.id, f"{what}: min {low} is above max {high}", what)
        return int(rng.integers(low, high + 1))
    if spec.kind == "decimal":
        start, stop = (float(b) for b in bounds)
        steps = math.floor((stop - start) / spec.step + 1e-9)
        if steps < 0:
            raise VariantError(compiled.question.id, f"{what}: min {start} is above max {stop}", what)
        places = max(0, -math.floor(math.log10(spec.step) + 1e-9)) if spec.step < 1 else 0
        return round(start + int(rng.integers(steps + 1)) * spec.step, places)
    shape = tuple(_whole(compiled, b, what) for b in bounds)
    if any(n < 1 or n > 64 for n in shape):
        raise VariantError(compiled.question.id, f"{what}: each dimension must be between 1 and 64, got {shape}", what)
    drawn = np.round(rng.normal(spec.mean, spec.std, size=shape), spec.decimals)
    drawn = drawn + 0.0  # turn -0.0 into 0.0 so prompts never show "-0"
    return float(drawn) if shape == () else drawn.tolist()


def _whole(compiled: CompiledQuestion, value: Any, what: str) -> int:
    if isinstance(value, bool) or not float(value).is_integer():
        raise VariantError(compiled.question.id, f"{what}: expected a whole number, got {value!r}", what)
    return int(value)


def _as_values(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """Inputs as the evaluator sees them: lists become read-only float arrays."""
    values: dict[str, Any] = {}
    for name, value in inputs.items():
        if isinstance(value, list):
            array = np.asarray(value, dtype=np.float64)
            array.setflags(write=False)
            value = array
        values[name] = value
    return values


def _evaluate_derived(compiled: CompiledQuestion, values: dict[str, Any]) -> dict[str, Any]:
    for name, expression in compiled.derived:
        values[name] = _evaluate(compiled, expression, values, f"derived.{name}")
    return values


def _finish(compiled: CompiledQuestion, seed: int, inputs: dict[str, Any], values: dict[str, Any]) -> Variant:
    answer, misconceptions = type_of(compiled.question).key(
        compiled, lambda expression, what: _evaluate(compiled, expression, values, what)
    )
    if answer is not None:
        values = {**values, ANSWER_NAME: answer}
    return Variant(compiled, seed, inputs, values, answer, misconceptions)
