"""Name the mistake a wrong answer makes: the modelled mistake whose outputs the candidate's reproduce.

A mistake matches when, on every call the candidate answered with arrays of the right form, its
output is the mistake's (within the tolerance), and it differs from the engine on at least one.
Where the candidate is right on float16 inputs the call is passed over: computing in a higher
precision there is a choice, not evidence against a mistake.
"""

from __future__ import annotations

from collections.abc import Sequence

from quiz.code.compare import DEFAULT_TOLERANCE, Tolerance, difference, mismatch
from quiz.code.probes import Probe
from quiz.code.sandbox import CallResult
from quiz.code.spec import AnyTask, Policy

# Below float64 the candidate's rounding differs from the model's by a few tolerances.
LOW_PRECISION_SLACK = 3.0


def matched_mistake(
    task: AnyTask, probes: Sequence[Probe], results: Sequence[Sequence[CallResult]], policy: Policy
) -> str | None:
    """The id of the first of the task's mistakes the results match, or None."""
    for mistake in task.mistakes:
        if mistake.applies(policy) and _fits(mistake.id, probes, results):
            return mistake.id
    return None


def _fits(mistake: str, probes: Sequence[Probe], results: Sequence[Sequence[CallResult]]) -> bool:
    evidenced = False
    for probe, probe_results in zip(probes, results, strict=True):
        tolerance = probe.tolerance
        modelled = probe.mistakes.get(mistake, probe.references)
        for result, reference, expected in zip(probe_results, probe.references, modelled):
            if result.arrays is None or mismatch(result.arrays, reference) is not None:
                continue
            right = difference(result.arrays, reference, tolerance).within
            if right and probe.dtype == "float16":
                continue
            if not difference(result.arrays, expected, _matching(tolerance)).within:
                return False
            evidenced = evidenced or not right
    return evidenced


def _matching(tolerance: Tolerance) -> Tolerance:
    if tolerance == DEFAULT_TOLERANCE:
        return tolerance
    return Tolerance(atol=tolerance.atol * LOW_PRECISION_SLACK, rtol=tolerance.rtol * LOW_PRECISION_SLACK)


def shows_on(mistake: str, probes: Sequence[Probe]) -> bool:
    """Whether the mistake's outputs differ from the engine's on any of `probes`."""
    return any(
        not difference(out, ref, probe.tolerance).within
        for probe in probes
        if mistake in probe.mistakes
        for out, ref in zip(probe.mistakes[mistake], probe.references)
    )
