"""The constraint sample: what a question's constraints reject, measured over many draws.

Draw i of the sample is the first draw of seed i, as `make_variant` draws it, so the sample is
the same whatever `--seeds` says, and the draws the self-test's seeds made come with the values
they computed. A constraint that keeps fewer than half of the draws reaching it (those the
constraints before it keep), or that rejects every draw of one value of a parameter, is a
warning naming the parameter.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from quiz.authoring.fields import field_location
from quiz.expressions import ExpressionError
from quiz.expressions.budget import Budget, BudgetExceeded
from quiz.format.compile import CompiledQuestion
from quiz.format.diagnostics import Diagnostic, Severity
from quiz.types.draw import constraint_outcomes, draw_inputs, fault_names, outcomes_of
from quiz.variants.keys import generator_seed
from quiz.variants.variant import VariantError

FirstDraws = dict[int, tuple[dict[str, Any], dict[str, Any]]]
"""The first draw of each seed a self-test ran, by seed: its inputs and the values the constraints
judged it on (its parameters and `compiled.screening`, as `make_variant` gives `on_draw`)."""

SAMPLE_DRAWS: Final = 200
"""Draws (before constraints) sampled to measure what the constraints reject."""
CLEAR_MIN_JUDGED: Final = 30
CLEAR_MARGIN: Final = 4.0
"""A constraint that keeps more than half of the CLEAR_MIN_JUDGED or more draws it judged by this
many standard errors keeps a clear majority: one that keeps half or fewer of all draws shows so
less than once in 30,000 samples, so the sample need not go on to prove it."""
MIN_DRAWS_OF_A_VALUE: Final = 5
"""A parameter's value must be drawn this often in the sample before its rejection is judged."""
DISCRETE: Final = frozenset({"choice", "fault", "integer"})
"""Parameter kinds whose every value is judged on its own: one the constraints always reject is lost."""


def out_of_time(clock: Budget) -> bool:
    """Whether `clock` has run out, read as each evaluation step reads it (at most once an interval)."""
    try:
        clock.check_time()
    except BudgetExceeded:
        return True
    return False


@dataclass(frozen=True)
class Draw:
    """One draw of the sample: the parameters drawn and each constraint's outcome on them."""

    inputs: dict[str, Any]
    outcomes: list[bool | None]
    """Whether each constraint holds (None: it could not be evaluated for this draw)."""

    @property
    def kept(self) -> bool:
        """Whether every constraint holds: the draw would be a variant."""
        return all(self.outcomes)


def first_draw_of(seed: int, first_draws: FirstDraws) -> Callable[[dict[str, Any], dict[str, Any]], None]:
    """An `on_draw` for `make_variant` that keeps the seed's first draw, when the sample has one."""

    def keep(inputs: dict[str, Any], values: dict[str, Any]) -> None:
        if seed < SAMPLE_DRAWS and seed not in first_draws:
            first_draws[seed] = (inputs, values)

    return keep


