"""The claims the bank covers and the topics they belong to (`questions/claims.yaml`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from quiz.diagnostics import Location, Report, SourceError
from quiz.format.convert import INVALID, Where, converter_for
from quiz.format.yaml_source import YamlMap, read_yaml_file

CLAIMS_FILE = "claims.yaml"


@dataclass(frozen=True, slots=True, kw_only=True)
class Topic:
    """A topic learners can practise by."""

    yaml_label: ClassVar[str] = "topic"
    id: str
    en: str
    ja: str

    def name(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en


@dataclass(frozen=True, slots=True, kw_only=True)
class Claim:
    """One numbered fact from the source notes (A–G) or beyond them (X), summarised in a line."""

    yaml_label: ClassVar[str] = "claim"
    id: str
    topic: str
    en: str
    ja: str

    def summary(self, lang: str) -> str:
        return self.ja if lang == "ja" else self.en


@dataclass(frozen=True, slots=True, kw_only=True)
class ClaimsFile:
    yaml_label: ClassVar[str] = "claims file"
    topics: tuple[Topic, ...]
    claims: tuple[Claim, ...]


@dataclass(frozen=True)
class Claims:
    """Topics and claims by id, in file order."""

    topics: dict[str, Topic] = field(default_factory=dict)
    claims: dict[str, Claim] = field(default_factory=dict)


def load_claims(path: Path, report: Report) -> Claims:
    """Read the claims file; problems go to `report` and yield an empty or partial list."""
    try:
        data = read_yaml_file(path)
    except SourceError as exc:
        report.diagnostics.append(exc.diagnostic())
        return Claims()
    where = Where(path, data.mark if isinstance(data, YamlMap) else (1, 1), "")
    parsed = converter_for(ClaimsFile)(data, where, report)
    if parsed is INVALID:
        return Claims()
    assert isinstance(parsed, ClaimsFile)
    claims = Claims({t.id: t for t in parsed.topics}, {c.id: c for c in parsed.claims})
    for claim in parsed.claims:
        if claim.topic not in claims.topics:
            report.error(Location(path), f"claim {claim.id}: unknown topic '{claim.topic}'")
    return claims
