"""The claims the bank covers and the topics they belong to (`questions/claims.yaml`), and those
a pack declares of its own under its `pack:` key, namespaced by the pack's name (`rope:R1`)."""

from __future__ import annotations

import re
from dataclasses import field, replace
from pathlib import Path
from typing import ClassVar

from quiz.base.fieldwise import Fieldwise, record
from quiz.format.convert import converter_for
from quiz.format.diagnostics import Location, Report, SourceError
from quiz.format.marks import Where
from quiz.format.model import doc
from quiz.format.scalars import INVALID
from quiz.format.suggest import did_you_mean
from quiz.format.yaml_data import YamlList, YamlMap
from quiz.format.yaml_source import parse_yaml, read_source

CLAIMS_FILE = "claims.yaml"
NAMESPACE = ":"
"""Between a pack's name and the id of one of its own claims or topics: `rope:R1`."""
PACK_NAME = re.compile(r"[a-z][a-z0-9_-]{0,39}")
OWN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")


@record(kw_only=True)
class Labelled(Fieldwise):
    """An id with a one-line label in English and Japanese."""

    id: str = field(metadata=doc("Its id; a pack's own is written bare and cited with the pack's name (`rope:R1`)."))
    en: str = field(metadata=doc("Its one-line text in English."))
    ja: str = field(metadata=doc("Its one-line text in Japanese."))

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
    topic: str = field(metadata=doc("The topic it belongs to: one of its pack's own (written bare) or of the bank."))


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


@record(slots=True, kw_only=True)
class PackDeclaration(Fieldwise):
    """A pack's `pack:` key: its name, and the topics and claims of its own, ids written bare."""

    yaml_label: ClassVar[str] = "pack"
    name: str = field(metadata=doc("The pack's name, which its own topics and claims are cited under (`rope` of `rope:R1`)."))
    topics: tuple[Topic, ...] = field(default=(), metadata=doc("Topics of the pack's own."))
    claims: tuple[Claim, ...] = field(default=(), metadata=doc("Claims of the pack's own, each in a topic."))


def namespace_of(claim_or_topic: str) -> str | None:
    """The pack a namespaced id belongs to (`rope` of `rope:R1`), or None for the bundled bank's."""
    name, colon, _ = claim_or_topic.partition(NAMESPACE)
    return name if colon else None


def parse_pack_declaration(data: object, where: Where, report: Report) -> Claims | None:
    """The topics and claims a pack declares, their ids namespaced by its name; None when the
    declaration is unusable (its problems are in `report`). A claim's `topic` is one of the pack's
    own (written bare) or a topic of the bank as questions cite it; the bank checks the latter."""
    parsed = converter_for(PackDeclaration)(data, where, report)
    if parsed is INVALID:
        return None
    assert isinstance(parsed, PackDeclaration) and isinstance(data, YamlMap)
    ok = True
    if not PACK_NAME.fullmatch(parsed.name):
        message = f"pack name '{parsed.name}' must be lower-case letters, digits, - or _ (at most 40), starting with a letter"
        report.error(Location(where.path, *data.marks["name"]), message)
        ok = False
    own_topics = {t.id for t in parsed.topics}
    for key, entries in (("topics", parsed.topics), ("claims", parsed.claims)):
        listed = data.get(key)
        marks = listed.marks if isinstance(listed, YamlList) else []
        seen: set[str] = set()
        for entry, mark in zip(entries, marks):
            if not OWN_ID.fullmatch(entry.id):
                fix = f"write its id bare (letters, digits, . - _): it is cited as '{parsed.name}{NAMESPACE}<id>'"
                report.error(Location(where.path, *mark), f"pack {key[:-1]} '{entry.id}': {fix}")
                ok = False
            elif entry.id in seen:
                report.error(Location(where.path, *mark), f"pack {key[:-1]} '{entry.id}' is declared twice")
                ok = False
            seen.add(entry.id)
    if not ok:
        return None
    prefix = parsed.name + NAMESPACE
    topics = {prefix + t.id: replace(t, id=prefix + t.id) for t in parsed.topics}
    claims = {
        prefix + c.id: replace(c, id=prefix + c.id, topic=prefix + c.topic if c.topic in own_topics else c.topic) for c in parsed.claims
    }
    return Claims(topics, claims)
