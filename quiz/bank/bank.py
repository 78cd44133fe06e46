"""The bank: every question loaded, by id, with the claims they cite and the problems met loading."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from quiz.format.claims import Claims
from quiz.format.diagnostics import Report
from quiz.format.model import QuestionBase


@dataclass
class Bank:
    """Questions by id in load order, the claims they cite, and what went wrong while loading."""

    questions: dict[str, QuestionBase] = field(default_factory=dict)
    claims: Claims = field(default_factory=Claims)
    report: Report = field(default_factory=Report)
    files: list[Path] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.questions)
