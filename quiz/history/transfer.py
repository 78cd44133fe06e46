"""Export and import of the attempts: JSON Lines or CSV, one attempt a record.

Each record carries the format version. CSV starts with a byte-order mark so spreadsheets read
the Japanese in it as UTF-8. Import is all or nothing: every record is checked first, a bad one
is reported with its line number and nothing is added; attempts already present (by id) are
skipped, so importing a file twice adds nothing. The cards the new attempts touch are rebuilt.
A JSON Lines export also carries each mock interview sitting, one record after the attempts
(see `quiz.history.mock_transfer`); sittings already present (by id) are kept as they are.

An export may come from anyone, so reading it is bounded before anything is parsed: a regular
file of at most `MAX_IMPORT_BYTES`, a record of at most `MAX_RECORD_CHARS`, inputs nested at
most `MAX_INPUT_DEPTH` deep; a problem quotes at most `MAX_PROBLEM_CHARS` of what it found.
Texts in a record (a response) are stored as written: what prints them strips control
characters on the way to the terminal (see `quiz.base.terminal_text`).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from datetime import MAXYEAR, UTC, datetime
from pathlib import Path
from typing import Any, Final, TextIO

from quiz.base.bounded_read import UnreadableFile, read_bounded
from quiz.base.terminal_text import visible_controls
from quiz.history.mock_transfer import PUSHBACK_RECORD, RECORD, BadMock, exported_mock, exported_pushback, mock_from_record, pushback_from_record
from quiz.history.mocks import MockRow, StoredMock
from quiz.history.pushbacks import PushbackRow
from quiz.history.records import AttemptRecord, canonical_json, problems, to_ms
from quiz.history.scheduling import PASS_MARK, at_datetime
from quiz.history.store import History

FORMAT_VERSION: Final = 1
FORMATS: Final = ("jsonl", "csv")
FIELDS: Final = (
    "format", "id", "at", "question", "version", "key", "seed", "inputs", "lang", "mode", "mock",
    "response", "score", "verdict", "misconception", "hints", "revealed", "duration_ms", "easy", "topic", "claims",
)  # fmt: skip
PLACING: Final = ("topic", "claims")
"""Fields an export written before the history kept them (quiz history v4) lacks: they import as unknown."""
BOM: Final = "\ufeff"
FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r", "'")
"""What makes a spreadsheet read a CSV cell as a formula (CSV injection), and the quote that marks one
neutralised."""
MAX_IMPORT_BYTES: Final = 256 * 2**20
"""Largest file imported: about half a million attempts, more than years of daily practice."""
MAX_RECORD_CHARS: Final = 2**20
"""Longest record (one JSON line): a variant's inputs hold at most 16,384 numbers."""
MAX_INPUT_DEPTH: Final = 8
"""Deepest nesting of a record's inputs: a parameter has at most four dimensions."""
LAST_YEAR: Final = 9000
"""Latest year (UTC) an attempt may be dated: the scheduler adds intervals of up to a century to it."""
MAX_PROBLEM_CHARS: Final = 300
"""Longest problem message: a value quoted in it may be as long as a record."""


class ImportProblem(Exception):
    """A record that cannot be imported, with the line it starts on; nothing was imported."""

    def __init__(self, line: int, message: str) -> None:
        if len(message) > MAX_PROBLEM_CHARS:
            message = message[: MAX_PROBLEM_CHARS - 1] + "…"
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True)
class ImportReport:
    added: int
    already_present: int


def iso_utc(at_ms: int) -> str:
    """UTC epoch milliseconds as ISO 8601 with a Z: 2025-06-15T15:06:40.000Z."""
    return at_datetime(at_ms).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def exported(attempt: AttemptRecord, easy: bool) -> dict[str, Any]:
    """One attempt as an export record (field order as FIELDS)."""
    return {
        "format": FORMAT_VERSION, "id": attempt.id, "at": iso_utc(attempt.at_ms), "question": attempt.question,
        "version": attempt.version, "key": attempt.key, "seed": attempt.seed, "inputs": attempt.inputs,
        "lang": attempt.lang, "mode": attempt.mode, "mock": attempt.mock, "response": attempt.response,
        "score": attempt.score, "verdict": attempt.verdict, "misconception": attempt.misconception,
        "hints": attempt.hints, "revealed": attempt.revealed, "duration_ms": attempt.duration_ms, "easy": easy,
        "topic": attempt.topic, "claims": None if attempt.claims is None else list(attempt.claims),
    }  # fmt: skip


