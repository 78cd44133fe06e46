"""Compiler-style messages about question files: `path:line:col: severity: message`."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Location:
    """A place in a source file; line and column are 1-based, as editors count."""

    path: Path
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if not self.line:
            return str(self.path)
        return f"{self.path}:{self.line}:{self.column}" if self.column else f"{self.path}:{self.line}"


@dataclass(frozen=True, slots=True)
class Diagnostic:
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


@dataclass
class Report:
    """Diagnostics collected while loading or checking, in the order they were found."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def error(self, location: Location, message: str) -> None:
        self.diagnostics.append(Diagnostic(location, Severity.ERROR, message))

    def warning(self, location: Location, message: str) -> None:
        self.diagnostics.append(Diagnostic(location, Severity.WARNING, message))

    def extend(self, other: Report) -> None:
        self.diagnostics.extend(other.diagnostics)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity is Severity.WARNING]


class QuestionReport(Report):
    """A view of a report that names one question in each message (`softmax-two: ...`), so a
    file holding a list of questions says which one a problem is about."""

    def __init__(self, report: Report, question_id: object) -> None:
        super().__init__(report.diagnostics)  # shared: what is reported here is in `report`
        self.prefix = f"{question_id}: " if isinstance(question_id, str) and question_id else ""

    def error(self, location: Location, message: str) -> None:
        super().error(location, self.prefix + message)

    def warning(self, location: Location, message: str) -> None:
        super().warning(location, self.prefix + message)
