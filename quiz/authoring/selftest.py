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
- constraints: over a sample of up to `SAMPLE_DRAWS` draws (`quiz.authoring.sample`), a constraint
  that keeps fewer than half of the draws reaching it (those the constraints before it keep), or
  that rejects every draw of one value of a parameter, is a warning naming the parameter.

A wrong answer key is the worst bug this product can have.

Self-tests run a pack's expressions many times, so their CPU time is bounded too: a question's
seeds, variety and sample together get `QUESTION_SECONDS`, and the questions of one file
`FILE_SECONDS` (see `validation.py`; each variant keeps its own budget as well), both at the
default seeds and proportionally more for more (`time_scale`), so
`quiz validate` ends soon whatever a pack holds.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from quiz.authoring.fields import field_location
from quiz.authoring.sample import Draw, FirstDraws, constraint_warnings, draw_sample, first_draw_of, out_of_time
from quiz.expressions.budget import Budget
from quiz.format.compile import CompiledQuestion
from quiz.format.diagnostics import Diagnostic, Location, Severity
from quiz.format.marks import located
from quiz.format.model import QuestionBase
from quiz.locale.i18n import LANGUAGES
from quiz.types.base import TRIVIAL_FIXES, Problem, read_trivial_clash
from quiz.types.draw import make_variant
from quiz.types.registry import type_of
from quiz.variants.variant import Variant, VariantError

DEFAULT_SEEDS: Final = 20
TRIVIAL_SHARE: Final = 0.1
"""Above this share of seeds, a trivial answer that grades as right is the question's weakness, not chance."""
VARIETY_SEEDS: Final = 100
"""The seeds the variety rule looks at: always the first 100, so the verdict never depends on --seeds."""
MIN_VARIANTS: Final = 10
"""Different draws a parametric question must give among its first VARIETY_SEEDS seeds."""
QUESTION_SECONDS: Final = 2.0
"""CPU time one question's self-test may take at DEFAULT_SEEDS (a bundled one takes at most 0.7 s)."""


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
    unservable = 0  # seeds on which a misconception graded as right on every draw (reported as such)
    redrawn: Counter[str] = Counter()  # seeds on which a misconception graded as right, by misconception
    trivial_seeds: Counter[str] = Counter()  # seeds on which a trivial answer graded as right, by answer, whatever the fix
    first_draws: FirstDraws = {}  # the sample's draws the seeds make
    seconds = QUESTION_SECONDS * time_scale(seeds)
    # Checked once a seed or a draw, and before each step of the sample's evaluations, which
    # run on it: the CPU clock is read only every CHECK_INTERVAL, as a variant's is.
    clock = Budget(seconds=seconds)
    with clock.running():
        for seed in tried:
            if out_of_time(clock):
                return [*found.diagnostics(), _stopped(question, seed, len(tried), seconds)]
            try:
                variant = make_variant(compiled, seed, on_draw=first_draw_of(seed, first_draws))
            except VariantError as exc:
                found.add(seed, Problem(field_location(question, exc.field), "no variant can be made", exc.message))
                if exc.budget is not None:  # other seeds would spend as much: one is proof enough
                    return [*found.diagnostics(), _over_budget(question, seed)]
                rejected += seed < VARIETY_SEEDS and exc.field == "constraints"
                unservable += exc.mistaken is not None  # a mistake right on every draw (at it, or at the key it gives)
                continue
            redrawn.update(set(variant.redrawn))
            trivial_seeds.update({guess[0] for guess in map(read_trivial_clash, variant.redrawn) if guess is not None})
            if seed < VARIETY_SEEDS and len(drawn) < MIN_VARIANTS:  # enough is enough: keys cost a JSON dump
                drawn.add(_draw_key(variant))
            for problem in _check_variant(variant):
                found.add(seed, problem)
            if variant.budget.out_of_time():  # its texts used up the variant's time
                return [*found.diagnostics(), _over_budget(question, seed)]
        diagnostics = [*found.diagnostics(), *_redrawn(question, redrawn, trivial_seeds, len(tried))]
        # drawn parameters must vary (a code question's seeds draw only check inputs); where a mistake
        # grades as right on every draw, that is the finding, and counting variants would only repeat it
        if compiled.params and seeds > 0 and not unservable:
            sample = draw_sample(compiled, clock, first_draws)
            diagnostics.extend(constraint_warnings(compiled, sample))
            variety = _variety(compiled, drawn, rejected, len(tried), sample, clock, first_draws)
            if variety is not None:
                diagnostics.append(variety)
    return diagnostics


def _redrawn(question: QuestionBase, redrawn: Counter[str], trivial_seeds: Counter[str], seeds: int) -> list[Diagnostic]:
    """A warning for each misconception that graded as right on some seeds' draws: served, those
    draws are drawn again, so the learner never meets them, but the draw should not make them.

    A trivial answer (an input, zero, the key doubled …) near the key now and then is chance, and
    redrawn as quietly; one on more than TRIVIAL_SHARE of the seeds is a weak question."""
    found = []
    trivial: dict[str, str] = {}  # what → fix: one warning however many fixes its draws need
    for name, count in sorted(redrawn.items()):
        guess = read_trivial_clash(name)
        if guess is None:
            found.append(Diagnostic(
                field_location(question, f"misconceptions.{name}"),
                Severity.WARNING,
                f"{question.id}: misconception {name} grades as right (or as the answer too coarsely rounded) on a draw of {count} "
                f"of {seeds} seeds, which are drawn again when served; add a constraint, or draw the parameters, so that it stays "
                "outside the tolerance",
            ))
            continue
        what, fix = guess
        seen_fix = trivial.get(what, fix)
        # A tolerance too loose on some draws is the fix to name first: tightening it is the author's change.
        trivial[what] = seen_fix if seen_fix == TRIVIAL_FIXES["tolerance"] else fix
    for what, fix in trivial.items():
        count = trivial_seeds[what]
        if count > TRIVIAL_SHARE * seeds:
            found.append(Diagnostic(
                field_location(question, "tolerance"),
                Severity.WARNING,
                f"{question.id}: a trivial answer ({what}) grades as right on a draw of {count} of {seeds} seeds, "
                f"which are drawn again when served; {fix}",
            ))
    return found


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


def _variety(
    compiled: CompiledQuestion,
    drawn: set[str],
    rejected: int,
    done: int,
    sample: list[Draw],
    clock: Budget,
    first_draws: FirstDraws,
) -> Diagnostic | None:
    """An error when the first VARIETY_SEEDS seeds give fewer than MIN_VARIANTS different draws,
    saying whether to widen the parameters (too few values) or narrow them (constraints reject most).
    None when `clock` runs out before the verdict: the seeds' own problems are reported already."""
    question = compiled.question
    seed = min(done, VARIETY_SEEDS)
    while len(drawn) < MIN_VARIANTS and seed < VARIETY_SEEDS:
        if out_of_time(clock):
            return None
        try:
            drawn.add(_draw_key(make_variant(compiled, seed)))
        except VariantError as exc:
            rejected += exc.field == "constraints"
        seed += 1
    if len(drawn) >= MIN_VARIANTS:
        return None
    if sample:  # the sample may have stopped early: the advice quotes the share of all its draws
        sample = draw_sample(compiled, clock, first_draws, stop_when_clean=False)
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
