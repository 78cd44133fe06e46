"""Drawing a variant's parameters for a seed and computing its values, answer and misconceptions.

Everything one variant computes shares one budget (see `quiz.expressions.budget`): the
elements of a draw, its parameter values, and the CPU time of all draws, redraws and texts.
A draw the pack cannot make (a bound that is not a finite number, a grid too fine, a shape
too large) is a VariantError naming the field, never an exception from numpy.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final, TypeGuard

import numpy as np

from engine import Fault
from quiz.expressions import Expression, ExpressionError
from quiz.expressions.budget import Budget, BudgetExceeded
from quiz.format.compile import ANSWER_NAME, CompiledParam, CompiledQuestion
from quiz.format.model import MAX_DIVIDEND, Param
from quiz.types.base import read_trivial_clash
from quiz.types.draw_rules import divisors_between, index_skipping, multiples_between, weighted_index
from quiz.types.registry import type_of
from quiz.variants.keys import generator_seed
from quiz.variants.variant import Variant, VariantError, quoted

MAX_DRAWS: Final = 100
"""How many draws constraints may reject before the question is declared broken."""
MAX_BOUND: Final = 10**15
"""Largest magnitude of an `integer` or `decimal` bound: exact in a float, far past any question."""
MAX_GRID_POINTS: Final = 10**9
"""Most points on the grid of a `decimal` parameter."""
MAX_DIMENSION: Final = 64
"""Largest size of one dimension of a `normal` parameter."""


def make_variant(
    compiled: CompiledQuestion, seed: int = 0, budget: Budget | None = None, on_draw: Callable[[dict[str, Any], dict[str, Any]], None] | None = None
) -> Variant:
    """Draw the variant of `compiled` for `seed` (fixed questions ignore the seed).

    `on_draw` is given each draw's inputs and values (its parameters and the derived values the
    constraints read, `compiled.screening`) before the constraints judge it: self-tests reuse
    them. The other derived values are computed only for the draw the constraints keep, so one
    that cannot be computed for a draw they reject (`1 / n` where a constraint says `n != 0`)
    does not fail the seed: constraints can guard derived values.
    """
    question = compiled.question
    seed = seed if question.has_variants else 0
    budget = budget if budget is not None else Budget()
    rng = np.random.default_rng(generator_seed(question.id, seed))
    kind = type_of(question)
    redrawn: list[str] = []
    apart: set[str] = set()  # the clashing mistakes that, on some draw, gave a value other than the key's
    with _evaluating(budget):
        for _ in range(MAX_DRAWS):
            budget.new_draw()
            _check_time(compiled, budget, "params")
            inputs, drawn = _draw(compiled, rng, budget)
            # Only what the constraints read is computed before they judge the draw (all of it
            # on `budget`): a draw they reject costs no more than judging it. Accepted variants
            # are the same as computing everything first: only `draw_inputs` consumes `rng`.
            values = _evaluate_derived(compiled, drawn, budget, compiled.screening)
            if on_draw is not None:
                on_draw(inputs, values)
            if not all(_holds(compiled, i, values, budget) for i in range(len(compiled.constraints))):
                continue
            variant = _finish(compiled, seed, inputs, _complete(compiled, values, budget), budget)
            # A variant in which a named mistake grades as right would teach the mistake: drawn again.
            clashing = kind.clashes(variant)
            if not clashing:
                return replace(variant, redrawn=tuple(redrawn)) if redrawn else variant
            redrawn.append(clashing[0])
            if not _gives_the_key(variant, clashing[0]):
                apart.add(clashing[0])
    if redrawn:
        most = max(set(redrawn), key=redrawn.count)
        trivial = read_trivial_clash(most)
        if trivial is not None:
            what, fix = trivial
            message = f"a trivial answer ({what}) grades as right on {redrawn.count(most)} of {MAX_DRAWS} draws; {fix}"
            raise _error(compiled, message, "tolerance", mistaken=most)
        if redrawn.count(most) == MAX_DRAWS and most not in apart:
            raise _error(compiled, _key_is_a_mistake(compiled, most), "answer", mistaken=most)
        raise _error(
            compiled,
            f"misconception {most} grades as right on {redrawn.count(most)} of {MAX_DRAWS} draws; "
            "draw the parameters, or add a constraint, so that it stays outside the tolerance of the answer",
            f"misconceptions.{most}",
            mistaken=most,
        )
    raise _error(
        compiled,
        f"the constraints rejected {MAX_DRAWS} draws in a row; draw the parameters from where the constraints hold, or relax the constraints",
        "constraints",
    )


def _gives_the_key(variant: Variant, name: str) -> bool:
    """Whether misconception `name` gives the key itself on this draw (not merely a value within its tolerance)."""
    if name not in variant.misconceptions:
        return False  # a trivial answer, named apart
    value = np.asarray(variant.misconceptions[name], dtype=np.float64)
    key = np.asarray(variant.answer, dtype=np.float64)  # only numeric questions have clashes: both are numbers
    return value.shape == key.shape and bool(np.allclose(value, key, rtol=1e-9, atol=1e-12))


def _key_is_a_mistake(compiled: CompiledQuestion, name: str) -> str:
    """The message for a key that a named mistake gives on every draw: pointed at the answer, which
    is then most likely wrong (a key computing a mistake would teach it), or else the mistake is."""
    misconception = next((m for m in getattr(compiled.question, "misconceptions", ()) if m.name == name), None)
    label = f' ("{misconception.label.en}")' if misconception is not None and misconception.label is not None else ""
    return (
        f"the answer grades the same as misconception {name}{label} on all {MAX_DRAWS} draws: a key that computes a named mistake "
        f"would teach it; check the answer's expression first, then {name}'s"
    )


def constraint_outcomes(compiled: CompiledQuestion, inputs: dict[str, Any], budget: Budget | None = None) -> list[bool | None]:
    """Whether each constraint holds for these drawn inputs (None where it cannot be evaluated).

    Self-tests use it to measure how many draws the constraints reject, and which values;
    `budget` is the one `draw_inputs` drew these inputs on. Only the derived values the
    constraints read are computed, as `make_variant` does before they judge a draw: the rest
    cannot change an outcome.
    """
    budget = budget if budget is not None else Budget()
    with _evaluating(budget):
        try:
            values = _evaluate_derived(compiled, _as_values(inputs), budget, compiled.screening)
        except VariantError:
            return [None] * len(compiled.constraints)
        return outcomes_of(compiled, values, budget)


def outcomes_of(compiled: CompiledQuestion, values: Mapping[str, Any], budget: Budget) -> list[bool | None]:
    """Whether each constraint holds for a draw's `values` (its parameters and the derived values
    the constraints read, as `make_variant` gives `on_draw`); None where one cannot be evaluated."""
    outcomes: list[bool | None] = []
    with _evaluating(budget):
        for index in range(len(compiled.constraints)):
            try:
                outcomes.append(_holds(compiled, index, values, budget))
            except VariantError:
                outcomes.append(None)
    return outcomes


def rebuild_variant(compiled: CompiledQuestion, seed: int, inputs: Mapping[str, Any]) -> Variant:
    """The variant with these stored inputs, computed again without drawing (history uses it)."""
    missing = [p.name for p in compiled.params if p.name not in inputs]
    if missing:
        raise _error(compiled, f"stored inputs lack {', '.join(missing)}")
    stored = {p.name: inputs[p.name] for p in compiled.params}
    budget = Budget()
    with _evaluating(budget):
        return _finish(compiled, seed, stored, _evaluate_derived(compiled, _as_values(stored), budget), budget)


def _error(
    compiled: CompiledQuestion, message: str, field: str | None = None, cause: BaseException | None = None, mistaken: str | None = None
) -> VariantError:
    """A VariantError at the question, naming the field at fault (`answer`, `params.s`, ...), the
    budget that ran out when `cause` is one, and the misconception right on every draw if that is why."""
    question = compiled.question
    budget = cause.budget if isinstance(cause, BudgetExceeded) else None
    return VariantError(question.id, message, field, location=question.source, budget=budget, mistaken=mistaken)


@contextlib.contextmanager
def _evaluating(budget: Budget) -> Iterator[None]:
    """`budget` running and numpy's warnings silenced (its inf and nan pass through), once for
    every evaluation inside rather than once each: `_evaluate` relies on it."""
    with budget.running(), np.errstate(all="ignore"):
        yield


def _check_time(compiled: CompiledQuestion, budget: Budget, what: str) -> None:
    try:
        budget.check_time()
    except BudgetExceeded as exc:
        raise _error(compiled, f"{what}: {exc}", what, exc) from None


def _evaluate(compiled: CompiledQuestion, expression: Expression, values: Mapping[str, Any], what: str, budget: Budget) -> Any:
    try:
        return expression.evaluate_within(values, budget)  # inside `_evaluating(budget)`
    except ExpressionError as exc:  # its cause is the step's own error, a BudgetExceeded among them
        raise _error(compiled, f"{what}: {exc.message} in `{quoted(expression.source)}`", what, exc.__cause__) from None


def _holds(compiled: CompiledQuestion, index: int, values: Mapping[str, Any], budget: Budget) -> bool:
    constraint = compiled.constraints[index]
    what = f"constraints[{index}]"
    result = _evaluate(compiled, constraint, values, what, budget)
    try:
        return bool(result)
    except ValueError:  # an array's truth is ambiguous
        raise _error(compiled, f"{what} `{quoted(constraint.source)}` gives an array; use all(...) or any(...)", what) from None


def draw_inputs(compiled: CompiledQuestion, rng: np.random.Generator, budget: Budget | None = None) -> dict[str, Any]:
    """One draw of every parameter from `rng`, before any constraint is applied, on `budget`
    (a fresh one by default) as one draw."""
    return _draw(compiled, rng, budget if budget is not None else Budget())[0]


def _draw(compiled: CompiledQuestion, rng: np.random.Generator, budget: Budget) -> tuple[dict[str, Any], dict[str, Any]]:
    """One draw of every parameter on `budget`: its inputs, and the same values as the evaluator
    sees them (as `_as_values` gives them), which the bounds of later parameters read."""
    inputs: dict[str, Any] = {}
    values: dict[str, Any] = {}
    with _evaluating(budget):
        for param in compiled.params:
            inputs[param.name], values[param.name] = _draw_one(compiled, param, rng, values, budget)
    return inputs, values


def _draw_one(
    compiled: CompiledQuestion, param: CompiledParam, rng: np.random.Generator, values: dict[str, Any], budget: Budget
) -> tuple[Any, Any]:
    """One parameter's input and its value as the evaluator sees it (inside `_evaluating`)."""
    spec = param.spec
    kind = spec.kind
    what = f"params.{param.name}"
    bounds = [_evaluate(compiled, b, values, what, budget) for b in param.bounds]
    shape = tuple(_whole(compiled, b, what) for b in bounds) if kind == "normal" else ()
    if any(n < 1 or n > MAX_DIMENSION for n in shape):
        raise _error(compiled, f"{what}: each dimension must be between 1 and {MAX_DIMENSION}, got {shape}", what)
    _charge(compiled, budget, math.prod(shape), what)  # counted before anything is drawn
    # Without rules each kind draws exactly as before rules existed: stored variants stay the same.
    excluded = _excluded(compiled, param, values, budget)
    if kind in ("choice", "fault"):
        picked = _pick(compiled, param, rng, excluded)
        return picked, _as_value(picked)
    if kind == "integer":
        low, high = (_whole(compiled, b, what) for b in bounds)
        if low > high:
            raise _error(compiled, f"{what}: min {low} is above max {high}", what)
        if not spec.has_rules:
            whole = int(rng.integers(low, high + 1))
            return whole, whole
        whole = _ruled_integer(compiled, param, rng, low, high, excluded, values, budget)
        return whole, whole
    if kind == "decimal":
        start, stop = (float(_bound(compiled, b, what)) for b in bounds)
        if start > stop:
            raise _error(compiled, f"{what}: min {start} is above max {stop}", what)
        if (stop - start) / spec.step > MAX_GRID_POINTS:
            grid = f"steps of {spec.step:g} from {start:g} to {stop:g}"
            raise _error(compiled, f"{what}: {grid} make more than {MAX_GRID_POINTS:,} values; use a larger step", what)
        steps = math.floor((stop - start) / spec.step + 1e-9)
        places = max(0, -math.floor(math.log10(spec.step) + 1e-9)) if spec.step < 1 else 0
        # The grid points the excluded values fall on (none without the rule: the draw is as before).
        on_grid = [round((float(x) - start) / spec.step) for x in excluded if _is_number(x)]
        index = index_skipping(rng, steps + 1, [i for i in on_grid if round(start + i * spec.step, places) in excluded])
        if index is None:
            raise _error(compiled, f"{what}: every value from {start:g} to {stop:g} is among distinct_from's; widen the range", what)
        number = round(start + index * spec.step, places)
        return number, number
    drawn = _normal(compiled, param, rng, shape, budget)
    if shape == ():
        number = float(drawn)
        return number, number
    drawn.setflags(write=False)  # the float64 array `_as_value` would make of the list
    return drawn.tolist(), drawn


