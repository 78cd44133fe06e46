"""The question bank: every pack found, loaded, converted and checked for clashing ids.

Packs come from the bundled `questions/` folder, the user's packs folder and any `--bank PATH`
given on the command line. A pack that fails to load costs only its own questions: the
problems are collected in `Bank.report` and the rest of the bank still works. Within a list of
questions whose YAML does not parse, the broken item costs only itself: the items are read apart.

`QUIZ_HOLD_LOADING=PATH` holds loading while the file at PATH exists: the claims are read, then
it waits, asking `stop` as it does between files, until the file is removed. Tests use it to act
while the packs are still loading (quitting, switching language) without a pack slow enough for
the slowest machine.
"""

from __future__ import annotations

import codecs
import hashlib
import itertools
import json
import os
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from quiz.bank.bank import Bank, SkippedQuestion
from quiz.bank.cache import BankCache
from quiz.bank.links import check_follow_ups
from quiz.bank.outcome import Event, FileOutcome, apply, report_problems
from quiz.base import locations
from quiz.format.claims import CLAIMS_FILE, Claims, load_claims, parse_claims, parse_pack_declaration
from quiz.format.diagnostics import Diagnostic, Location, QuestionReport, Report, Severity, SourceError
from quiz.format.marks import Where
from quiz.format.model import ID_PATTERN, QuestionBase
from quiz.format.scalars import INVALID
from quiz.format.suggest import did_you_mean
from quiz.format.yaml_data import ReadingStopped, Refused, StopCheck, YamlList, YamlMap
from quiz.format.yaml_source import parse_yaml, read_source
from quiz.types.registry import convert_question

YAML_SUFFIXES = (".yaml", ".yml")
_ITEM_START = re.compile(rb"-(?:[ \t]|\r?\n|$)")
"""A line that starts an item of a top-level list: a dash at its first column, then a space or its end."""
MAX_NAMED_ID = 80
"""Longest id quoted in front of a question's messages (a pack's id may be any text)."""
PACK_KEYS = frozenset({"pack", "questions"})
"""The keys of a pack file that declares topics and claims of its own (a mapping holding neither is one question)."""
HOLD_VARIABLE = "QUIZ_HOLD_LOADING"
HOLD_POLL_SECONDS = 0.02
"""How often a held load looks whether its hold file is gone, and asks whether to stop."""


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


def bundled_claims(report: Report, cache: BankCache | None = None) -> Claims:
    """The topics and claims every pack cites: only the bundled bank defines them."""
    path = locations.bundled_bank_dir() / CLAIMS_FILE
    if cache is None:
        return load_claims(path, report)
    try:
        raw = read_source(path)
    except SourceError as exc:
        report.add(exc.diagnostic())
        return Claims()
    digest = content_digest(raw)
    kept = cache.claims(path, digest)
    if kept is None:
        outcome = FileOutcome()
        kept = parse_claims(raw, path, outcome), outcome.events
        cache.keep_claims(path, digest, *kept)
    claims, events = kept
    report_problems(events, report)
    return claims


def load_bank(
    sources: Sequence[Path] | None = None, extra: Iterable[Path] = (), stop: StopCheck | None = None, cache: BankCache | None = None
) -> Bank:
    """Load every question from `sources` (default: bundled and user packs) plus `extra` paths.

    `stop` is asked between files, between questions and while reading; once it is true,
    loading ends with ReadingStopped (the app quitting while packs load). With a `cache`, a
    file whose content it has already seen is not read again (see `quiz.bank.cache`); the bank
    is the same either way.
    """
    every_source = [*(default_sources() if sources is None else sources), *extra]
    if cache is not None:
        cache.open(every_source)
    bank = Bank()
    bank.claims = bundled_claims(bank.report, cache)
    _hold(stop)
    seen_files: set[Path] = set()
    # The packs folder is the learner's own: empty until they drop a pack in, which is no error.
    optional = {locations.user_packs_dir()} if sources is None else set()
    for source in every_source:
        files = pack_files(source)
        if not files and source not in optional:
            what = "no such file or folder" if not source.exists() else "no YAML question files in it"
            missing = FileOutcome()
            _skip_file(missing, Diagnostic(Location(source), Severity.ERROR, what))
            apply(missing.events, bank)
        for path in files:
            if path.resolve() not in seen_files:
                _check_stop(stop)
                seen_files.add(path.resolve())
                bank.files.append(path)
                apply(_file_events(path, stop, cache), bank)
    check_follow_ups(bank.questions, bank.report, also_known={q.id for q in bank.rejected})
    return bank


