"""The bank: every question loaded, by id, with the claims they cite and the problems met loading.

The bank is where a question is looked up (by id or variant key, with close matches when the id
is unknown) and compiled once: sessions, commands and screens all ask it.
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from quiz.bank.questions import Questions
from quiz.bank.selection import Selection, SelectionError, resolve_selection
from quiz.base.fieldwise import Fieldwise, record
from quiz.format.claims import Claims
from quiz.format.diagnostics import Diagnostic, Location, Report
from quiz.format.model import QuestionBase, Text
from quiz.variants.keys import parse_key

if TYPE_CHECKING:
    from quiz.format.compile import CompiledQuestion


@record
class SkippedQuestion(Fieldwise):
    """A question (or a whole file, when `id` is None and the location has no line) not loaded."""

    location: Location
    id: str | None = None

    def __str__(self) -> str:
        return f"{self.location} ({self.id})" if self.id else str(self.location)


@dataclass
class Bank:
    """Questions by id in load order, the claims they cite, and what went wrong while loading."""

    questions: Questions = field(default_factory=Questions)
    claims: Claims = field(default_factory=Claims)
    report: Report = field(default_factory=Report)
    files: list[Path] = field(default_factory=list)
    rejected: list[QuestionBase] = field(default_factory=list)
    """Questions that broke a rule of the format (reported in `report`): kept out of practice."""
    skipped: list[SkippedQuestion] = field(default_factory=list)
    """Questions and files that could not be loaded or were rejected; `report` says why."""
    _compiled: dict[str, CompiledQuestion | None] = field(default_factory=dict, init=False, repr=False)
    _problems: dict[str, list[Diagnostic]] = field(default_factory=dict, init=False, repr=False)

    def __len__(self) -> int:
        return len(self.questions)

    def close_ids(self, question_id: str, n: int = 3) -> list[str]:
        """The ids that look most like `question_id`, for "did you mean"."""
        return difflib.get_close_matches(question_id, list(self.questions), n=n, cutoff=0.5)

    def find(self, key: str) -> tuple[QuestionBase, int | None]:
        """The question a key (`id` or `id#seed`) names, and its seed; SelectionError if none."""
        try:
            question_id, seed = parse_key(key)
        except ValueError:
            raise SelectionError("bad_key", key=key) from None
        question = self.questions.get(question_id)
        if question is None:
            close = self.close_ids(question_id)
            if close:
                raise SelectionError("unknown_question_close", id=question_id, close=", ".join(close))
            raise SelectionError("unknown_question", id=question_id)
        return question, seed

    def select(self, selection: Selection) -> list[str]:
        """The ids `selection` picks, in load order; SelectionError if it names what the bank lacks."""
        selection = resolve_selection(self.claims, selection)
        if selection.key is not None:
            return [self.find(selection.key)[0].id]
        if selection.ids:
            named = [self.find(i)[0] for i in selection.ids]
            return [q.id for q in named if selection.matches(q)]
        return [q.id for q in self.questions.values() if selection.matches(q)]

    def compiled(self, question_id: str) -> CompiledQuestion | None:
        """The question compiled (once), or None when it has errors (see `problems`)."""
        if question_id not in self._compiled:
            # Imported here, not at start-up: the checks bring the expression language, and with
            # it numpy and the engine, which listing or looking up a question does not need.
            from quiz.format.checks import check_question

            report = Report()
            self._compiled[question_id] = check_question(self.questions[question_id], self.claims, report)
            self._problems[question_id] = report.errors
        return self._compiled[question_id]

    def problems(self, question_id: str) -> list[Diagnostic]:
        """The errors that stopped `question_id` compiling (empty once it compiled)."""
        self.compiled(question_id)
        return self._problems[question_id]

    def mistake_labels(self) -> dict[str, Text]:
        """Each named mistake's label as learners read it (misconceptions and critical pairs);
        where questions label the same mistake differently, the label most of them give."""
        found: dict[str, Counter[Text]] = {}
        for question in self.questions.values():
            for mistake in (*getattr(question, "misconceptions", ()), *getattr(question, "critical", ())):
                if mistake.label is not None:
                    found.setdefault(mistake.name, Counter())[mistake.label] += 1
        return {name: labels.most_common(1)[0][0] for name, labels in found.items()}
