"""The claims the bank covers and the topics they belong to (`questions/claims.yaml`)."""

from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import ClassVar

from quiz.base.fieldwise import Fieldwise, record
from quiz.format.convert import converter_for
from quiz.format.diagnostics import Location, Report, SourceError
from quiz.format.marks import Where
from quiz.format.scalars import INVALID
from quiz.format.suggest import did_you_mean
from quiz.format.yaml_data import YamlList, YamlMap
from quiz.format.yaml_source import parse_yaml, read_source

CLAIMS_FILE = "claims.yaml"


@record(kw_only=True)
class Labelled(Fieldwise):
    """An id with a one-line label in English and Japanese."""

    id: str
    en: str
    ja: str

    def label(self, lang: str) -> str:
        """The label in `lang` (English for any language but Japanese)."""
        return self.ja if lang == "ja" else self.en


@record(kw_only=True)
class Topic(Labelled):
    """A topic learners can practise by; its label is the topic's name."""

    yaml_label: ClassVar[str] = "topic"


@record(kw_only=True)
class Claim(Labelled):
    """One numbered fact from the source notes (A–G) or beyond them (X); its label summarises it."""

    yaml_label: ClassVar[str] = "claim"
    topic: str


@record(slots=True, kw_only=True)
class ClaimsFile(Fieldwise):
    yaml_label: ClassVar[str] = "claims file"
    topics: tuple[Topic, ...]
    claims: tuple[Claim, ...]


@record
class Claims(Fieldwise):
    """Topics and claims by id, in file order."""

    topics: dict[str, Topic] = field(default_factory=dict)
    claims: dict[str, Claim] = field(default_factory=dict)


def load_claims(path: Path, report: Report) -> Claims:
    """Read the claims file; problems go to `report` and yield an empty or partial list."""
    try:
        raw = read_source(path)
    except SourceError as exc:
        report.add(exc.diagnostic())
        return Claims()
    return parse_claims(raw, path, report)


def parse_claims(raw: bytes, path: Path, report: Report) -> Claims:
    """The claims in the bytes read from `path`, as `load_claims` reads them."""
    try:
        data = parse_yaml(raw, path)
    except SourceError as exc:
        report.add(exc.diagnostic())
        return Claims()
    where = Where(path, data.mark if isinstance(data, YamlMap) else (1, 1), "")
    parsed = converter_for(ClaimsFile)(data, where, report)
    if parsed is INVALID:
        return Claims()
    assert isinstance(parsed, ClaimsFile) and isinstance(data, YamlMap)
    claims = Claims({t.id: t for t in parsed.topics}, {c.id: c for c in parsed.claims})
    entries = data["claims"]
    assert isinstance(entries, YamlList)  # the conversion above succeeded
    for claim, mark in zip(parsed.claims, entries.marks):
        if claim.topic not in claims.topics:
            hint = did_you_mean(claim.topic, list(claims.topics))
            report.error(Location(path, *mark), f"claim {claim.id}: unknown topic '{claim.topic}'{hint}")
    return claims