def export(history: History, out: TextIO, fmt: str, *, terminal: bool = False) -> int:
    """Write every attempt, oldest first, to `out` (UTF-8; opened with newline="" for CSV).

    With `terminal` (the output is one), control characters in the records (ESC, OSC, a lone
    carriage return) are written as visible escapes, never raw, and CSV rows end in a bare line feed.
    """
    records = (exported(attempt, easy) for attempt, easy in history.attempts_with_marks())
    shown = visible_controls if terminal else str
    count = 0
    if fmt == "jsonl":
        for record in records:
            out.write(shown(json.dumps(record, ensure_ascii=False, allow_nan=False)) + "\n")
            count += 1
        for row in history.mocks():
            stored = history.mock(row.id)
            if stored is not None:
                out.write(shown(json.dumps(exported_mock(stored, FORMAT_VERSION, iso_utc), ensure_ascii=False, allow_nan=False)) + "\n")
        for met in history.practice_pushbacks():
            out.write(shown(json.dumps(exported_pushback(met, FORMAT_VERSION, iso_utc), ensure_ascii=False, allow_nan=False)) + "\n")
        return count
    out.write(BOM)
    writer = csv.writer(out, lineterminator="\n" if terminal else "\r\n")
    writer.writerow(FIELDS)
    for record in records:
        writer.writerow([shown(_neutralised(_csv_cell(name, record[name]))) for name in FIELDS])
        count += 1
    return count


def _neutralised(cell: str) -> str:
    """`cell` as a spreadsheet takes it for text, never a formula: one beginning with = + - @, a tab
    or a carriage return (or with the quote that marks this) gets a leading ' that import removes."""
    return "'" + cell if cell.startswith(FORMULA_STARTS) else cell


def _unneutralised(cell: str) -> str:
    return cell[1:] if cell.startswith("'") else cell


MockCheck = Callable[[MockRow], object]
"""Reads a sitting's options and plan back as a resume would, raising ValueError when it cannot: the
mock interview's own rules, which the history does not know (quiz.mock.sitting.plan_from_json)."""


def import_file(history: History, path: Path, *, check_mock: MockCheck | None = None) -> ImportReport:
    """Import a JSON Lines or CSV export (told apart by its first character) all or nothing.

    Raises ImportProblem for a bad record (with its line) or an unreadable file, and for a mock
    interview whose options or plan `check_mock` refuses."""
    records: list[tuple[AttemptRecord, bool]] = []
    mocks: list[StoredMock] = []
    met: list[PushbackRow] = []
    for item in _records(path, check_mock):
        if isinstance(item, StoredMock):
            mocks.append(item)
        elif isinstance(item, PushbackRow):
            met.append(item)
        else:
            records.append(item)
    added, present = history.add_attempts(records, mocks, met)
    return ImportReport(added, present)


def read_attempts(path: Path) -> list[AttemptRecord]:
    """The attempts of an export file, checked as an import checks them (ImportProblem), without
    adding them to any history: item analysis reads a cohort's exports this way."""
    return [item[0] for item in _records(path, None) if isinstance(item, tuple)]


def _records(path: Path, check_mock: MockCheck | None) -> Iterator[tuple[AttemptRecord, bool] | StoredMock | PushbackRow]:
    """Every record of a JSON Lines or CSV export (told apart by its first character), checked."""
    try:
        text = read_bounded(path, MAX_IMPORT_BYTES).decode("utf-8-sig")
    except UnreadableFile as exc:
        raise ImportProblem(1, f"the file cannot be imported: {exc}") from None
    except UnicodeDecodeError as exc:
        raise ImportProblem(1, f"the file is not UTF-8 text ({exc.reason})") from None
    if not text.strip():
        return iter(())
    return _jsonl(text, check_mock) if text.lstrip().startswith("{") else _csv(text)