def content_digest(raw: bytes) -> str:
    """The hash a file's content is kept by in the cache."""
    return hashlib.sha256(raw).hexdigest()


def _check_stop(stop: StopCheck | None) -> None:
    if stop is not None and stop():
        raise ReadingStopped()


def _hold(stop: StopCheck | None) -> None:
    """Wait while the file QUIZ_HOLD_LOADING names exists, stopping when `stop` says so."""
    held = os.environ.get(HOLD_VARIABLE)
    if not held:
        return
    hold = Path(held)
    while hold.exists():
        _check_stop(stop)
        time.sleep(HOLD_POLL_SECONDS)


def _file_events(path: Path, stop: StopCheck | None, cache: BankCache | None) -> list[Event]:
    """What loading the file at `path` gives: from the cache when it has seen this content."""
    outcome = FileOutcome()
    try:
        raw = read_source(path)
    except SourceError as exc:  # about the file as it is now, not its content: never kept
        _skip_file(outcome, exc.diagnostic())
        return outcome.events
    digest = content_digest(raw)
    if cache is None:
        _load_file(raw, path, outcome, stop)
        return outcome.events

    def read_afresh(stop: StopCheck | None = None) -> list[Event]:  # the content just read, whenever it is called
        fresh = FileOutcome()
        _load_file(raw, path, fresh, stop)
        if fresh.cacheable:
            cache.keep_pack(path, digest, fresh.events)
        return fresh.events

    kept = cache.pack(path, digest, read_afresh)
    return kept if kept is not None else read_afresh(stop)


def _load_file(raw: bytes, path: Path, outcome: FileOutcome, stop: StopCheck | None) -> None:
    try:
        data = parse_yaml(raw, path, stop)
    except SourceError as exc:
        apart = _items_apart(raw, path, stop) if exc.location.line else None
        if apart is None:
            _skip_file(outcome, exc.diagnostic())
            return
        # One question's broken YAML costs only that question: the others load (and `quiz
        # validate` self-tests them in the same run).
        data, broken = apart
        for diagnostic in broken:
            _skip_file(outcome, diagnostic)
    except (RecursionError, MemoryError, ValueError) as exc:  # a limit we missed costs only this file
        outcome.cacheable = not isinstance(exc, MemoryError)  # memory may suffice next time
        _skip_file(outcome, Diagnostic(Location(path), Severity.ERROR, f"cannot read file: {type(exc).__name__}: {exc}"))
        return
    if isinstance(data, YamlMap) and PACK_KEYS & data.keys():
        entries: list[tuple[object, tuple[int, int]]] = _pack_file(data, path, outcome)
    elif isinstance(data, YamlMap | Refused):
        entries = [(data, data.mark)]
    elif isinstance(data, YamlList):
        entries = list(zip(data, data.marks))
    else:
        _skip_file(outcome, Diagnostic(Location(path, 1, 1), Severity.ERROR, "a question file holds a question (a mapping) or a list of questions"))
        return
    for raw_question, mark in entries:
        _check_stop(stop)
        _load_question(raw_question, Location(path, *mark), outcome)


