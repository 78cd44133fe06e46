"""Compiler-style messages about question files: `path:line:col: severity: message`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Final

from quiz.base.fieldwise import Fieldwise, record


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@record(slots=True)
class Location(Fieldwise):
    """A place in a source file; line and column are 1-based, as editors count."""

    path: Path
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if not self.line:
            return str(self.path)
        return f"{self.path}:{self.line}:{self.column}" if self.column else f"{self.path}:{self.line}"


@record(slots=True)
class Diagnostic(Fieldwise):
    """One error or warning about a question file."""

    location: Location
    severity: Severity
    message: str

    def __str__(self) -> str:
        return f"{self.location}: {self.severity}: {self.message}"

    def as_json(self) -> dict[str, object]:
        """A plain mapping for `--format json`."""
        return {
            "path": str(self.location.path),
            "line": self.location.line,
            "column": self.location.column,
            "severity": str(self.severity),
            "message": self.message,
        }


class SourceError(Exception):
    """A problem that stops one file from loading; carries where it happened."""

    def __init__(self, location: Location, message: str) -> None:
        super().__init__(f"{location}: error: {message}")
        self.location = location
        self.message = message

    def diagnostic(self) -> Diagnostic:
        return Diagnostic(self.location, Severity.ERROR, self.message)


MAX_MESSAGES_PER_FILE: Final = 20
"""Most diagnostics listed for one file; the rest are counted, so a flood stays readable."""


class Report:
    """Diagnostics collected while loading or checking, in the order they were found.

    At most `MAX_MESSAGES_PER_FILE` are kept for each file; past that they are only counted,
    and `diagnostics` ends with one line per such file saying how many more it has.
    """

    def __init__(self) -> None:
        self._listed: list[Diagnostic] = []
        self._per_file: Counter[Path] = Counter()
        self._hidden: dict[Path, Counter[Severity]] = {}

    def add(self, diagnostic: Diagnostic) -> None:
        """Keep `diagnostic`, or only count it when its file already has its share listed."""
        path = diagnostic.location.path
        if self._per_file[path] >= MAX_MESSAGES_PER_FILE:
            self._hidden.setdefault(path, Counter())[diagnostic.severity] += 1
            return
        self._per_file[path] += 1
        self._listed.append(diagnostic)

    def error(self, location: Location, message: str) -> None:
        self.add(Diagnostic(location, Severity.ERROR, message))

    def warning(self, location: Location, message: str) -> None:
        self.add(Diagnostic(location, Severity.WARNING, message))

    def extend(self, other: Report) -> None:
        for diagnostic in other._listed:
            self.add(diagnostic)
        for path, counts in other._hidden.items():
            for severity, count in counts.items():
                self.count_unlisted(path, severity, count)

    def count_unlisted(self, path: Path, severity: Severity, count: int) -> None:
        """Count `count` problems at `path` without listing them, as those past its listed share."""
        self._hidden.setdefault(path, Counter())[severity] += count

    def is_full(self, path: Path) -> bool:
        """True once `path` has its share listed: further problems there are only counted."""
        return self._per_file[path] >= MAX_MESSAGES_PER_FILE

    def restricted(self, keep: Callable[[Path], bool]) -> Report:
        """A copy of this report with only the problems of the files `keep` is true of."""
        kept = Report()
        kept._listed = [d for d in self._listed if keep(d.location.path)]
        kept._per_file = Counter({path: n for path, n in self._per_file.items() if keep(path)})
        kept._hidden = {path: Counter(counts) for path, counts in self._hidden.items() if keep(path)}
        return kept

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """The listed diagnostics, then one per file over the limit saying how many more it has."""
        return [*self._listed, *(self._more(path, counts) for path, counts in self._hidden.items())]

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]

    @property
    def error_count(self) -> int:
        """Every error found, listed or only counted."""
        return sum(d.severity is Severity.ERROR for d in self._listed) + sum(c[Severity.ERROR] for c in self._hidden.values())

    @property
    def warning_count(self) -> int:
        """Every warning found, listed or only counted."""
        return sum(d.severity is Severity.WARNING for d in self._listed) + sum(c[Severity.WARNING] for c in self._hidden.values())

    @staticmethod
    def _more(path: Path, counts: Counter[Severity]) -> Diagnostic:
        severity = Severity.ERROR if counts[Severity.ERROR] else Severity.WARNING
        total = sum(counts.values())
        return Diagnostic(
            Location(path),
            severity,
            f"{total:,} more problems in this file are not listed (the first {MAX_MESSAGES_PER_FILE} are)",
        )


class QuestionReport(Report):
    """A view of a report that names one question in each message (`softmax-two: ...`), so a
    file holding a list of questions says which one a problem is about."""

    def __init__(self, report: Report, question_id: object) -> None:
        super().__init__()
        self._target = report  # what is reported here goes to `report`, and is counted there
        self.prefix = f"{question_id}: " if isinstance(question_id, str) and question_id else ""

    def add(self, diagnostic: Diagnostic) -> None:
        self._target.add(Diagnostic(diagnostic.location, diagnostic.severity, self.prefix + diagnostic.message))

    def extend(self, other: Report) -> None:
        self._target.extend(other)

    def count_unlisted(self, path: Path, severity: Severity, count: int) -> None:
        self._target.count_unlisted(path, severity, count)

    def is_full(self, path: Path) -> bool:
        return self._target.is_full(path)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self._target.diagnostics

    @property
    def error_count(self) -> int:
        return self._target.error_count

    @property
    def warning_count(self) -> int:
        return self._target.warning_count
