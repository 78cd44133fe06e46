"""Mock interview sittings in a JSON Lines export: one record each, after the attempts.

A sitting's record (`"record": "mock"`) carries what its attempts cannot: the plan, the stored
start, the questions in the order asked and the spoken answers with their self-grades, so a
report can be written again on the machine it is imported on, and the challenges met
(`pushbacks`, absent from exports written before pushbacks existed). A challenge met in practice
has a record of its own (`"record": "pushback"`). CSV exports carry attempts only.
Reading a record checks every field; a bad one is an ImportProblem with its line.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, Final

from quiz.history.mocks import LEVELS, STATUSES, AskedRow, MockRow, SpokenRow, StoredMock
from quiz.history.pushbacks import CHOICES, PushbackRow
from quiz.history.records import to_ms

RECORD: Final = "mock"
PUSHBACK_RECORD: Final = "pushback"
FIELDS: Final = (
    "format", "record", "id", "key", "options", "plan", "lang", "feedback", "start_clock", "start_wall", "start_boot",
    "started", "status", "finished", "asked", "spoken", "pushbacks",
)  # fmt: skip
OPTIONAL: Final = ("pushbacks",)
"""Fields an older export may lack."""
ASKED_FIELDS: Final = ("position", "question", "seed", "budget", "follow_up_of", "shown_s")
PUSHBACK_FIELDS: Final = ("id", "attempt", "question", "choice", "response", "score", "verdict", "at", "duration_ms")
SPOKEN_FIELDS: Final = ("id", "position", "question", "version", "key", "seed", "inputs", "lang", "notes", "at", "duration_ms", "levels", "graded")


class BadMock(ValueError):
    """A mock record that cannot be imported; the message says which field and why."""


def exported_mock(stored: StoredMock, format_version: int, iso: Callable[[int], str]) -> dict[str, Any]:
    """A sitting as an export record (field order as FIELDS)."""
    row = stored.row
    return {
        "format": format_version, "record": RECORD, "id": row.id, "key": row.key, "options": dict(row.options),
        "plan": [dict(q) for q in row.plan], "lang": row.lang, "feedback": row.feedback, "start_clock": row.start_clock,
        "start_wall": row.start_wall, "start_boot": row.start_boot, "started": iso(row.started_ms), "status": row.status,
        "finished": None if row.finished_ms is None else iso(row.finished_ms),
        "asked": [
            {"position": a.position, "question": a.question, "seed": a.seed, "budget": a.budget, "follow_up_of": a.follow_up_of, "shown_s": a.shown_s}
            for a in stored.asked
        ],
        "spoken": [
            {
                "id": s.id, "position": s.position, "question": s.question, "version": s.version, "key": s.key, "seed": s.seed,
                "inputs": dict(s.inputs), "lang": s.lang, "notes": s.notes, "at": iso(s.at_ms), "duration_ms": s.duration_ms,
                "levels": None if s.levels is None else list(s.levels), "graded": None if s.graded_ms is None else iso(s.graded_ms),
            }
            for s in stored.spoken
        ],
        "pushbacks": [_pushback_fields(p, iso) for p in stored.pushbacks],
    }  # fmt: skip


def exported_pushback(row: PushbackRow, format_version: int, iso: Callable[[int], str]) -> dict[str, Any]:
    """A challenge met outside a mock interview as an export record of its own."""
    return {"format": format_version, "record": PUSHBACK_RECORD, **_pushback_fields(row, iso)}


def _pushback_fields(p: PushbackRow, iso: Callable[[int], str]) -> dict[str, Any]:
    return {
        "id": p.id, "attempt": p.attempt, "question": p.question, "choice": p.choice, "response": p.response,
        "score": p.score, "verdict": p.verdict, "at": iso(p.at_ms), "duration_ms": p.duration_ms,
    }  # fmt: skip


def pushback_from_record(record: Mapping[str, Any]) -> PushbackRow:
    """The challenge met that a pushback record describes; BadMock if any field is wrong."""
    _fields(record, ("format", "record", *PUSHBACK_FIELDS), "the pushback record")
    return _pushback(None, {k: v for k, v in record.items() if k in PUSHBACK_FIELDS})


def mock_from_record(record: Mapping[str, Any]) -> StoredMock:
    """The sitting a record describes (its attempts travel as attempt records); BadMock if any field is wrong."""
    _fields(record, FIELDS, "the mock record", optional=OPTIONAL)
    mock_id = _text(record, "id")
    if record["feedback"] not in ("end", "each"):
        raise BadMock(f"feedback must be end or each, got {record['feedback']!r}")
    if record["status"] not in STATUSES:
        raise BadMock(f"status must be one of {', '.join(STATUSES)}, got {record['status']!r}")
    if not isinstance(record["options"], dict) or not isinstance(record["plan"], list) or not all(isinstance(q, dict) for q in record["plan"]):
        raise BadMock("options must be an object and plan a list of objects")
    for planned in record["plan"]:
        _fields(planned, ("question", "seed", "budget"), "a planned question")
        _text(planned, "question"), _int(planned, "seed"), _number(planned, "budget")
    row = MockRow(
        id=mock_id, key=_text(record, "key"), options=record["options"], plan=record["plan"], lang=_text(record, "lang"),
        feedback=record["feedback"], start_clock=_number(record, "start_clock"), start_wall=_number(record, "start_wall"),
        start_boot=_text(record, "start_boot", empty=True), started_ms=_time(record, "started"), status=record["status"],
        finished_ms=None if record["finished"] is None else _time(record, "finished"),
    )  # fmt: skip
    asked = tuple(_asked(mock_id, item) for item in _list(record, "asked"))
    spoken = tuple(_spoken(mock_id, item) for item in _list(record, "spoken"))
    met = tuple(_pushback(mock_id, item) for item in _list(record, "pushbacks")) if "pushbacks" in record else ()
    return StoredMock(row, asked, (), spoken, met)


def _asked(mock_id: str, item: Any) -> AskedRow:
    _fields(item, ASKED_FIELDS, "an asked question")
    follow = item["follow_up_of"]
    if follow is not None and not isinstance(follow, str):
        raise BadMock("follow_up_of must be a question id or null")
    position, question, seed = _int(item, "position"), _text(item, "question"), _int(item, "seed")
    return AskedRow(mock_id, position, question, seed, _number(item, "budget"), follow, _number(item, "shown_s"))


def _spoken(mock_id: str, item: Any) -> SpokenRow:
    _fields(item, SPOKEN_FIELDS, "a spoken answer")
    try:
        if str(uuid.UUID(item["id"])) != item["id"]:
            raise ValueError
    except (ValueError, TypeError, AttributeError):
        raise BadMock(f"a spoken answer's id must be a UUID, got {item['id']!r}") from None
    levels = item["levels"]
    if levels is not None and (not isinstance(levels, list) or not all(level in LEVELS for level in levels)):
        raise BadMock(f"levels must be a list of {', '.join(LEVELS)}, or null")
    if not isinstance(item["inputs"], dict) or (item["notes"] is not None and not isinstance(item["notes"], str)):
        raise BadMock("a spoken answer's inputs must be an object and its notes text or null")
    duration = item["duration_ms"]
    if duration is not None and (isinstance(duration, bool) or not isinstance(duration, int) or duration < 0):
        raise BadMock(f"duration_ms must be a non-negative integer or null, got {duration!r}")
    return SpokenRow(
        id=item["id"], mock=mock_id, position=_int(item, "position"), question=_text(item, "question"), version=_text(item, "version", empty=True),
        key=_text(item, "key"), seed=_int(item, "seed"), inputs=item["inputs"], lang=_text(item, "lang"), notes=item["notes"],
        at_ms=_time(item, "at"), duration_ms=duration, levels=None if levels is None else tuple(levels),
        graded_ms=None if item["graded"] is None else _time(item, "graded"),
    )  # fmt: skip


def _pushback(mock_id: str | None, item: Any) -> PushbackRow:
    _fields(item, PUSHBACK_FIELDS, "a pushback")
    for name in ("id", "attempt"):
        _uuid(item, name, "a pushback's")
    if item["choice"] not in CHOICES:
        raise BadMock(f"a pushback's choice must be hold or revise, got {item['choice']!r}")
    if item["verdict"] not in ("correct", "partial", "incorrect"):
        raise BadMock(f"a pushback's verdict must be correct, partial or incorrect, got {item['verdict']!r}")
    if item["response"] is not None and not isinstance(item["response"], str):
        raise BadMock("a pushback's response must be text or null")
    score = _number(item, "score")
    if not 0 <= score <= 1:
        raise BadMock(f"a pushback's score must be between 0 and 1, got {score!r}")
    duration = item["duration_ms"]
    if duration is not None and (isinstance(duration, bool) or not isinstance(duration, int) or duration < 0):
        raise BadMock(f"duration_ms must be a non-negative integer or null, got {duration!r}")
    return PushbackRow(
        id=item["id"], attempt=item["attempt"], mock=mock_id, question=_text(item, "question"), choice=item["choice"],
        response=item["response"], score=score, verdict=item["verdict"], at_ms=_time(item, "at"), duration_ms=duration,
    )  # fmt: skip


def _uuid(item: Mapping[str, Any], name: str, whose: str) -> None:
    try:
        if str(uuid.UUID(item[name])) != item[name]:
            raise ValueError
    except (ValueError, TypeError, AttributeError):
        raise BadMock(f"{whose} {name} must be a UUID, got {item[name]!r}") from None


def _fields(item: Any, names: tuple[str, ...], what: str, optional: tuple[str, ...] = ()) -> None:
    if not isinstance(item, dict):
        raise BadMock(f"{what} must be a JSON object")
    missing, unknown = set(names) - item.keys() - set(optional), item.keys() - set(names)
    if missing or unknown:
        said = [f"missing {', '.join(sorted(missing))}"] * bool(missing) + [f"unknown {', '.join(sorted(unknown))}"] * bool(unknown)
        raise BadMock(f"{what}: {'; '.join(said)}")


def _text(item: Mapping[str, Any], name: str, *, empty: bool = False) -> str:
    value = item[name]
    if not isinstance(value, str) or (not value and not empty):
        raise BadMock(f"{name} must be {'' if empty else 'non-empty '}text, got {value!r}")
    return value


def _int(item: Mapping[str, Any], name: str) -> int:
    value = item[name]
    if isinstance(value, bool) or not isinstance(value, int) or not -(2**63) <= value < 2**63:
        raise BadMock(f"{name} must be an integer, got {value!r}")
    return value


def _number(item: Mapping[str, Any], name: str) -> float:
    value = item[name]
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise BadMock(f"{name} must be a number, got {value!r}")
    return float(value)


def _list(item: Mapping[str, Any], name: str) -> list[Any]:
    value = item[name]
    if not isinstance(value, list):
        raise BadMock(f"{name} must be a list")
    return value


def _time(item: Mapping[str, Any], name: str) -> int:
    value = item[name]
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        moment = None
    if moment is None or moment.utcoffset() is None:
        raise BadMock(f"{name} must be an ISO 8601 time with a time zone, got {value!r}")
    return to_ms(moment)
