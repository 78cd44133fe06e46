"""What a mock interview is made from, and its printable key: the options and seed, reversibly.

A key such as `mock-3-30m-6q-d2-scaling+softmax-7f1c` carries everything needed to compose the
same interview again on any machine with the same bank: the seed, the minutes, the number of
questions, the difficulty and the topics. The last part is a check of the bank the interview was
composed from, so a replay on a different bank can say so instead of silently differing.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Final

DEFAULT_MINUTES: Final = 30.0
MAX_MINUTES: Final = 240.0
MAX_QUESTIONS: Final = 40
MAX_SEED: Final = 10**9
_KEY = re.compile(
    r"mock-(?P<seed>[0-9]{1,9})-(?P<minutes>[0-9]+(?:\.[0-9]+)?)m"
    r"(?:-(?P<questions>[0-9]{1,2})q)?(?:-d(?P<difficulty>[123]))?(?:-(?P<adaptive>a))?"
    r"(?:-(?P<topics>[a-z0-9_+-]+?))?-(?P<check>[0-9a-f]{4})"
)


class MockOptionsError(ValueError):
    """Options no mock can be made from; the message says which and why."""


@dataclass(frozen=True)
class MockOptions:
    """The choices a candidate (or interviewer) makes before a mock interview."""

    minutes: float = DEFAULT_MINUTES
    questions: int | None = None
    """How many questions; None: as many as the time budgets fit into `minutes`."""
    topics: tuple[str, ...] = ()
    """Only these topics (empty: every topic)."""
    difficulty: int | None = None
    seed: int = 0
    adaptive: bool = False
    """Lean the choice towards the learner's weakest topics and claims (from history)."""
    feedback: str = field(default="end", compare=False)
    """`end`: feedback after the interview (as in a real one); `each`: after every answer."""

    def __post_init__(self) -> None:
        if not 0 < self.minutes <= MAX_MINUTES:
            raise MockOptionsError(f"minutes must be above 0 and at most {MAX_MINUTES:g}, got {self.minutes:g}")
        if self.questions is not None and not 1 <= self.questions <= MAX_QUESTIONS:
            raise MockOptionsError(f"questions must be between 1 and {MAX_QUESTIONS}, got {self.questions}")
        if self.difficulty is not None and self.difficulty not in (1, 2, 3):
            raise MockOptionsError(f"difficulty must be 1, 2 or 3, got {self.difficulty}")
        if not 0 <= self.seed < MAX_SEED:
            raise MockOptionsError(f"seed must be between 0 and {MAX_SEED - 1}, got {self.seed}")
        if self.feedback not in ("end", "each"):
            raise MockOptionsError(f"feedback must be end or each, got {self.feedback!r}")

    @property
    def seconds(self) -> float:
        return self.minutes * 60.0


def minutes_text(minutes: float) -> str:
    """Minutes as the key writes them: `30`, `0.25`, never `30.0` or scientific notation."""
    return format(Decimal(repr(minutes)).normalize(), "f")


def parse_minutes(text: str) -> float:
    """`--minutes` as typed: a plain decimal number (0.25 is 15 seconds)."""
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        raise MockOptionsError(f"minutes must be a number such as 30 or 0.25, got {text!r}") from None
    if not value.is_finite():
        raise MockOptionsError(f"minutes must be a number such as 30 or 0.25, got {text!r}")
    return float(value)


def mock_key(options: MockOptions, bank_fingerprint: str) -> str:
    """The printable key that composes the same mock again (with the same bank)."""
    parts = [f"mock-{options.seed}", f"{minutes_text(options.minutes)}m"]
    if options.questions is not None:
        parts.append(f"{options.questions}q")
    if options.difficulty is not None:
        parts.append(f"d{options.difficulty}")
    if options.adaptive:
        parts.append("a")
    if options.topics:
        parts.append("+".join(options.topics))
    body = "-".join(parts)
    return f"{body}-{_check(body, bank_fingerprint)}"


def parse_mock_key(key: str) -> tuple[MockOptions, str]:
    """The options a key carries and its bank check; MockOptionsError for anything else."""
    match = _KEY.fullmatch(key.strip())
    if match is None:
        raise MockOptionsError(f"'{key}' is not a mock interview key (like mock-3-30m-1a2b)")
    topics = tuple(match["topics"].split("+")) if match["topics"] else ()
    options = MockOptions(
        minutes=parse_minutes(match["minutes"]),
        questions=int(match["questions"]) if match["questions"] else None,
        topics=topics,
        difficulty=int(match["difficulty"]) if match["difficulty"] else None,
        seed=int(match["seed"]),
        adaptive=bool(match["adaptive"]),
    )
    return options, match["check"]


def key_matches_bank(key: str, bank_fingerprint: str) -> bool:
    """Was the key made from a bank with this fingerprint?"""
    body, _, check = key.strip().rpartition("-")
    return _check(body, bank_fingerprint) == check


def _check(body: str, bank_fingerprint: str) -> str:
    return hashlib.sha256(f"{body}|{bank_fingerprint}".encode()).hexdigest()[:4]
