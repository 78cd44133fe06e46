"""Self-testing questions: every answer key must grade as correct for many seeds.

For each seed of a question with variants (a fixed question once): the variant can be made;
every text renders in every language with no placeholder left; the type's own checks pass
(numeric types: the key is finite and grades as correct both as computed and as shown, rounded
to four significant figures; the key moved by 1.1× the allowed error does not; each
misconception is finite, of the key's shape, and beyond the tolerance of the key and of every
other misconception). A problem met on several seeds is reported once, at the field at fault,
with its first seed, that seed's values and how many seeds showed it.

Two checks look at the question as a whole, whatever `--seeds` says:

- variety: the first `VARIETY_SEEDS` seeds of a parametric question must give at least
  `MIN_VARIANTS` different draws, or learners meet the same numbers again and again;
- constraints: over up to `SAMPLE_DRAWS` draws, a constraint that keeps fewer than half of the draws
  reaching it (those the constraints before it keep), or that rejects every draw of one value of
  a parameter, is a warning naming the parameter.

A wrong answer key is the worst bug this product can have.

Self-tests run a pack's expressions many times, so their CPU time is bounded too: a question's
seeds, variety and sample together get `QUESTION_SECONDS`, and the questions of one file
`FILE_SECONDS` (see `validation.py`; each variant keeps its own budget as well), both at the
default seeds and proportionally more for more (`time_scale`), so
`quiz validate` ends soon whatever a pack holds.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import numpy as np

from quiz.expressions import ExpressionError
from quiz.expressions.budget import Budget, BudgetExceeded
from quiz.format.compile import CompiledQuestion
from quiz.format.diagnostics import Diagnostic, Location, Severity
from quiz.format.marks import located
from quiz.format.model import Misconception, QuestionBase
from quiz.i18n import LANGUAGES
from quiz.types.base import Problem
from quiz.types.registry import type_of
from quiz.variants.draw import constraint_outcomes, draw_inputs, fault_names, make_variant, outcomes_of
from quiz.variants.keys import generator_seed
from quiz.variants.variant import Variant, VariantError

DEFAULT_SEEDS: Final = 20
VARIETY_SEEDS: Final = 100
"""The seeds the variety rule looks at: always the first 100, so the verdict never depends on --seeds."""
MIN_VARIANTS: Final = 10
"""Different draws a parametric question must give among its first VARIETY_SEEDS seeds."""
SAMPLE_DRAWS: Final = 200
"""Draws (before constraints) sampled to measure what the constraints reject."""
CLEAR_MIN_JUDGED: Final = 30
CLEAR_MARGIN: Final = 4.0
"""A constraint that keeps more than half of the CLEAR_MIN_JUDGED or more draws it judged by this
many standard errors keeps a clear majority: one that keeps half or fewer of all draws shows so
less than once in 30,000 samples, so the sample need not go on to prove it."""
MIN_DRAWS_OF_A_VALUE: Final = 5
"""A parameter's value must be drawn this often in the sample before its rejection is judged."""
QUESTION_SECONDS: Final = 2.0
"""CPU time one question's self-test may take at DEFAULT_SEEDS (a bundled one takes at most 0.7 s)."""


_DISCRETE: Final = frozenset({"choice", "fault", "integer"})
"""Parameter kinds whose every value is judged on its own: one the constraints always reject is lost."""


def time_scale(seeds: int) -> float:
    """How many times the CPU time at DEFAULT_SEEDS a self-test of `seeds` seeds may take."""
    return max(1.0, seeds / DEFAULT_SEEDS)


def self_test(compiled: CompiledQuestion, seeds: int = DEFAULT_SEEDS) -> list[Diagnostic]:
    """Problems found with `compiled` over `seeds` seeds (one for a fixed question), then its
    variety and its constraints; each problem once, located at the field at fault."""
    question = compiled.question
    tried = range(seeds) if question.has_variants else range(1)
    found = _Found(question, len(tried))
    drawn: set[str] = set()
    rejected = 0  # seeds whose every draw the constraints rejected
    first_draws: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}  # the sample's draws the seeds make
    seconds = QUESTION_SECONDS * time_scale(seeds)
    # Checked once a seed or a draw, and before each step of the sample's evaluations, which
    # run on it: the CPU clock is read only every CHECK_INTERVAL, as a variant's is.
    clock = Budget(seconds=seconds)
    with clock.running():
        for seed in tried:
            if _out_of_time(clock):
                return [*found.diagnostics(), _stopped(question, seed, len(tried), seconds)]
            try:
                variant = make_variant(compiled, seed, on_draw=_first_draw_of(seed, first_draws))
            except VariantError as exc:
                found.add(seed, Problem(field_location(question, exc.field), "no variant can be made", exc.message))
                if exc.budget is not None:  # other seeds would spend as much: one is proof enough
                    return [*found.diagnostics(), _over_budget(question, seed)]
                rejected += seed < VARIETY_SEEDS and exc.field == "constraints"
                continue
            if seed < VARIETY_SEEDS:
                drawn.add(_draw_key(variant))
            for problem in _check_variant(variant):
                found.add(seed, problem)
            if variant.budget.out_of_time():  # its texts used up the variant's time
                return [*found.diagnostics(), _over_budget(question, seed)]
        diagnostics = found.diagnostics()
        if compiled.params and seeds > 0:  # drawn parameters must vary (a code question's seeds draw only check inputs)
            sample = _sample(compiled, clock, first_draws)
            diagnostics.extend(_constraint_warnings(compiled, sample))
            variety = _variety(compiled, drawn, rejected, len(tried), sample, clock, first_draws)
            if variety is not None:
                diagnostics.append(variety)
    return diagnostics