def _normal(compiled: CompiledQuestion, param: CompiledParam, rng: np.random.Generator, shape: tuple[int, ...], budget: Budget) -> np.ndarray:
    """Normal draws rounded to the parameter's decimals; with `distinct`, drawn again (each on
    `budget`) until no two are equal."""
    spec, what = param.spec, f"params.{param.name}"
    for attempt in range(MAX_DRAWS):
        if attempt:
            _charge(compiled, budget, math.prod(shape), what)
        # An overflow is reported below (`_evaluating` keeps numpy from warning about it).
        drawn = np.round(rng.normal(spec.mean, spec.std, size=shape), spec.decimals)
        if not np.isfinite(drawn).all():
            raise _error(compiled, f"{what}: mean {spec.mean:g} and std {spec.std:g} draw numbers too large to represent", what)
        if not spec.distinct or np.unique(drawn).size == drawn.size:
            return drawn + 0.0  # turn -0.0 into 0.0 so prompts never show "-0"
    raise _error(
        compiled,
        f"{what}: {drawn.size} numbers with {spec.decimals} decimals tied in each of {MAX_DRAWS} draws; give more decimals or a larger std",
        what,
    )


def _charge(compiled: CompiledQuestion, budget: Budget, elements: int, what: str) -> None:
    try:
        budget.draw(elements)
    except BudgetExceeded as exc:
        raise _error(compiled, f"{what}: {exc}", what, exc) from None


