"""The fixed list of checks a code question may name, and the policies some of them depend on.

Ids are stable: question packs name them, and results record them. Each has a label in both
languages under [code] in quiz/locale (check_<id>).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

CHECKS = (
    "output",  # output against the engine on drawn inputs, within the tolerance rule
    "shapes",  # batch and head axes, L ≠ S, E ≠ Ev
    "rows_sum_to_one",  # each row of weights sums to one
    "boolean_mask",  # True where a query may attend, full and broadcast
    "additive_mask",  # a float mask added to the scaled scores, −∞ included
    "fully_masked_rows",  # rows with no allowed key give the stated policy's result (those rows alone are compared)
    "causal_leak",  # changing tokens after t leaves outputs up to t unchanged (X10)
    "large_scores",  # large scores in float32 or float16 inputs (stable softmax, E6)
    "gradients",  # a backward function against the engine's backward pass
    "large_logits",  # logits of ±1e4 and ±1e3, float64 and float32: a loss through log-sum-exp stays finite (Y17)
)


def check_problems(
    task_checks: Sequence[str],
    task_policies: Mapping[str, Sequence[str]],
    checks: Sequence[str] | None,
    policy: Mapping[str, str] | None,
) -> list[str]:
    """What is wrong with an author's choice of checks and policy for a task (empty when nothing)."""
    problems = []
    for check in checks or ():
        if check not in CHECKS:
            problems.append(f"unknown check {check!r}; checks: {', '.join(CHECKS)}")
        elif check not in task_checks:
            problems.append(f"check {check!r} does not apply here; it takes: {', '.join(task_checks)}")
    if checks is not None and not checks:
        problems.append("name at least one check, or leave checks out to run them all")
    if checks and len(set(checks)) != len(checks):
        problems.append("a check is named twice")
    for name, value in (policy or {}).items():
        if name not in task_policies:
            known = ", ".join(task_policies) or "none"
            problems.append(f"unknown policy {name!r}; policies here: {known}")
        elif value not in task_policies[name]:
            problems.append(f"policy {name} must be one of {', '.join(task_policies[name])}, not {value!r}")
    return problems