def _items_apart(raw: bytes, path: Path, stop: StopCheck | None) -> tuple[YamlList, list[Diagnostic]] | None:
    """A list of questions whose YAML does not parse, read item by item: each top-level `- ` line
    starts one (anchors are refused, so no item refers to another), parsed on its own at its own
    lines. The items that parse and the problems of those that do not; None when the file is not
    such a list or its items all parse apart (the problem is the file's, not one item's)."""
    lines = raw.removeprefix(codecs.BOM_UTF8).splitlines(keepends=True)
    starts = [n for n, line in enumerate(lines) if _ITEM_START.match(line)]
    first = next((n for n, line in enumerate(lines) if line.strip() and not line.lstrip().startswith(b"#")), None)
    if len(starts) < 2 or first != starts[0]:
        return None
    items = YamlList((starts[0] + 1, 1))
    broken: list[Diagnostic] = []
    bounds = [0, *starts[1:], len(lines)]  # comments above the first item go with it
    for begin, end in itertools.pairwise(bounds):
        try:
            item = parse_yaml(b"\n" * begin + b"".join(lines[begin:end]), path, stop)  # blank lines keep the line numbers
        except SourceError as exc:
            broken.append(exc.diagnostic())
            continue
        except (RecursionError, MemoryError, ValueError):  # a limit we missed: the file's problem stands
            return None
        if not isinstance(item, YamlList):
            return None
        items.extend(item)
        items.marks.extend(item.marks)
    return (items, broken) if broken else None


def _pack_file(data: YamlMap, path: Path, outcome: FileOutcome) -> list[tuple[object, tuple[int, int]]]:
    """The questions of a file that is a mapping of `pack` (the pack's own topics and claims) and
    `questions`; the declaration goes to `outcome`."""
    for key in data.keys() - PACK_KEYS:
        hint = did_you_mean(key, sorted(PACK_KEYS))
        outcome.error(Location(path, *data.marks[key]), f"unknown key '{key}' in a pack file{hint}; it holds pack and questions")
    if "pack" in data:
        mark = data.marks["pack"]
        declared = parse_pack_declaration(data["pack"], Where(path, mark, "pack"), outcome)
        if declared is not None:
            outcome.declared(declared, Location(path, *mark))
    questions = data.get("questions", YamlList(data.mark))
    if not isinstance(questions, YamlList):
        outcome.error(Location(path, *data.marks["questions"]), "questions: a list of questions")
        return []
    return list(zip(questions, questions.marks))


def _load_question(raw: object, location: Location, outcome: FileOutcome) -> None:
    """Convert one question; any failure skips this question only, with its location."""
    errors_before = outcome.error_count
    try:
        where = Where(location.path, (location.line, location.column), "")
        question = convert_question(raw, where, QuestionReport(outcome, _named_id(raw)))
        version = content_version(raw) if question is not INVALID else ""
    except (RecursionError, MemoryError, ValueError, TypeError) as exc:  # a limit we missed
        outcome.cacheable = outcome.cacheable and not isinstance(exc, MemoryError)
        outcome.error(location, f"this question could not be loaded: {type(exc).__name__}: {exc}")
        question = INVALID
    if question is INVALID:
        outcome.skipped(SkippedQuestion(location, _declared_id(raw)))
        return
    assert isinstance(question, QuestionBase)
    question = replace(question, source=location, version=version)
    if outcome.error_count > errors_before:
        # It breaks a rule of the format: never practised, but `quiz validate` still checks
        # its expressions and claims, so one run reports all of its problems.
        outcome.rejected(question, SkippedQuestion(location, _declared_id(raw)))
        return
    outcome.found(question)


def _skip_file(outcome: FileOutcome, diagnostic: Diagnostic) -> None:
    outcome.add(diagnostic)
    outcome.skipped(SkippedQuestion(diagnostic.location, None))


def _named_id(raw: object) -> str | None:
    """The id messages about a question start with: as written, if it is text of a sensible length."""
    declared = raw.get("id") if isinstance(raw, YamlMap) else None
    return declared if isinstance(declared, str) and len(declared) <= MAX_NAMED_ID else None


def _declared_id(raw: object) -> str | None:
    """The id a skipped question was given, when it reads as one (for the list of skipped questions)."""
    named = _named_id(raw)
    return named if named is not None and ID_PATTERN.fullmatch(named) else None


def _refused_json(value: object) -> str:
    if isinstance(value, Refused):
        return f"refused: {value.message}"
    raise TypeError(f"{type(value).__name__} is not JSON")


def content_version(raw: object) -> str:
    """A short hash of a question as parsed: formatting, comments and key order do not change it
    (a value refused while reading counts by why it was refused)."""
    canonical = json.dumps(raw, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=_refused_json)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:12]