def draw_sample(
    compiled: CompiledQuestion,
    clock: Budget,
    first_draws: FirstDraws | None = None,
    *,
    stop_when_clean: bool = True,
) -> list[Draw]:
    """SAMPLE_DRAWS draws of the parameters, before any constraint, with each constraint's
    outcome (none when the question has no constraints: nothing to measure, or when `clock`
    runs out first: a part of a sample would mislead).

    Draw i is the first draw of seed i, as `make_variant` draws it: so the sample is the same
    whatever `--seeds` says, and a seed the self-test ran gives its draw in `first_draws` (its
    inputs and computed values), whose outcomes cost only the constraints themselves.

    With `stop_when_clean`, outcomes stop being computed once no value of a discrete parameter
    can be lost and each constraint either keeps at least half of the draws reaching it even if
    all the draws left reached it and it rejected them (no warning can come of the rest), or
    keeps a clear majority of them (`clear_majority`: most samples stop after a few dozen
    draws, not the hundred the first rule needs). No value can be lost once every value a
    discrete parameter can take has been kept at least once, when those values are known
    before drawing; otherwise the parameters are all drawn first, so that the values drawn
    often enough to be judged are known, and each of those must have been kept. Each draw's
    outcomes are computed on `clock` as that draw, with the elements its parameters created
    already spent, as if they followed its drawing at once.
    """
    if not compiled.constraints:
        return []
    first_draws = first_draws or {}
    discrete = [p.name for p in compiled.params if p.spec.kind in DISCRETE]
    possible = possible_values(compiled) if stop_when_clean else None
    ahead: list[tuple[dict[str, Any], int]] = []  # every draw's inputs and the elements they created, when drawn first
    if possible is None:
        for seed in range(SAMPLE_DRAWS):
            drawn = _inputs_of(compiled, seed, first_draws, clock)
            if drawn is None:
                return []
            ahead.append(drawn)
        counts = Counter(key for inputs, _ in ahead for key in _value_keys(inputs, discrete))
        unkept = {key for key, count in counts.items() if count >= MIN_DRAWS_OF_A_VALUE}  # judged, not yet kept
    else:
        unkept = set(possible)  # each must be kept once: then none can be judged and never kept
    judged, kept = [0] * len(compiled.constraints), [0] * len(compiled.constraints)  # as `constraint_warnings` counts
    draws: list[Draw] = []
    for seed in range(SAMPLE_DRAWS):
        drawn = ahead[seed] if ahead else _inputs_of(compiled, seed, first_draws, clock)
        if drawn is None or out_of_time(clock):
            return []
        inputs, spent = drawn
        clock.new_draw()
        clock.spend(spent)  # never refused: the draw spent as much already
        if seed in first_draws:
            draw = Draw(inputs, outcomes_of(compiled, first_draws[seed][1], clock))
        else:
            draw = Draw(inputs, constraint_outcomes(compiled, inputs, clock))
        draws.append(draw)
        for index, outcome in enumerate(draw.outcomes):  # each constraint sees what the ones before it keep
            if outcome is not None:
                judged[index] += 1
                kept[index] += bool(outcome)
            if not outcome:
                break
        if draw.kept:
            unkept.difference_update(_value_keys(inputs, discrete))
        left = SAMPLE_DRAWS - len(draws)
        if stop_when_clean and not unkept and all(2 * k >= j + left or clear_majority(k, j) for k, j in zip(kept, judged)):
            break
    return draws


def _inputs_of(
    compiled: CompiledQuestion, seed: int, first_draws: FirstDraws, clock: Budget
) -> tuple[dict[str, Any], int] | None:
    """The first draw of `seed` and the elements it created (none when the seed's variant made
    it: they were spent there); None when `clock` runs out or a parameter cannot be drawn (the
    seeds report that)."""
    if seed in first_draws:
        return first_draws[seed][0], 0
    if out_of_time(clock):
        return None
    clock.new_draw()
    rng = np.random.default_rng(generator_seed(compiled.question.id, seed))  # as make_variant's
    try:
        return draw_inputs(compiled, rng, clock), clock.elements_spent
    except VariantError:
        return None


def _value_keys(inputs: dict[str, Any], discrete: list[str]) -> list[tuple[str, str]]:
    """Each discrete parameter's value in a draw, as `_rejected_values` keys them."""
    return [(name, json.dumps(inputs[name])) for name in discrete]


MAX_KNOWN_VALUES: Final = 64
"""Most values of an `integer` parameter the sample lists in advance (see `possible_values`)."""


def possible_values(compiled: CompiledQuestion) -> set[tuple[str, str]] | None:
    """Every value each discrete parameter can take, keyed as `_value_keys` keys them; None when
    some parameter's values are not known before drawing (bounds read other parameters) or are
    more than MAX_KNOWN_VALUES."""
    possible: set[tuple[str, str]] = set()
    for param in compiled.params:
        spec = param.spec
        if spec.kind == "choice":
            assert spec.choice is not None
            possible.update((param.name, json.dumps(c.value)) for c in spec.choice)
        elif spec.kind == "fault":
            possible.update((param.name, json.dumps(name)) for name in fault_names(spec))
        elif spec.kind == "integer":
            if any(bound.names for bound in param.bounds):
                return None
            try:
                low, high = (bound.evaluate({}) for bound in param.bounds)
            except ExpressionError:
                return None
            if not (isinstance(low, int) and isinstance(high, int)) or not 0 <= high - low < MAX_KNOWN_VALUES:
                return None
            possible.update((param.name, json.dumps(n)) for n in range(low, high + 1))
    return possible