def _out_of_time(clock: Budget) -> bool:
    try:
        clock.check_time()
    except BudgetExceeded:
        return True
    return False


def _stopped(question: QuestionBase, seed: int, seeds: int, seconds: float) -> Diagnostic:
    return Diagnostic(
        question.source or Location(Path("<question>")),
        Severity.ERROR,
        f"{question.id}: self-test: stopped after {seed} of {seeds} seeds: they took more than "
        f"{seconds:g} s of CPU time; a variant must be quick to draw",
    )


def _over_budget(question: QuestionBase, seed: int) -> Diagnostic:
    return Diagnostic(
        question.source or Location(Path("<question>")),
        Severity.ERROR,
        f"{question.id}: self-test: stopped after seed {seed}: a variant must stay well within its budgets",
    )


def field_location(question: QuestionBase, name: str | None) -> Location:
    """Where a field named as messages name it (`answer`, `derived.w`, `params.s`,
    `constraints[0]`, `misconceptions.no_scaling`) stands; the question's start otherwise."""
    start = question.source or Location(Path("<question>"))
    if not name:
        return start
    head, _, rest = name.partition(".")
    if head.startswith("constraints["):
        return located(question, "constraints", int(head[len("constraints[") : -1])) or start
    if head == "misconceptions":
        misconceptions: tuple[Misconception, ...] = getattr(question, "misconceptions", ())
        for misconception in misconceptions:
            if misconception.name == rest and misconception.marks is not None:
                return misconception.marks.start
    return located(question, head, rest or None) or start


@dataclass
class _Found:
    """Problems by where and what, each with the seeds it was met on (the first seed's values kept)."""

    question: QuestionBase
    seeds: int
    problems: dict[tuple[Location | None, str, str], list[tuple[int, str]]] = field(default_factory=dict)

    def add(self, seed: int, problem: Problem) -> None:
        self.problems.setdefault((problem.location, problem.what, problem.advice), []).append((seed, problem.values))

    def diagnostics(self) -> list[Diagnostic]:
        out = []
        for (location, what, advice), met in self.problems.items():
            first_seed, values = met[0]
            if self.question.has_variants:
                count = f"; {len(met)} of {self.seeds} seeds" if self.seeds > 1 else ""
                detail = f" (seed {first_seed}" + (f": {values}" if values else "") + f"{count})"
            else:
                detail = f" ({values})" if values else ""
            message = f"{self.question.id}: self-test: {what}{detail}" + (f"; {advice}" if advice else "")
            out.append(Diagnostic(location or self.question.source or Location(Path("<question>")), Severity.ERROR, message))
        return out


def _draw_key(variant: Variant) -> str:
    return json.dumps(variant.inputs, sort_keys=True)


def _check_variant(variant: Variant) -> Iterator[Problem]:
    yield from _check_texts(variant)
    yield from type_of(variant.question).self_test(variant)


def _check_texts(variant: Variant) -> list[Problem]:
    problems = []
    with variant.budget.running():  # one run for all texts: each fill's run is nested, so cheap
        for label, text in variant.compiled.texts:
            for lang in LANGUAGES:
                try:
                    rendered = variant.fill(text, lang)
                except VariantError as exc:
                    problems.append(Problem(text.location, f"{label} ({lang}) cannot be filled in", exc.message))
                    continue
                # Only an opening `{{` marks a placeholder: `}}` is ordinary LaTeX (`\frac{1}{\sqrt{d_k}}`).
                if "{{" in rendered:
                    problems.append(Problem(text.location, f"{label} ({lang}) leaves a placeholder unresolved", repr(rendered[:80])))
    return problems


@dataclass(frozen=True)
class _Draw:
    inputs: dict[str, Any]
    outcomes: list[bool | None]
    """Whether each constraint holds (None: it could not be evaluated for this draw)."""

    @property
    def kept(self) -> bool:
        return all(self.outcomes)


def _first_draw_of(seed: int, first_draws: dict[int, tuple[dict[str, Any], dict[str, Any]]]) -> Callable[[dict[str, Any], dict[str, Any]], None]:
    """An `on_draw` for `make_variant` that keeps the seed's first draw, when the sample has one."""

    def keep(inputs: dict[str, Any], values: dict[str, Any]) -> None:
        if seed < SAMPLE_DRAWS and seed not in first_draws:
            first_draws[seed] = (inputs, values)

    return keep


