"""Draw a check's probes from a seed, redrawn until the mistakes they should reveal clearly show.

Each check has its own generator, seeded by the question's seed and the check's id: the same
seed gives the same inputs on any machine, and choosing other checks does not change them.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence

import numpy as np

from quiz.code import compare
from quiz.code.compare import DEFAULT_TOLERANCE, Output
from quiz.code.probes import Probe, ProbeSpec
from quiz.code.shared import one_call
from quiz.code.spec import Mistake, Policy, T, Task

ATTEMPTS = 40
VISIBLE = 10.0  # a mistake shows on a probe when it is off by at least 10 times the tolerance …
HIDDEN = 0.1  # … or hides when within a tenth of it; in between, a candidate could go either way
TOGETHER = 3  # from this many mistakes on a probe, measuring all pairs in one operation costs less than one by one


def check_rng(seed: int, check: str) -> np.random.Generator:
    """The generator for `check` under the question's `seed`: stable across runs and machines."""
    return np.random.default_rng([seed, zlib.crc32(check.encode("utf-8"))])


def draw_check(task: Task[T], check: str, seed: int, policy: Policy) -> tuple[Probe, ...]:
    """The probes of `check`, with the engine's and every applicable mistake's outputs."""
    rng = check_rng(seed, check)
    mistakes = [m for m in task.mistakes if m.applies(policy)]
    revealed = [m.id for m in mistakes if m.id in task.reveals.get(check, ())]
    for _ in range(ATTEMPTS):
        probes = tuple(resolve(spec, task, mistakes, policy) for spec in task.draw(check, rng))
        if separates(probes, revealed):
            break
    return probes


def resolve(spec: ProbeSpec[T], task: Task[T], mistakes: Sequence[Mistake[T]], policy: Policy) -> Probe:
    """The probe of `spec`: the engine's output for each call, and each mistake's where it differs."""
    references, runs_by_call = [], []
    for call in spec.calls:
        with one_call():  # the reference and the mistakes share what they compute alike for this call
            references.append(task.reference(call, policy))
            runs_by_call.append([mistake.run(call, policy) for mistake in mistakes])
    outputs: dict[str, tuple[Output, ...]] = {}
    for mistake, runs in zip(mistakes, zip(*runs_by_call)):
        if any(run is not None for run in runs):
            outputs[mistake.id] = tuple(ref if run is None else run for run, ref in zip(runs, references))
    return Probe(calls=spec.calls, criterion=spec.criterion, references=tuple(references), mistakes=outputs)


def excess(probe: Probe, first: tuple[Output, ...], second: tuple[Output, ...]) -> float:
    """How far apart two sets of outputs for `probe`'s calls are, in units of its tolerance."""
    return max(compare.excess(a, b, probe.tolerance) for a, b in zip(first, second))


def separates(probes: Sequence[Probe], revealed: Sequence[str]) -> bool:
    """Whether every revealed mistake shows, any two of them differ, and no mistake is borderline.

    Borderline is judged on float64 probes only: in lower precision the candidate's own rounding
    decides, and the mistakes those probes reveal show as NaN or inf.
    """
    gaps = [Gaps(probe) for probe in probes]
    for probe, gap in zip(probes, gaps):
        if probe.tolerance != DEFAULT_TOLERANCE:
            continue
        for mistake in probe.mistakes:
            if HIDDEN < gap.between(mistake, None) < VISIBLE:
                return False

    def apart(one: str, other: str | None, index: int) -> bool:
        """Whether the two mistakes' outputs (None: the engine's) differ visibly on probe `index`."""
        probe = probes[index]
        if other is None or other not in probe.mistakes:
            return one in probe.mistakes and gaps[index].between(one, None) >= VISIBLE
        first = one if one in probe.mistakes else None  # the tolerance is relative to the second
        return gaps[index].between(first, other) >= VISIBLE

    for position, one in enumerate(revealed):
        if not any(apart(one, None, index) for index in range(len(probes))):
            return False
        for other in revealed[position + 1 :]:
            if not any(apart(one, other, index) for index in range(len(probes))):
                return False
    return True


class Gaps:
    """How far apart a probe's outputs are, the engine's (None) and each mistake's, in its tolerances.

    On a float64 probe every mistake is measured against the engine anyway, so with several
    mistakes every pair is measured at once on first use (compare.excess_table); pairs that
    cannot be, and every pair on other probes, are measured one at a time when asked.
    """

    def __init__(self, probe: Probe) -> None:
        self.probe = probe
        self.rows = {mistake: row for row, mistake in enumerate((None, *probe.mistakes))}
        self.together = probe.tolerance == DEFAULT_TOLERANCE and len(probe.mistakes) >= TOGETHER
        self.table: list[list[float]] | None = None  # every pair, once measured together ([]: they cannot be)
        self.asked: dict[tuple[str | None, str | None], float] = {}

    def between(self, first: str | None, second: str | None) -> float:
        """excess(probe, first's outputs, second's): how far the first is from the second."""
        if self.together:
            if self.table is None:
                self.table = self.all_pairs()
            found = self.table[self.rows[first]][self.rows[second]] if self.table else math.nan
            if not math.isnan(found):
                return found
        pair = (first, second)
        asked = self.asked.get(pair)
        if asked is None:
            asked = self.asked[pair] = excess(self.probe, self.outputs(first), self.outputs(second))
        return asked

    def all_pairs(self) -> list[list[float]]:
        """Every pair's excess over the probe's calls, NaN where a call's pair holds NaN or inf or differs in form; [] for booleans."""
        outputs = (self.probe.references, *self.probe.mistakes.values())
        tables = [compare.excess_table([output[call] for output in outputs], self.probe.tolerance) for call in range(len(self.probe.calls))]
        measured = [table for table in tables if table is not None]
        return np.max(measured, axis=0).tolist() if len(measured) == len(tables) else []

    def outputs(self, mistake: str | None) -> tuple[Output, ...]:
        return self.probe.references if mistake is None else self.probe.mistakes[mistake]
