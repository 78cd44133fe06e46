"""What grading a code answer gives back: one result per check, the mistake it matches, a score."""

from __future__ import annotations

from dataclasses import dataclass

from quiz.code.compare import Mismatch, Tolerance
from quiz.code.sandbox import RunError


@dataclass(frozen=True)
class Evidence:
    """What a check saw on the probe that decided it (the first failing one, else the closest call).

    Only the fields that apply are set: an error or a mismatch stops the comparison; a leak names
    the first position whose output changed; row sums are given by the rows-sum-to-one check.
    """

    function: str | None = None  # the candidate's function the probe called
    dtype: str | None = None  # the precision of the probe's inputs
    tolerance: Tolerance | None = None
    max_error: float | None = None  # largest |yours − engine| where both are finite
    differing: int | None = None  # boolean results: how many entries differ from the engine's …
    entries: int | None = None  # … out of how many
    nonfinite: bool = False  # NaN or inf where the engine has a number (or the reverse)
    error: RunError | None = None  # the call raised, or did not return arrays
    mismatch: Mismatch | None = None  # wrong number, shape or dtype of arrays
    leak_position: int | None = None  # the first query position whose output changed
    changed_after: int | None = None  # the tokens after this position were changed
    row_sum_error: float | None = None  # largest |Σ row − 1|


@dataclass(frozen=True)
class CheckResult:
    """One line of the checklist: the check's id, whether it passed, and why."""

    check: str
    passed: bool
    evidence: Evidence
    shows_mistake: bool = False  # the matched mistake shows on this check's inputs


@dataclass(frozen=True)
class CodeOutcome:
    """The grade of one candidate file for one code question.

    score is the share of checks passed (0 when the file cannot be run). misconception is the id
    of the mistake the outputs match (an engine Fault value or one of quiz.code's own), or None.
    error is set when the file could not be run or imported; then no check passed.
    """

    task: str
    seed: int
    policy: tuple[tuple[str, str], ...]  # (name, value) pairs the checks were run under
    checks: tuple[CheckResult, ...]
    misconception: str | None
    score: float
    error: RunError | None
    output: str  # what the code printed, cut and made safe to show
    output_truncated: bool

    @property
    def runnable(self) -> bool:
        """False when the file could not be run or imported (the CLI's exit status 3)."""
        return self.error is None