def _csv_cell(name: str, value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if name in ("inputs", "claims"):
        return canonical_json(value)
    return repr(value) if isinstance(value, float) else str(value)


def _jsonl(text: str, check_mock: MockCheck | None) -> Iterator[tuple[AttemptRecord, bool] | StoredMock | PushbackRow]:
    # Only a line feed ends a record: JSON escapes it inside strings, but not U+2028 and the like.
    for line, content in enumerate(text.split("\n"), 1):
        if not content.strip():
            continue
        if len(content) > MAX_RECORD_CHARS:
            raise ImportProblem(line, f"the record is {len(content):,} characters long; the limit is {MAX_RECORD_CHARS:,}")
        record = _json(line, content, "not a JSON record")
        if not isinstance(record, dict):
            raise ImportProblem(line, "a record must be a JSON object")
        surrogate = _lone_surrogate(record)
        if surrogate is not None:
            raise ImportProblem(line, f"{surrogate} holds a lone surrogate (an escape such as \\ud800 that is half of a character): it is not text")
        if record.get("record") == PUSHBACK_RECORD:
            yield _pushback(line, record)
        else:
            yield _mock(line, record, check_mock) if "record" in record else _attempt(line, record)


def _csv(text: str) -> Iterator[tuple[AttemptRecord, bool]]:
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, None)
        if header is None or sorted(header) not in (sorted(FIELDS), sorted(set(FIELDS) - set(PLACING))):
            raise ImportProblem(1, f"the first line must name the columns: {','.join(FIELDS)}")
        start = reader.line_num + 1
        for row in reader:
            if len(row) != len(header):
                raise ImportProblem(start, f"expected {len(header)} cells, found {len(row)}")
            yield _attempt(start, _from_cells(start, dict(zip(header, map(_unneutralised, row)))))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise ImportProblem(reader.line_num, f"malformed CSV ({exc})") from None


def _from_cells(line: int, cells: Mapping[str, str]) -> dict[str, Any]:
    """CSV cells as the values a JSON record would hold (an empty optional text is null)."""
    record: dict[str, Any] = {name: cells[name] for name in ("id", "at", "question", "version", "key", "lang", "mode", "verdict")}
    record |= {name: cells[name] or None for name in ("mock", "response", "misconception")}
    try:
        record["format"] = int(cells["format"])
        record["seed"] = int(cells["seed"])
        record["hints"] = int(cells["hints"])
        record["score"] = float(cells["score"])
        record["duration_ms"] = int(cells["duration_ms"]) if cells["duration_ms"] else None
    except ValueError as exc:
        raise ImportProblem(line, f"a number cannot be read ({exc})") from None
    record["inputs"] = _json(line, cells["inputs"], "the inputs cannot be read")
    if "topic" in cells:  # an export written before the history kept topics has neither column
        record["topic"] = cells["topic"] or None
        record["claims"] = _json(line, cells["claims"], "the claims cannot be read") if cells["claims"] else None
    for name in ("revealed", "easy"):
        if cells[name] not in ("true", "false"):
            raise ImportProblem(line, f"{name} must be true or false, got {cells[name]!r}")
        record[name] = cells[name] == "true"
    return record