def _sample(
    compiled: CompiledQuestion,
    clock: Budget,
    first_draws: dict[int, tuple[dict[str, Any], dict[str, Any]]] | None = None,
    *,
    stop_when_clean: bool = True,
) -> list[_Draw]:
    """SAMPLE_DRAWS draws of the parameters, before any constraint, with each constraint's
    outcome (none when the question has no constraints: nothing to measure, or when `clock`
    runs out first: a part of a sample would mislead).

    Draw i is the first draw of seed i, as `make_variant` draws it: so the sample is the same
    whatever `--seeds` says, and a seed the self-test ran gives its draw in `first_draws` (its
    inputs and computed values), whose outcomes cost only the constraints themselves.

    With `stop_when_clean`, outcomes stop being computed once no value of a discrete parameter
    can be lost and each constraint either keeps at least half of the draws reaching it even if
    all the draws left reached it and it rejected them (no warning can come of the rest), or
    keeps a clear majority of them (`_clear_majority`: most samples stop after a few dozen
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
    discrete = [p.name for p in compiled.params if p.spec.kind in _DISCRETE]
    possible = _possible_values(compiled) if stop_when_clean else None
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
    judged, kept = [0] * len(compiled.constraints), [0] * len(compiled.constraints)  # as `_constraint_warnings` counts
    draws: list[_Draw] = []
    for seed in range(SAMPLE_DRAWS):
        drawn = ahead[seed] if ahead else _inputs_of(compiled, seed, first_draws, clock)
        if drawn is None or _out_of_time(clock):
            return []
        inputs, spent = drawn
        clock.new_draw()
        clock.spend(spent)  # never refused: the draw spent as much already
        if seed in first_draws:
            draw = _Draw(inputs, outcomes_of(compiled, first_draws[seed][1], clock))
        else:
            draw = _Draw(inputs, constraint_outcomes(compiled, inputs, clock))
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
        if stop_when_clean and not unkept and all(2 * k >= j + left or _clear_majority(k, j) for k, j in zip(kept, judged)):
            break
    return draws


def _inputs_of(
    compiled: CompiledQuestion, seed: int, first_draws: dict[int, tuple[dict[str, Any], dict[str, Any]]], clock: Budget
) -> tuple[dict[str, Any], int] | None:
    """The first draw of `seed` and the elements it created (none when the seed's variant made
    it: they were spent there); None when `clock` runs out or a parameter cannot be drawn (the
    seeds report that)."""
    if seed in first_draws:
        return first_draws[seed][0], 0
    if _out_of_time(clock):
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
"""Most values of an `integer` parameter the sample lists in advance (see `_possible_values`)."""


def _possible_values(compiled: CompiledQuestion) -> set[tuple[str, str]] | None:
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


def _clear_majority(kept: int, judged: int) -> bool:
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


def _constraint_warnings(compiled: CompiledQuestion, sample: list[_Draw]) -> list[Diagnostic]:
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


def _rejected_values(compiled: CompiledQuestion, sample: list[_Draw]) -> Iterator[Diagnostic]:
    """A warning per parameter for the values the constraints reject every time they are drawn."""
    question = compiled.question
    for param in compiled.params:
        if param.spec.kind not in _DISCRETE:
            continue  # a continuous draw has no value of its own to lose
        by_value: dict[str, list[_Draw]] = defaultdict(list)
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


def _variety(
    compiled: CompiledQuestion,
    drawn: set[str],
    rejected: int,
    done: int,
    sample: list[_Draw],
    clock: Budget,
    first_draws: dict[int, tuple[dict[str, Any], dict[str, Any]]],
) -> Diagnostic | None:
    """An error when the first VARIETY_SEEDS seeds give fewer than MIN_VARIANTS different draws,
    saying whether to widen the parameters (too few values) or narrow them (constraints reject most).
    None when `clock` runs out before the verdict: the seeds' own problems are reported already."""
    question = compiled.question
    seed = min(done, VARIETY_SEEDS)
    while len(drawn) < MIN_VARIANTS and seed < VARIETY_SEEDS:
        if _out_of_time(clock):
            return None
        try:
            drawn.add(_draw_key(make_variant(compiled, seed)))
        except VariantError as exc:
            rejected += exc.field == "constraints"
        seed += 1
    if len(drawn) >= MIN_VARIANTS:
        return None
    if sample:  # the sample may have stopped early: the advice quotes the share of all its draws
        sample = _sample(compiled, clock, first_draws, stop_when_clean=False)
    kept = sum(d.kept for d in sample)
    head = (
        f"{question.id}: self-test: only {len(drawn)} different variant{'s' if len(drawn) != 1 else ''} "
        f"in the first {VARIETY_SEEDS} seeds; at least {MIN_VARIANTS} are needed"
    )
    if rejected * 2 > seed or (sample and kept * 2 < len(sample)):
        share = f" (only {kept} of {len(sample)} draws pass them)" if sample else ""
        advice = f"the constraints reject most draws{share}: narrow the parameters to where the constraints hold"
    else:
        advice = "widen the parameters (more choices, a wider range or more decimals)"
    return Diagnostic(located(question, "params") or question.source or Location(Path("<question>")), Severity.ERROR, f"{head}; {advice}")
