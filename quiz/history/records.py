"""One attempt as history stores it: what was asked, what the learner typed, and how it was graded."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any, Final

from quiz.base.fieldwise import Fieldwise, record


class Mode(StrEnum):
    """How an attempt was made. The history schema's CHECK, the transfer validation and the
    commands' choices are written from this; a new mode also needs a schema migration (the CHECK of
    an existing file cannot change), which `test_history_migration` asks for."""

    PRACTICE = "practice"
    MOCK = "mock"
    REVIEW = "review"


MODES: Final = tuple(mode.value for mode in Mode)
VERDICTS: Final = ("correct", "partial", "incorrect", "revealed", "no_answer", "not_reached")
"""`no_answer` and `not_reached` are for timed mock interviews: time ran out on the question, or
before it was shown. A `not_reached` question was never seen, so it does not count as a review."""
EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
OVERRUN_FACTOR: Final = 3
"""Time taken is capped at this many times the question's time budget: a learner who walked away
from the screen did not spend an hour thinking."""


@record
class AttemptRecord(Fieldwise):
    """One graded attempt. `inputs` are the variant's drawn parameters (JSON-ready), so the
    variant can be rebuilt without drawing again."""

    id: str
    """A random UUID (version 4), as text."""
    at_ms: int
    """When it was graded: milliseconds since the Unix epoch, UTC."""
    question: str
    version: str
    """The question's content version when it was asked."""
    key: str
    """The variant key, `id#seed` (or `id` for a fixed question)."""
    seed: int
    inputs: Mapping[str, Any]
    lang: str
    mode: str
    response: str | None
    """The response exactly as typed; None when there is none (an empty text becomes None)."""
    score: float
    verdict: str
    misconception: str | None = None
    hints: int = 0
    revealed: bool = False
    duration_ms: int | None = None
    """Time taken, measured on the monotonic clock and capped (see `capped_duration_ms`);
    given to FSRS as the review duration, never turned into a rating."""
    mock: str | None = None
    """The mock interview this attempt was part of (mode `mock` only)."""
    topic: str | None = None
    """The question's topic when it was asked (None: recorded before the history kept it)."""
    claims: tuple[str, ...] | None = None
    """The claims the question cited when it was asked (None: recorded before the history kept them)."""

    def __post_init__(self) -> None:
        for name in ("response", "misconception", "mock"):  # empty text is no text
            if getattr(self, name) == "":
                object.__setattr__(self, name, None)

    @property
    def at(self) -> datetime:
        """When it was graded, as an aware UTC datetime."""
        return datetime.fromtimestamp(self.at_ms / 1000, UTC)

    @property
    def inputs_json(self) -> str:
        """The inputs as canonical JSON text (sorted keys, no spaces): how the store keeps them."""
        return canonical_json(self.inputs)


def new_attempt_id() -> str:
    """A fresh random attempt id."""
    return str(uuid.uuid4())


def local_now() -> datetime:
    """The current time, aware, in the machine's time zone (where the learner's days begin)."""
    return datetime.now().astimezone()


def to_ms(moment: datetime) -> int:
    """An aware datetime as UTC epoch milliseconds."""
    return (moment - EPOCH) // timedelta(milliseconds=1)


def now_ms() -> int:
    """The current time in UTC epoch milliseconds."""
    return time.time_ns() // 1_000_000


def capped_duration_ms(seconds: float, time_budget_s: int) -> int:
    """Time taken in milliseconds, capped at the question's time budget × OVERRUN_FACTOR."""
    return min(max(0, round(seconds * 1000)), time_budget_s * OVERRUN_FACTOR * 1000)


def canonical_json(value: Any) -> str:
    """`value` as compact JSON with sorted keys; NaN and infinities are refused."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"), allow_nan=False)


def problems(record: AttemptRecord) -> list[str]:
    """What is wrong with `record` (empty when it can be stored), field by field."""
    found = []
    try:
        if str(uuid.UUID(record.id)) != record.id:
            found.append(f"id {record.id!r} is not a UUID in its canonical lower-case form")
    except (ValueError, TypeError, AttributeError):
        found.append(f"id {record.id!r} is not a UUID")
    if not _is_int(record.at_ms) or record.at_ms < 0:
        found.append(f"at_ms must be a non-negative integer, got {record.at_ms!r}")
    for name in ("question", "version", "key", "lang"):
        if not isinstance(getattr(record, name), str):
            found.append(f"{name} must be text")
    for name in ("question", "key", "lang"):
        if isinstance(getattr(record, name), str) and not getattr(record, name):
            found.append(f"{name} must not be empty")
    if not _is_int(record.seed):
        found.append(f"seed must be an integer, got {record.seed!r}")
    if not isinstance(record.inputs, Mapping):
        found.append("inputs must be a JSON object")
    else:
        try:
            canonical_json(record.inputs)
        except (TypeError, ValueError) as exc:
            found.append(f"inputs are not JSON: {exc}")
    if record.mode not in MODES:
        found.append(f"mode must be one of {', '.join(MODES)}, got {record.mode!r}")
    if record.verdict not in VERDICTS:
        found.append(f"verdict must be one of {', '.join(VERDICTS)}, got {record.verdict!r}")
    for name in ("response", "misconception", "mock"):
        if getattr(record, name) is not None and not isinstance(getattr(record, name), str):
            found.append(f"{name} must be text or null")
    if isinstance(record.score, bool) or not isinstance(record.score, int | float) or not (0.0 <= record.score <= 1.0):
        found.append(f"score must be a number from 0 to 1, got {record.score!r}")
    if not _is_int(record.hints) or record.hints < 0:
        found.append(f"hints must be a non-negative integer, got {record.hints!r}")
    if not isinstance(record.revealed, bool):
        found.append(f"revealed must be true or false, got {record.revealed!r}")
    if record.duration_ms is not None and (not _is_int(record.duration_ms) or record.duration_ms < 0):
        found.append(f"duration_ms must be a non-negative integer or null, got {record.duration_ms!r}")
    if record.topic is not None and not isinstance(record.topic, str):
        found.append("topic must be text or null")
    if record.claims is not None and not (isinstance(record.claims, tuple) and all(isinstance(c, str) for c in record.claims)):
        found.append("claims must be a list of texts or null")
    if record.mock is not None and record.mode != Mode.MOCK:
        found.append("only an attempt in mode mock belongs to a mock interview")
    return found


def _is_int(value: object) -> bool:
    """An integer SQLite can store (signed 64-bit), and not a bool."""
    return isinstance(value, int) and not isinstance(value, bool) and -(2**63) <= value < 2**63


def check(record: AttemptRecord) -> AttemptRecord:
    """`record` itself, or ValueError naming everything wrong with it."""
    found = problems(record)
    if found:
        raise ValueError("; ".join(found))
    return record