def clear_majority(kept: int, judged: int) -> bool:
    """Whether `kept` of `judged` draws is more than half by CLEAR_MARGIN standard errors
    (a share's standard error at one half is 0.5/√judged)."""
    return judged >= CLEAR_MIN_JUDGED and 2 * kept - judged >= CLEAR_MARGIN * math.sqrt(judged)


def _params_behind(compiled: CompiledQuestion, names: frozenset[str]) -> list[str]:
    """The parameters an expression reading `names` depends on, through derived values, in order."""
    derived = dict(compiled.derived)
    seen: set[str] = set()
    stack = list(names)
    while stack:
        name = stack.pop()
        if name not in seen:
            seen.add(name)
            if name in derived:
                stack.extend(derived[name].names)
    return [p.name for p in compiled.params if p.name in seen]


def constraint_warnings(compiled: CompiledQuestion, sample: list[Draw]) -> list[Diagnostic]:
    """Warnings for constraints that keep fewer than half the draws reaching them, and for
    parameter values the constraints never let through.

    Constraints are read in order: each is judged on the draws the ones before it keep, so a
    constraint is charged only with what it rejects itself. (`key < 0.995` after `max(z) > c`
    is not blamed for the draws with small logits that the first one already turned away.)
    """
    question = compiled.question
    if not sample:
        return []
    warnings = []
    for index, constraint in enumerate(compiled.constraints):
        reaching = [d for d in sample if all(d.outcomes[:index])]
        judged = [d.outcomes[index] for d in reaching if d.outcomes[index] is not None]
        kept = sum(bool(o) for o in judged)
        if judged and kept * 2 < len(judged):
            params = ", ".join(_params_behind(compiled, constraint.names)) or "no parameter"
            of = "draws" if index == 0 else "draws the constraints before it keep"
            warnings.append(
                Diagnostic(
                    field_location(question, f"constraints[{index}]"),
                    Severity.WARNING,
                    f"{question.id}: constraints[{index}] `{constraint.source}` keeps only {kept} of the {len(judged)} {of} "
                    f"({kept / len(judged):.0%}); it depends on {params}: draw them from a range where it mostly holds, or relax it",
                ),
            )
    warnings.extend(_rejected_values(compiled, sample))
    return warnings


def _rejected_values(compiled: CompiledQuestion, sample: list[Draw]) -> Iterator[Diagnostic]:
    """A warning per parameter for the values the constraints reject every time they are drawn."""
    question = compiled.question
    for param in compiled.params:
        if param.spec.kind not in DISCRETE:
            continue  # a continuous draw has no value of its own to lose
        by_value: dict[str, list[Draw]] = defaultdict(list)
        for draw in sample:
            by_value[json.dumps(draw.inputs[param.name])].append(draw)
        lost = [value for value, draws in by_value.items() if len(draws) >= MIN_DRAWS_OF_A_VALUE and not any(d.kept for d in draws)]
        if not lost:
            continue
        culprits = Counter(
            i for value in lost for i in range(len(compiled.constraints)) if not any(d.outcomes[i] for d in by_value[value])
        )
        blamed = ", ".join(f"constraints[{i}] `{compiled.constraints[i].source}`" for i in sorted(culprits)) or "the constraints together"
        values = ", ".join(lost)
        yield Diagnostic(
            field_location(question, f"params.{param.name}"),
            Severity.WARNING,
            f"{question.id}: params.{param.name}: every draw with {param.name} = {values} is rejected by {blamed}, "
            f"so no variant uses {'it' if len(lost) == 1 else 'them'}; "
            f"drop {'that value' if len(lost) == 1 else 'those values'} or relax the constraint",
        )
