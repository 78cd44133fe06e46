"""What loading one file gives: its problems and its questions, as events in the order met.

A file's outcome depends on its content and path alone, so the bank cache can keep it by them;
`apply` replays it into the bank, where the file meets the others (an id defined twice) and the
report's limit per file. A cold load replays the events it has just recorded, a warm one those
the cache kept: one path, so both give the same bank.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from quiz.bank.bank import Bank, SkippedQuestion
from quiz.bank.questions import Deferred
from quiz.base.fieldwise import Fieldwise, record
from quiz.format.claims import Claims
from quiz.format.diagnostics import Diagnostic, Location, Report, Severity
from quiz.format.model import QuestionBase
from quiz.format.suggest import did_you_mean


@record
class Problem(Fieldwise):
    """A diagnostic listed in the report."""

    diagnostic: Diagnostic


@record
class Unlisted(Fieldwise):
    """Problems past the file's listed share: only counted (see `Report`)."""

    path: Path
    severity: Severity
    count: int


@record
class Found(Fieldwise):
    """A question that loaded: it joins the bank unless another file took its id first. From the
    bank cache it comes deferred, built when first used."""

    question: QuestionBase | Deferred


@record
class Rejected(Fieldwise):
    """A question that broke a rule of the format: kept for `quiz validate`, out of practice."""

    question: QuestionBase
    skipped: SkippedQuestion


@record
class Skipped(Fieldwise):
    """A question or a whole file that could not be loaded."""

    skipped: SkippedQuestion


@record
class Declared(Fieldwise):
    """The topics and claims a pack declares of its own (namespaced), at its `pack:` key."""

    claims: Claims
    location: Location


Event = Problem | Unlisted | Found | Rejected | Skipped | Declared


class FileOutcome(Report):
    """The report of loading one file, also keeping what happened as events, in order."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[Event] = []
        self.cacheable = True
        """False when the outcome depends on more than the file (memory ran out reading it)."""

    def add(self, diagnostic: Diagnostic) -> None:
        path = diagnostic.location.path
        if self.is_full(path):
            self.count_unlisted(path, diagnostic.severity, 1)
        else:
            self.events.append(Problem(diagnostic))
            super().add(diagnostic)

    def count_unlisted(self, path: Path, severity: Severity, count: int) -> None:
        last = self.events[-1] if self.events else None
        if isinstance(last, Unlisted) and last.path == path and last.severity is severity:
            self.events[-1] = Unlisted(path, severity, last.count + count)
        else:
            self.events.append(Unlisted(path, severity, count))
        super().count_unlisted(path, severity, count)

    def found(self, question: QuestionBase) -> None:
        self.events.append(Found(question))

    def rejected(self, question: QuestionBase, skipped: SkippedQuestion) -> None:
        self.events.append(Rejected(question, skipped))

    def skipped(self, skipped: SkippedQuestion) -> None:
        self.events.append(Skipped(skipped))

    def declared(self, claims: Claims, location: Location) -> None:
        self.events.append(Declared(claims, location))


def apply(events: Iterable[Event], bank: Bank) -> None:
    """Add one file's outcome to the bank, in the order it happened."""
    for event in events:
        if isinstance(event, Problem | Unlisted):
            report_problems([event], bank.report)
        elif isinstance(event, Found):
            _add(bank, event.question)
        elif isinstance(event, Rejected):
            bank.rejected.append(event.question)
            bank.skipped.append(event.skipped)
        elif isinstance(event, Declared):
            _declare(bank, event)
        else:
            bank.skipped.append(event.skipped)


def report_problems(events: Iterable[Event], report: Report) -> None:
    """Add the problems among `events` to `report` (a claims file's outcome holds nothing else)."""
    for event in events:
        if isinstance(event, Problem):
            report.add(event.diagnostic)
        elif isinstance(event, Unlisted):
            report.count_unlisted(event.path, event.severity, event.count)


def _declare(bank: Bank, event: Declared) -> None:
    """Add a pack's own topics and claims to the bank's: each id once, each claim's topic known
    (the pack's own, the bundled bank's, or one a pack loaded before declared)."""
    topics, claims = dict(bank.claims.topics), dict(bank.claims.claims)
    for kind, mine, known in (("topic", event.claims.topics, topics), ("claim", event.claims.claims, claims)):
        for name, entry in mine.items():
            if name in known:
                bank.report.error(event.location, f"pack {kind} '{name}' is declared twice: another file of the pack declared it first")
            else:
                known[name] = entry  # type: ignore[assignment]  # a Topic into topics, a Claim into claims
    for claim in event.claims.claims.values():
        if claim.topic not in topics:
            hint = did_you_mean(claim.topic, list(topics))
            bank.report.error(event.location, f"pack claim '{claim.id}': unknown topic '{claim.topic}'{hint}")
    bank.claims = Claims(topics, claims)


def _add(bank: Bank, question: QuestionBase | Deferred) -> None:
    if question.id not in bank.questions:
        if isinstance(question, Deferred):
            bank.questions.defer(question)
        else:
            bank.questions[question.id] = question
        return
    try:  # both built, for the message
        again = question.build() if isinstance(question, Deferred) else question
        first = bank.questions[question.id]
    except KeyError:  # a cache entry named a question its pack does not hold: there is no clash
        return
    where = again.source or Location(Path("?"))
    bank.report.error(where, f"question id '{again.id}' is defined twice: first at {first.source}, again here")
    bank.skipped.append(SkippedQuestion(where, again.id))
