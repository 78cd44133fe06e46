"""The question bank: every pack found, loaded, converted and checked for clashing ids.

Packs come from the bundled `questions/` folder, the user's packs folder and any `--bank PATH`
given on the command line. A pack that fails to load costs only its own questions: the
problems are collected in `Bank.report` and the rest of the bank still works.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from quiz import locations
from quiz.bank.bank import Bank
from quiz.bank.links import check_follow_ups
from quiz.format.claims import CLAIMS_FILE, Claims, load_claims
from quiz.format.convert import INVALID, Where
from quiz.format.diagnostics import Location, QuestionReport, Report, SourceError
from quiz.format.model import QuestionBase
from quiz.format.yaml_source import YamlList, YamlMap, read_yaml_file
from quiz.types.registry import convert_question

YAML_SUFFIXES = (".yaml", ".yml")


def default_sources() -> list[Path]:
    """The bundled bank and, when it exists, the user's packs folder."""
    sources = [locations.bundled_bank_dir()]
    packs = locations.user_packs_dir()
    if packs.is_dir():
        sources.append(packs)
    return sources


def pack_files(source: Path) -> list[Path]:
    """The question files under `source` (a file or a folder), sorted; claims files excluded."""
    if source.is_file():
        return [source]
    if not source.is_dir():
        return []
    found = (p for p in source.rglob("*") if p.suffix in YAML_SUFFIXES and p.is_file())
    return sorted(p for p in found if p.name != CLAIMS_FILE)


def bundled_claims(report: Report) -> Claims:
    """The topics and claims every pack cites: only the bundled bank defines them."""
    return load_claims(locations.bundled_bank_dir() / CLAIMS_FILE, report)


def load_bank(sources: Sequence[Path] | None = None, extra: Iterable[Path] = ()) -> Bank:
    """Load every question from `sources` (default: bundled and user packs) plus `extra` paths."""
    bank = Bank()
    bank.claims = bundled_claims(bank.report)
    seen_files: set[Path] = set()
    # The packs folder is the learner's own: empty until they drop a pack in, which is no error.
    optional = {locations.user_packs_dir()} if sources is None else set()
    for source in [*(default_sources() if sources is None else sources), *extra]:
        files = pack_files(source)
        if not files and source not in optional:
            what = "no such file or folder" if not source.exists() else "no YAML question files in it"
            bank.report.error(Location(source), what)
        for path in files:
            if path.resolve() not in seen_files:
                seen_files.add(path.resolve())
                bank.files.append(path)
                _load_file(path, bank)
    check_follow_ups(bank.questions, bank.report, also_known={q.id for q in bank.rejected})
    return bank


def _load_file(path: Path, bank: Bank) -> None:
    try:
        data = read_yaml_file(path)
    except SourceError as exc:
        bank.report.diagnostics.append(exc.diagnostic())
        return
    if isinstance(data, YamlMap):
        entries: list[tuple[object, tuple[int, int]]] = [(data, data.mark)]
    elif isinstance(data, YamlList):
        entries = list(zip(data, data.marks))
    else:
        bank.report.error(Location(path, 1, 1), "a question file holds a question (a mapping) or a list of questions")
        return
    for raw, mark in entries:
        errors_before = len(bank.report.errors)
        question_id = raw.get("id") if isinstance(raw, YamlMap) else None
        question = convert_question(raw, Where(path, mark, ""), QuestionReport(bank.report, question_id))
        if question is INVALID:
            continue
        assert isinstance(question, QuestionBase)
        question = replace(question, source=Location(path, *mark), version=content_version(raw))
        if len(bank.report.errors) > errors_before:
            # It breaks a rule of the format: never practised, but `quiz validate` still checks
            # its expressions and claims, so one run reports all of its problems.
            bank.rejected.append(question)
            continue
        _add(bank, question)


def _add(bank: Bank, question: QuestionBase) -> None:
    first = bank.questions.get(question.id)
    if first is not None:
        bank.report.error(
            question.source or Location(Path("?")),
            f"question id '{question.id}' is defined twice: first at {first.source}, again here",
        )
        return
    bank.questions[question.id] = question


def content_version(raw: object) -> str:
    """A short hash of a question as parsed: formatting, comments and key order do not change it."""
    canonical = json.dumps(raw, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:12]