def _attempt(line: int, record: Mapping[str, Any]) -> tuple[AttemptRecord, bool]:
    if record.get("format") != FORMAT_VERSION:
        raise ImportProblem(line, f"format {record.get('format')!r} is not one this quiz reads (it reads format {FORMAT_VERSION})")
    missing, unknown = set(FIELDS) - set(PLACING) - record.keys(), record.keys() - set(FIELDS)
    if missing or unknown:
        what = [f"missing {', '.join(sorted(missing))}"] * bool(missing) + [f"unknown {', '.join(sorted(unknown))}"] * bool(unknown)
        raise ImportProblem(line, "; ".join(what))
    if not isinstance(record["at"], str):
        raise ImportProblem(line, "at must be an ISO 8601 time")
    try:
        at = datetime.fromisoformat(record["at"])
    except ValueError:
        raise ImportProblem(line, f"at {record['at']!r} is not an ISO 8601 time") from None
    if at.utcoffset() is None:
        raise ImportProblem(line, f"at {record['at']!r} has no time zone")
    try:
        year = at.astimezone(UTC).year
    except OverflowError:  # past 9999-12-31 once moved to UTC
        year = MAXYEAR + 1
    if year > LAST_YEAR:
        raise ImportProblem(line, f"at {record['at']!r} is after the year {LAST_YEAR} in UTC: no attempt was made then")
    if _depth(record["inputs"]) > MAX_INPUT_DEPTH:
        raise ImportProblem(line, f"the inputs are nested more than {MAX_INPUT_DEPTH} levels deep")
    fields = {name: record[name] for name in FIELDS if name not in ("format", "at", "easy", *PLACING)}
    claims = record.get("claims")  # a list in JSON; anything else is for `problems` to name
    attempt = AttemptRecord(at_ms=to_ms(at), **fields, topic=record.get("topic"), claims=tuple(claims) if isinstance(claims, list) else claims)
    found = problems(attempt)
    if not isinstance(record["easy"], bool):
        found.append(f"easy must be true or false, got {record['easy']!r}")
    elif record["easy"] and not found and attempt.score < PASS_MARK:
        found.append("an attempt below the pass mark cannot be marked easy")
    if found:
        raise ImportProblem(line, "; ".join(found))
    return attempt, record["easy"]


def _mock(line: int, record: Mapping[str, Any], check_mock: MockCheck | None) -> StoredMock:
    if record.get("format") != FORMAT_VERSION:
        raise ImportProblem(line, f"format {record.get('format')!r} is not one this quiz reads (it reads format {FORMAT_VERSION})")
    if record["record"] != RECORD:
        raise ImportProblem(line, f"record {record['record']!r} is not one this quiz reads (attempts, {RECORD} and {PUSHBACK_RECORD})")
    if any(_depth(value) > MAX_INPUT_DEPTH + 2 for value in record.values()):
        raise ImportProblem(line, f"the mock record is nested more than {MAX_INPUT_DEPTH + 2} levels deep")
    try:
        stored = mock_from_record(record)
    except BadMock as exc:
        raise ImportProblem(line, str(exc)) from None
    if check_mock is not None:
        try:
            check_mock(stored.row)
        except ValueError as exc:
            raise ImportProblem(line, f"the mock interview {stored.row.key} cannot be resumed or reported: {exc}") from None
    return stored


def _pushback(line: int, record: Mapping[str, Any]) -> PushbackRow:
    if record.get("format") != FORMAT_VERSION:
        raise ImportProblem(line, f"format {record.get('format')!r} is not one this quiz reads (it reads format {FORMAT_VERSION})")
    try:
        return pushback_from_record(record)
    except BadMock as exc:
        raise ImportProblem(line, str(exc)) from None


def _json(line: int, text: str, what: str) -> Any:
    """`text` parsed as JSON, or ImportProblem saying `what` (nesting too deep for the parser included)."""
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except (json.JSONDecodeError, ValueError) as exc:  # ValueError: a NaN, or an integer of too many digits
        raise ImportProblem(line, f"{what} ({exc})") from None
    except RecursionError:
        raise ImportProblem(line, f"{what} (nested too deeply)") from None


def _lone_surrogate(record: Mapping[str, Any]) -> str | None:
    """The field of `record` holding a lone surrogate in its name, a text or a nested key, or None.

    JSON may escape half of a character pair; SQLite, files and terminals cannot store or show it."""
    for name, value in record.items():
        if not _encodable(name):
            return "a field name"
        stack = [value]
        while stack:
            item = stack.pop()
            if isinstance(item, str) and not _encodable(item):
                return name
            if isinstance(item, dict):
                if not all(_encodable(key) for key in item):
                    return name
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
    return None


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _depth(value: object) -> int:
    """How deeply lists and objects nest in `value` (a number or a text is 0), without recursing."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth + 1)
            if deepest > MAX_INPUT_DEPTH:
                return deepest
            stack.extend((inner, depth + 1) for inner in (item.values() if isinstance(item, dict) else item))
    return deepest


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")