def _excluded(compiled: CompiledQuestion, param: CompiledParam, values: Mapping[str, Any], budget: Budget) -> list[Any]:
    """The values `distinct_from` names (each element of an array), as plain numbers or texts."""
    expression = param.rule("distinct_from")
    if expression is None:
        return []
    what = f"params.{param.name}.distinct_from"
    value = _evaluate(compiled, expression, values, what, budget)
    if isinstance(value, str):
        return [value]
    array = np.asarray(value)
    if array.dtype.kind not in "iuf":
        raise _error(compiled, f"{what}: expected a number, a text or a list of numbers, got {quoted(value)}", what)
    return [x + 0.0 if isinstance(x, float) else x for x in array.ravel().tolist()]


def _pick(compiled: CompiledQuestion, param: CompiledParam, rng: np.random.Generator, excluded: list[Any]) -> Any:
    """A `choice` value or a `fault` name, by weight and apart from the excluded values when the rules say so."""
    spec, what = param.spec, f"params.{param.name}"
    options = [c.value for c in spec.choice] if spec.choice is not None else fault_names(spec)
    if not spec.has_rules:
        return options[int(rng.integers(len(options)))]
    allowed = [not _among(option, excluded) for option in options]
    index = weighted_index(rng, spec.weights or [1.0] * len(options), allowed)
    if index is None:
        raise _error(compiled, f"{what}: every choice is among distinct_from's values; add choices", what)
    return options[index]


