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


def matched_mistake(task: AnyTask, probes: Sequence[Probe], results: Sequence[Sequence[CallResult]], policy: Policy) -> str | None:
    """The id of the first of the task's mistakes the results match, or None."""
    right = _right_calls(probes, results)
    if not any(is_right is False for probe_right in right for is_right in probe_right):
        return None  # a mistake is matched only on evidence: some call the engine would answer otherwise
    for mistake in task.mistakes:
        if mistake.applies(policy) and _fits(mistake.id, probes, results, right):
            return mistake.id
    return None


def _right_calls(probes: Sequence[Probe], results: Sequence[Sequence[CallResult]]) -> list[list[bool | None]]:
    """For each probe's calls, whether the result is the engine's within the tolerance (None:
    no arrays of the right form to judge): the same for every mistake, so measured once."""
    right: list[list[bool | None]] = []
    for probe, probe_results in zip(probes, results, strict=True):
        right.append(
            [
                None
                if result.arrays is None or mismatch(result.arrays, reference) is not None
                else difference(result.arrays, reference, probe.tolerance).within
                for result, reference in zip(probe_results, probe.references)
            ]
        )
    return right


def _fits(mistake: str, probes: Sequence[Probe], results: Sequence[Sequence[CallResult]], right: list[list[bool | None]]) -> bool:
    evidenced = False
    for probe, probe_results, probe_right in zip(probes, results, right):
        modelled = probe.mistakes.get(mistake, probe.references)
        for result, is_right, expected in zip(probe_results, probe_right, modelled):
            if is_right is None or (is_right and probe.dtype == "float16"):
                continue
            assert result.arrays is not None  # judged above
            if not difference(result.arrays, expected, _matching(probe.tolerance)).within:
                return False
            evidenced = evidenced or not is_right
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
