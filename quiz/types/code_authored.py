"""A pack's own code task (`define:` in a code question) made into a task the checks run, like a built-in one.

The inputs are drawn from each check's generator; the reference and every named wrong variant are
expressions evaluated by the restricted evaluator on them (with its preflight bounds and budget),
never Python from the pack. What each generic check draws:

- output: the sizes drawn from their ranges, float64 inputs, full masks;
- shapes: every size drawn different from the others where the ranges allow, float32 inputs, so a
  swapped or mixed-up axis shows;
- boolean_mask: the masks with their leading axes of length one, broadcast over batch and heads;
- causal_leak: two calls whose `causal` inputs differ only after a position t, masks allowing every
  key: rows up to t must agree;
- large_scores: float32 inputs whose scores (the last features of `scores`' query and key) share an
  offset of 1000, past exp's overflow in any precision unless the row's largest is subtracted first (E6).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from quiz.code.compare import Output
from quiz.code.inputs import allowed_mask, normal
from quiz.code.probes import NoLeak, ProbeSpec
from quiz.code.sandbox import Arguments, Call
from quiz.code.spec import AnyTask, Mistake, Policy, Task
from quiz.expressions import Expression, ExpressionError, compile_expression
from quiz.expressions.budget import Budget
from quiz.models.authored import MAX_INPUT_ELEMENTS, AuthoredTask, authored_interface

LARGE_OFFSET = 1000.0  # exp(1000) overflows float64 (its largest is about exp(709.8)), whatever precision a solution computes in
DISTINCT_ATTEMPTS = 50  # redraws of the sizes for the shapes check before accepting repeats
CHECK_SECONDS = 2.0
"""CPU time the reference's and the variants' evaluations of one check may take in all, redraws
included: a few milliseconds for a function an interview asks for, so only a hostile definition meets it."""


class DefinitionError(ValueError):
    """A definition that cannot be evaluated on its drawn inputs: `field` says where (reference, a mistake's name, an input)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def _compiled(source: str, names: list[str], field: str) -> Expression:
    try:
        return compile_expression(source, names)
    except ExpressionError as error:
        raise DefinitionError(field, f"{error.message} in `{source}`") from None


def _output(value: object, field: str) -> Output:
    """An expression's value as the one array a call returns, float where it computed numbers."""
    if isinstance(value, tuple):
        raise DefinitionError(field, f"gives {len(value)} values; a task of your own returns one array")
    if not isinstance(value, (np.ndarray, np.generic, int, float, list)):
        raise DefinitionError(field, f"gives {type(value).__name__}, not an array (an attention run's output is `.output`)")
    array = np.asarray(value)
    if array.dtype.kind not in "biuf":
        raise DefinitionError(field, f"gives an array of {array.dtype}, not numbers or booleans")
    return (array if array.dtype.kind in "bf" else array.astype(np.float64),)


class _Drawer:
    """Draws one check's inputs for a definition, and holds the budget that check's evaluations share."""

    def __init__(self, definition: AuthoredTask) -> None:
        self.definition = definition
        self.rng: np.random.Generator | None = None
        self.budget = Budget(seconds=CHECK_SECONDS)
        self.names = list(definition.inputs)
        self.values = {
            name: _compiled(spec.value.source, [*definition.sizes, *definition.choose], f"inputs.{name}.value")
            for name, spec in definition.inputs.items()
            if spec.value is not None
        }

    def sizes(self, rng: np.random.Generator, distinct: bool) -> dict[str, int]:
        ranges = self.definition.sizes
        drawn: dict[str, int] = {}
        for _ in range(DISTINCT_ATTEMPTS if distinct else 1):
            drawn = {name: int(rng.integers(low, high + 1)) for name, (low, high) in ranges.items()}
            drawn |= {name: int(rng.choice(values)) for name, values in self.definition.choose.items()}
            if len(set(drawn.values())) == len(drawn):
                break
        return drawn

    def shape(self, name: str, sizes: Mapping[str, int]) -> tuple[int, ...]:
        shape = self.definition.inputs[name].shape or ()
        return tuple(axis.value if isinstance(axis.value, int) else sizes[str(axis.value)] for axis in shape)

    def arguments(self, rng: np.random.Generator, sizes: Mapping[str, int], dtype: type[np.floating[Any]], check: str) -> list[Any]:
        args: list[Any] = []
        for name, spec in self.definition.inputs.items():
            if spec.value is not None:
                args.append(self.value(name, sizes))
                continue
            shape = self.shape(name, sizes)
            if math.prod(shape) > MAX_INPUT_ELEMENTS:  # loading refuses such shapes: this guards a definition built in code
                raise DefinitionError(f"inputs.{name}", f"{math.prod(shape):,} entries; the limit is {MAX_INPUT_ELEMENTS:,}")
            if spec.dtype == "bool" and (check == "causal_leak" or shape[-1] < 2):
                args.append(np.ones(shape, dtype=bool))  # every key allowed: a mask could hide the later keys a leak reads
            elif spec.dtype == "bool":
                leading = (1,) * (len(shape) - 2) if check == "boolean_mask" else shape[:-2]
                args.append(allowed_mask(rng, *leading, *shape[-2:]))
            else:
                args.append(normal(rng, *shape).astype(dtype))
        return args

    def value(self, name: str, sizes: Mapping[str, int]) -> Any:
        try:
            value = self.evaluate(self.values[name], sizes)
        except ExpressionError as error:
            raise DefinitionError(f"inputs.{name}.value", error.message) from None
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
        if isinstance(value, (int, np.integer)):
            return int(value)
        if isinstance(value, (float, np.floating)):
            return float(value)
        if isinstance(value, np.ndarray) and value.size <= MAX_INPUT_ELEMENTS:
            return value
        raise DefinitionError(
            f"inputs.{name}.value", f"gives {type(value).__name__}; a value input is a number or an array of at most {MAX_INPUT_ELEMENTS:,} entries"
        )

    def evaluate(self, expression: Expression, namespace: Mapping[str, object]) -> object:
        """`expression`'s value, its CPU time charged to the check's budget (its elements counted afresh)."""
        self.budget.new_draw()
        return expression.evaluate(namespace, self.budget)

    def draw(self, check: str, rng: np.random.Generator) -> list[ProbeSpec[Arguments]]:
        if rng is not self.rng:  # a check's redraws share its generator: a new one starts the next check
            self.rng, self.budget = rng, Budget(seconds=CHECK_SECONDS)
        function = self.definition.function
        sizes = self.sizes(rng, distinct=check == "shapes")
        dtype = np.float32 if check in ("shapes", "large_scores") else np.float64
        args = self.arguments(rng, sizes, dtype, check)
        if check == "large_scores":
            self.offset(args)
        if check != "causal_leak":
            return [ProbeSpec((Call(function, tuple(args)),))]
        first = [self.names.index(name) for name in self.definition.causal]
        length = min(args[i].shape[-2] for i in first)
        after = int(rng.integers(0, max(length - 1, 1)))
        changed = list(args)
        for i in first:
            fresh = normal(rng, *args[i].shape).astype(args[i].dtype)
            fresh[..., : after + 1, :] = args[i][..., : after + 1, :]
            changed[i] = fresh
        return [ProbeSpec((Call(function, tuple(args)), Call(function, tuple(changed))), NoLeak(after))]

    def offset(self, args: list[Any]) -> None:
        """Set the last feature of the query and the key to c, so every score gains c² / √E = LARGE_OFFSET (C2, E6)."""
        assert self.definition.scores is not None  # large_scores applies only with scores
        query, key = (self.names.index(name) for name in self.definition.scores)
        features = args[query].shape[-1]
        c = math.sqrt(LARGE_OFFSET * math.sqrt(features))
        for i in (query, key):
            args[i] = args[i].copy()
            args[i][..., -1] = c


def authored_task(task_id: str, definition: AuthoredTask) -> AnyTask:
    """The definition as a task the checks, the fault matcher and the self-tests take like a built-in one.

    Every mistake is one the output and shapes checks are meant to reveal; a question whose checks
    leave both out is then told that its checks accept it. A DefinitionError when an expression
    does not compile (loading has reported it first, at its line). The task keeps the budget of the
    check it draws: give each run or self-test a task of its own.
    """
    drawer = _Drawer(definition)
    names = drawer.names

    def evaluating(expression: Expression, field: str) -> Callable[[Call[Arguments], Policy], Output]:
        def run(call: Call[Arguments], policy: Policy) -> Output:
            try:
                value = drawer.evaluate(expression, dict(zip(names, call.args)))
            except ExpressionError as error:
                raise DefinitionError(field, error.message) from None
            return _output(value, field)

        return run

    reference = evaluating(_compiled(definition.reference.source, names, "reference"), "reference")
    mistakes = tuple(
        Mistake(m.name, evaluating(_compiled(m.answer.source, names, f"mistakes.{m.name}"), f"mistakes.{m.name}")) for m in definition.mistakes
    )
    ids = tuple(m.id for m in mistakes)
    interface = authored_interface(task_id, definition)
    reveals = {check: ids for check in interface.checks if check in ("output", "shapes")}
    return Task(interface, reference=reference, draw=drawer.draw, mistakes=mistakes, reveals=reveals)