def _among(option: Any, excluded: list[Any]) -> bool:
    """Whether a choice equals one of the excluded values (a number never equals a text, nor True 1)."""
    if isinstance(option, str):
        return any(isinstance(x, str) and option == x for x in excluded)
    return _is_number(option) and any(_is_number(x) and option == x for x in excluded)


def _is_number(value: Any) -> TypeGuard[int | float]:
    """A Python int or float, never a bool (True is no bound, no choice and no value to differ from)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def _ruled_integer(
    compiled: CompiledQuestion,
    param: CompiledParam,
    rng: np.random.Generator,
    low: int,
    high: int,
    excluded: list[Any],
    values: Mapping[str, Any],
    budget: Budget,
) -> int:
    """A whole number in [low, high] that the parameter's rules allow: a multiple, a divisor, distinct."""
    what = f"params.{param.name}"
    step, dividend = 1, None
    if (expression := param.rule("multiple_of")) is not None:
        step = abs(_whole(compiled, _evaluate(compiled, expression, values, f"{what}.multiple_of", budget), f"{what}.multiple_of"))
        if step == 0:
            raise _error(compiled, f"{what}.multiple_of: 0 has no multiples but 0; use a whole number other than 0", f"{what}.multiple_of")
    if (expression := param.rule("divisor_of")) is not None:
        dividend = _whole(compiled, _evaluate(compiled, expression, values, f"{what}.divisor_of", budget), f"{what}.divisor_of")
        if not 0 < abs(dividend) <= MAX_DIVIDEND:
            message = f"{what}.divisor_of: the number must be a whole number other than 0 within ±{MAX_DIVIDEND:,}, got {dividend}"
            raise _error(compiled, message, f"{what}.divisor_of")
    avoided = {int(x) for x in excluded if _is_number(x) and float(x).is_integer()}
    if dividend is not None:
        candidates = [d for d in divisors_between(dividend, low, high) if d % step == 0 and d not in avoided]
        index = int(rng.integers(len(candidates))) if candidates else None
        chosen = candidates[index] if index is not None else None
    else:
        first, count = multiples_between(low, high, step)
        index = index_skipping(rng, count, [(x - first) // step for x in avoided if (x - first) % step == 0])
        chosen = first + index * step if index is not None else None
    if chosen is None:
        rules = [f"a multiple of {step}" if step > 1 else "", f"a divisor of {dividend}" if dividend is not None else ""]
        rules.append(f"different from {', '.join(str(x) for x in sorted(avoided))}" if avoided else "")
        said = " and ".join(r for r in rules if r)
        raise _error(compiled, f"{what}: no whole number from {low} to {high} is {said}; widen the range or relax the rule", what)
    return chosen


def fault_names(spec: Param) -> list[str]:
    """The faults a `fault` parameter picks from, `all` spelt out."""
    assert spec.fault is not None  # the kind names the one field given
    return [f.value for f in Fault] if "all" in spec.fault else list(spec.fault)


def _bound(compiled: CompiledQuestion, value: Any, what: str) -> int | float:
    """A bound or a dimension as a finite Python number, within ±MAX_BOUND."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, np.generic):
        value = value.item()
    if not _is_number(value):
        raise _error(compiled, f"{what}: a bound must be a number, got {quoted(value)}", what)
    if not abs(value) <= MAX_BOUND:  # also false for nan; never converts a huge int to a float
        raise _error(compiled, f"{what}: a bound must be a finite number within ±10^15, got {quoted(value)}", what)
    return value


def _whole(compiled: CompiledQuestion, value: Any, what: str) -> int:
    number = _bound(compiled, value, what)
    if not float(number).is_integer():
        raise _error(compiled, f"{what}: expected a whole number, got {quoted(value)}", what)
    return int(number)


def _as_values(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """Inputs as the evaluator sees them: lists become read-only float arrays."""
    return {name: _as_value(value) for name, value in inputs.items()}


def _as_value(value: Any) -> Any:
    """A drawn value as the evaluator sees it: a list becomes a read-only float array."""
    if isinstance(value, list):
        array = np.asarray(value, dtype=np.float64)
        array.setflags(write=False)
        return array
    return value


def _evaluate_derived(
    compiled: CompiledQuestion, values: dict[str, Any], budget: Budget, derived: Sequence[tuple[str, Expression]] | None = None
) -> dict[str, Any]:
    """`values` with `derived` (default: every derived value) added, computed on `budget`."""
    for name, expression in compiled.derived if derived is None else derived:
        values[name] = _evaluate(compiled, expression, values, f"derived.{name}", budget)
    return values


def _complete(compiled: CompiledQuestion, screened: dict[str, Any], budget: Budget) -> dict[str, Any]:
    """A draw's parameters and every derived value, in `compiled.derived` order, from `screened`
    (its parameters and screening values): the screening values are not computed again."""
    if len(compiled.screening) == len(compiled.derived):  # the screening values are all of them
        return screened
    done = {name for name, _ in compiled.screening}
    values = {param.name: screened[param.name] for param in compiled.params}
    for name, expression in compiled.derived:
        values[name] = screened[name] if name in done else _evaluate(compiled, expression, values, f"derived.{name}", budget)
    return values


def _finish(compiled: CompiledQuestion, seed: int, inputs: dict[str, Any], values: dict[str, Any], budget: Budget) -> Variant:
    kind = type_of(compiled.question)

    def evaluate(expression: Expression, what: str) -> Any:
        return _evaluate(compiled, expression, values, what, budget)

    answer, misconceptions = kind.key(compiled, evaluate)
    accepted = kind.accepted(compiled, evaluate)
    if answer is not None:
        values = {**values, ANSWER_NAME: answer}
    return Variant(compiled, seed, inputs, values, answer, misconceptions, accepted, budget)
